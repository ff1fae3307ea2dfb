import { describe, expect, it } from 'vitest';
import { actionsOf } from './permissions';
import { allow } from './policies';

const user = (id: string, userType: string) => ({ id, userType, actions: actionsOf(userType) });

const admin = user('a', 'Administrador');
const kam = user('k', 'KAM');

describe('record policies', () => {
  it("shows another user's tasks only to administrators", () => {
    expect(allow(kam, 'tasks.readOf', { userId: 'k' })).toBe(true);
    expect(allow(kam, 'tasks.readOf', { userId: 'a' })).toBe(false);
    expect(allow(admin, 'tasks.readOf', { userId: 'k' })).toBe(true);
  });

  it('shows a restricted document type to administrators and the payments team only, the others to all', () => {
    const payments = user('p', 'Gestor de Pagos');
    const operations = user('o', 'Operaciones');
    for (const user of [admin, payments])
      expect(allow(user, 'documents.read', { isRestricted: true })).toBe(true);
    for (const user of [kam, operations])
      expect(allow(user, 'documents.read', { isRestricted: true })).toBe(false);
    for (const user of [admin, kam, payments, operations])
      expect(allow(user, 'documents.read', { isRestricted: false })).toBe(true);
  });

  it("lets the payments team record a broker's invoice until its task is completed, administrators always", () => {
    const payments = user('p', 'Gestor de Pagos');
    const others = [kam, user('o', 'Operaciones'), user('s', 'Supervisor')];
    for (const taskStatus of ['blocked', 'pending', 'in_progress', 'completed']) {
      expect(allow(admin, 'brokerInvoices.record', { taskStatus })).toBe(true);
      expect(allow(payments, 'brokerInvoices.record', { taskStatus })).toBe(taskStatus !== 'completed');
      for (const user of others) expect(allow(user, 'brokerInvoices.record', { taskStatus })).toBe(false);
    }
  });
});
