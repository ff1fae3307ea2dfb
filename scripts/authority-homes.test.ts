import { describe, expect, it } from 'vitest';
import { authorityHomeViolations, CATALOGUE } from './authority-homes';
import { projectSources } from './import-boundaries';

describe('one home for who may do what (issue 56)', () => {
  it('holds on the sources: no user type is compared outside the catalogue', () => {
    expect(authorityHomeViolations(projectSources())).toEqual([]);
  });

  it('fails on a planted comparison, either way round, and on isAdmin', () => {
    const planted = authorityHomeViolations([
      {
        path: 'src/server/features/brokers/brokers.service.ts',
        text: "const payments = user.userType === 'Gestor de Pagos';",
      },
      { path: 'src/client/features/clients/clients-page.tsx', text: "if ('KAM' !== user.userType) return;" },
      {
        path: 'src/client/features/sale-flows/sale-flow-page.tsx',
        text: '{user.isAdmin ? <Button /> : null}',
      },
      { path: 'src/server/features/reports/reports.service.ts', text: 'switch (ctx.user.userType) {' },
    ]);
    expect(planted).toEqual([
      `src/server/features/brokers/brokers.service.ts:1 compares user types: ask can(user, action) of ${CATALOGUE} instead`,
      `src/client/features/clients/clients-page.tsx:1 compares user types: ask can(user, action) of ${CATALOGUE} instead`,
      `src/client/features/sale-flows/sale-flow-page.tsx:1 tests isAdmin: ask can(user, action) of ${CATALOGUE} instead`,
      `src/server/features/reports/reports.service.ts:1 switches on a user type: ask can(user, action) of ${CATALOGUE} instead`,
    ]);
  });

  it('leaves the catalogue, tests, and names that merely contain the word alone', () => {
    expect(
      authorityHomeViolations([
        { path: CATALOGUE, text: "return userType === 'Administrador';" },
        { path: 'src/server/features/auth/auth.test.ts', text: "expect(user.userType === 'KAM')" },
        { path: 'src/server/features/settings/users.service.ts', text: 'isAdministratorType(user.userType)' },
      ]),
    ).toEqual([]);
  });
});
