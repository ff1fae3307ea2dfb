import { describe, expect, it } from 'vitest';
import { boundaryViolations, projectSources } from './import-boundaries';

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

  it('lets a feature use another through its service (server) or its api/index (client)', () => {
    expect(
      boundaryViolations([
        {
          path: 'src/server/features/payments/payments.service.ts',
          text: "import * as w from '../workflows/workflows.service';",
        },
        {
          path: 'src/client/features/payments/payments-page.tsx',
          text: "import { useX } from '../commissions/api';\nimport { D } from '../commissions';",
        },
        { path: 'src/server/features/payments/payments.routes.ts', text: "import { z } from 'zod';" },
      ]),
    ).toEqual([]);
  });
});
