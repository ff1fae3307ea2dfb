import { describe, expect, it } from 'vitest';
import {
  ACTION_NAMES,
  ACTIONS,
  type Action,
  actionsOf,
  can,
  type Grants,
  holdersOf,
  holds,
  isAdministratorType,
  USER_TYPES,
  type UserType,
} from './permissions';

const grants = (entries: [Action, UserType, boolean][]): Grants => {
  const map = new Map<Action, Map<UserType, boolean>>();
  for (const [action, userType, granted] of entries) {
    const byType = map.get(action) ?? new Map<UserType, boolean>();
    byType.set(userType, granted);
    map.set(action, byType);
  }
  return map;
};

describe('the catalogue of actions', () => {
  it('gives administrators every action by default', () => {
    for (const action of ACTION_NAMES) expect(holds('Administrador', action)).toBe(true);
    expect(actionsOf('Administrador')).toEqual(ACTION_NAMES);
  });

  it("keeps the spec's admin-only actions fixed to administrators", () => {
    const specAdminOnly: Action[] = [
      'flows.administer',
      'comments.delete',
      'reservations.rescind',
      'payments.start',
      'menu.followUp',
      'menu.approvals',
    ];
    for (const action of specAdminOnly) {
      expect(ACTIONS[action].fixed).toBe(true);
      expect(holdersOf(action)).toEqual(['Administrador']);
    }
  });

  it('gives the payments team its bank and batch actions by default, and nobody else', () => {
    for (const action of ['bankAccounts.change', 'bankAccounts.verify', 'paymentBatches.manage'] as const)
      expect(holdersOf(action)).toEqual(['Administrador', 'Gestor de Pagos']);
  });

  it('applies a grant and a withdrawal of a grantable action, and ignores one of a fixed action', () => {
    const office = grants([
      ['reports.export', 'KAM', false],
      ['imports.manage', 'Operaciones', true],
      ['menu.followUp', 'KAM', true],
    ]);
    expect(holds('KAM', 'reports.export', office)).toBe(false);
    expect(holds('Supervisor', 'reports.export', office)).toBe(true);
    expect(holds('Operaciones', 'imports.manage', office)).toBe(true);
    expect(holds('KAM', 'menu.followUp', office)).toBe(false);
    expect(actionsOf('Operaciones', office)).toContain('imports.manage');
  });

  it('answers `can` from the actions a principal holds, never from its type', () => {
    expect(can({ actions: actionsOf('KAM') }, 'users.manage')).toBe(false);
    expect(can({ actions: ['users.manage'] }, 'users.manage')).toBe(true);
    expect(can({ actions: [] }, 'reports.export')).toBe(false);
  });

  it('works out the same list once per grants and type', () => {
    expect(actionsOf('KAM')).toBe(actionsOf('KAM'));
    for (const userType of USER_TYPES)
      expect(isAdministratorType(userType)).toBe(userType === 'Administrador');
  });
});
