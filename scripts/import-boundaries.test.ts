import { describe, expect, it } from 'vitest';
import {
  boundaryViolations,
  flowWriteViolations,
  onDemandViolations,
  projectSources,
  queryNameViolations,
} from './import-boundaries';

describe('import boundaries (DESIGN §1)', () => {
  it('holds on the sources', () => {
    expect(boundaryViolations(projectSources())).toEqual([]);
  });

  it('catches each kind of violation', () => {
    const violations = boundaryViolations([
      { path: 'src/client/features/clients/api.ts', text: "import { x } from '../../../server/db/client';" },
      { path: 'src/server/app.ts', text: "import x from '../client/main';" },
      { path: 'src/shared/domain/x.ts', text: "import type { Database } from '../../server/db/client';" },
      {
        path: 'src/server/features/payments/payments.service.ts',
        text: "import { lockFlow } from '../workflows/workflows.queries';",
      },
      {
        path: 'src/client/features/payments/payments-page.tsx',
        text: "const page = import('../reservations/reservation-form');",
      },
    ]);
    expect(violations).toHaveLength(5);
    expect(violations[3]).toBe(
      'src/server/features/payments/payments.service.ts imports ../workflows/workflows.queries: ' +
        'feature payments reaches feature workflows only through workflows.service.ts',
    );
  });

  it('lets a feature use another through its service (server) or its api/index/keys (client)', () => {
    expect(
      boundaryViolations([
        {
          path: 'src/server/features/payments/payments.service.ts',
          text: "import * as w from '../workflows/workflows.service';",
        },
        {
          path: 'src/client/features/payments/payments-page.tsx',
          text: "import { useX } from '../commissions/api';\nimport { D } from '../commissions';\nimport { xKeys } from '../commissions/keys';",
        },
        { path: 'src/server/features/payments/payments.routes.ts', text: "import { z } from 'zod';" },
      ]),
    ).toEqual([]);
  });
});

describe('one writer of flow rows (issue 29)', () => {
  it('holds on src, scripts and bench', () => {
    const files = ['src', 'scripts', 'bench'].flatMap((root) => projectSources(root));
    expect(files.some((file) => file.path === 'scripts/demo-flows.ts')).toBe(true);
    expect(flowWriteViolations(files)).toEqual([]);
  });

  it('catches SQL, a generic row writer and the query builder writing flow tables outside workflows', () => {
    const violations = flowWriteViolations([
      {
        path: 'scripts/demo-flows.ts',
        text: 'const a = 1;\nawait tx.execute(sql`insert into flow_tasks (id) values (1)`);',
      },
      { path: 'src/server/features/payments/payments.queries.ts', text: 'sql`UPDATE flows SET status = 1`' },
      {
        path: 'scripts/demo-data.ts',
        text: "await insertRows(tx, 'flow_task_comments', columns, rows, 1000);",
      },
      {
        path: 'src/server/features/rescissions/rescissions.service.ts',
        text: 'await tx.delete(flowTaskAssignees);',
      },
      { path: 'bench/run.ts', text: 'sql`delete from "flow_task_rejections" where true`' },
    ]);
    expect(violations).toHaveLength(5);
    expect(violations[0]).toBe(
      "scripts/demo-flows.ts:2: 'insert into flow_tasks' — flow rows are written only by features/workflows",
    );
  });

  it('leaves reads, other tables, the workflows feature and tests alone', () => {
    expect(
      flowWriteViolations([
        {
          path: 'src/server/features/reports/reports.queries.ts',
          text: 'sql`select * from flows f join flow_tasks ft on true`',
        },
        {
          path: 'src/server/features/clients/clients.queries.ts',
          text: 'sql`update flows_archive set x = 1; update clients set flows = 1`',
        },
        {
          path: 'src/server/features/workflows/workflows.queries.ts',
          text: 'sql`insert into flows (id) values (1)`',
        },
        {
          path: 'src/server/features/payments/payments.test.ts',
          text: 'sql`update flow_tasks set status = 1`',
        },
      ]),
    ).toEqual([]);
  });

  it('names every query with a verb of the guide, and catches one that does not', () => {
    expect(queryNameViolations(projectSources())).toEqual([]);
    expect(
      queryNameViolations([
        {
          path: 'src/server/features/stock/stock.queries.ts',
          text: 'export async function gridRows(db) {}\nexport function listGridRows(db) {}\nexport function unitsOf(db) {}',
        },
        { path: 'src/server/features/stock/stock.service.ts', text: 'export function gridRows() {}' },
      ]),
    ).toEqual([
      "src/server/features/stock/stock.queries.ts: gridRows — a query's name starts with a verb of docs/code-style.md",
    ]);
  });
});

describe('packages the server loads on demand', () => {
  it('holds on the sources, and catches a value import of exceljs outside its loader', () => {
    expect(onDemandViolations(projectSources())).toEqual([]);
    expect(
      onDemandViolations([
        { path: 'src/server/exports/exceljs.ts', text: "import type ExcelJS from 'exceljs';" },
        {
          path: 'src/server/features/reports/reports.service.ts',
          text: "import type ExcelJS from 'exceljs';",
        },
        { path: 'src/server/features/reports/reports.test.ts', text: "import ExcelJS from 'exceljs';" },
        { path: 'src/server/features/stock/price-file.ts', text: "import ExcelJS from 'exceljs';" },
        { path: 'src/server/exports/xlsx.ts', text: "import {\n  Workbook,\n} from 'exceljs';" },
      ]),
    ).toEqual([
      'src/server/features/stock/price-file.ts: exceljs — loaded on demand through src/server/exports/exceljs.ts (a type import is fine)',
      'src/server/exports/xlsx.ts: exceljs — loaded on demand through src/server/exports/exceljs.ts (a type import is fine)',
    ]);
  });
});
