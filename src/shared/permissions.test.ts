import { describe, expect, it } from 'vitest';
import { ADMIN_ACTIONS, can, isAdmin, USER_TYPES } from './permissions';

describe('permissions', () => {
  it('lets administrators take every administrator-only action', () => {
    for (const action of ADMIN_ACTIONS) expect(can({ userType: 'Administrador' }, action)).toBe(true);
    expect(isAdmin({ userType: 'Administrador' })).toBe(true);
  });

  it('refuses them to every other user type', () => {
    for (const userType of USER_TYPES.filter((type) => type !== 'Administrador')) {
      expect(isAdmin({ userType })).toBe(false);
      for (const action of ADMIN_ACTIONS) expect(can({ userType }, action)).toBe(false);
    }
  });
});
