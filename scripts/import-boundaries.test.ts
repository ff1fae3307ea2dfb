import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TABLE_OWNERS } from '../src/server/db/owners';
import {
  boundaryViolations,
  onDemandViolations,
  ownershipViolations,
  projectSources,
  projectTables,
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

/** Source text that interpolates into SQL: '${inner}' (written so, the lint reads no placeholder here). */
const interpolated = (inner: string) => `$${'{'}${inner}}`;

describe('one writer per table (issue 55, decision 0056)', () => {
  const tables = projectTables();

  it('gives every table of the schema one owner, an existing feature', () => {
    const features = new Set(readdirSync('src/server/features'));
    expect(tables.length).toBeGreaterThan(50);
    for (const table of tables) {
      const owner = (TABLE_OWNERS as Record<string, string>)[table.name];
      expect(owner, table.name).toBeDefined();
      expect(features.has(owner!), `${table.name} → ${owner}`).toBe(true);
    }
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual(tables.map((table) => table.name).sort());
  });

  it('holds on src, scripts and bench', () => {
    const files = ['src', 'scripts', 'bench'].flatMap((root) => projectSources(root));
    expect(files.some((file) => file.path === 'scripts/demo-flows.ts')).toBe(true);
    expect(ownershipViolations(files, tables)).toEqual([]);
  });

  it("fails on a planted write to another feature's table, in each of its forms", () => {
    const planted = [
      {
        path: 'src/server/features/imports/kinds/reservations.ts',
        text: 'const a = 1;\nawait tx.insert(reservations).values(rows);',
      },
      {
        path: 'src/server/features/imports/kinds/clients.ts',
        text: 'await insertRowsAsJson(tx, clients, rows);',
      },
      {
        path: 'src/server/features/payments/payments.queries.ts',
        text: 'sql`UPDATE broker_commissions SET x = 1`',
      },
      {
        path: 'src/server/features/imports/imports.queries.ts',
        text: `sql\`delete from ${interpolated('TABLE_SQL[table]')} where true\``,
      },
      {
        path: 'src/server/features/rescissions/rescissions.queries.ts',
        text: `sql\`delete from ${interpolated('brokers')} where true\``,
      },
    ];
    const violations = ownershipViolations(planted, tables);
    expect(violations).toEqual([
      "src/server/features/imports/kinds/reservations.ts:2: '.insert(reservations)' — reservations is written only by features/reservations (its service's …In functions)",
      "src/server/features/imports/kinds/clients.ts:1: 'insertRowsAsJson(tx, clients' — clients is written only by features/clients (its service's …In functions)",
      "src/server/features/payments/payments.queries.ts:1: 'UPDATE broker_commissions' — broker_commissions is written only by features/commissions (its service's …In functions)",
      `src/server/features/imports/imports.queries.ts:1: 'delete from ${interpolated('TABLE_SQL[table]')}' — a write to a table named at run time: call its owner's service`,
      `src/server/features/rescissions/rescissions.queries.ts:1: 'delete from ${interpolated('brokers')}' — brokers is written only by features/brokers (its service's …In functions)`,
    ]);
  });

  it('keeps flow rows to the workflows feature, even for the dataset writers', () => {
    const violations = ownershipViolations(
      [
        {
          path: 'scripts/demo-flows.ts',
          text: 'const a = 1;\nawait tx.execute(sql`insert into flow_tasks (id) values (1)`);',
        },
        {
          path: 'scripts/demo-data.ts',
          text: "await insertRows(tx, 'flow_task_comments', columns, rows, 1000);",
        },
        { path: 'bench/run.ts', text: 'sql`delete from "flow_task_rejections" where true`' },
        {
          path: 'src/server/features/rescissions/rescissions.service.ts',
          text: 'await tx.delete(flowTaskAssignees);',
        },
      ],
      tables,
    );
    expect(violations).toHaveLength(4);
    expect(violations[0]).toBe(
      "scripts/demo-flows.ts:2: 'insert into flow_tasks' — flow_tasks is written only by features/workflows (its service's …In functions)",
    );
  });

  it("leaves reads, the owner, the dataset writers' other tables, the db helpers and tests alone", () => {
    expect(
      ownershipViolations(
        [
          {
            path: 'src/server/features/reports/reports.queries.ts',
            text: 'sql`select * from flows f join flow_tasks ft on true join clients c on true`',
          },
          {
            path: 'src/server/features/clients/clients.queries.ts',
            text: 'sql`update flows_archive set x = 1; update clients set flows = 1`; tx.update(clients)',
          },
          {
            path: 'src/server/features/workflows/workflows.queries.ts',
            text: 'sql`insert into flows (id) values (1)`',
          },
          {
            path: 'src/server/features/payments/payments.test.ts',
            text: 'sql`update flow_tasks set status = 1`',
          },
          { path: 'scripts/demo-data.ts', text: "await insertRows(tx, 'clients', columns, rows, 1000);" },
          { path: 'src/server/db/bulk.ts', text: `sql\`insert into ${interpolated('table')} (x) select 1\`` },
        ],
        tables,
      ),
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
