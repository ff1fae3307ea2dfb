import { describe, expect, it } from 'vitest';
import { allow } from './policies';

const admin = { id: 'a', userType: 'Administrador' };
const kam = { id: 'k', userType: 'KAM' };

describe('record policies', () => {
  it("shows another user's tasks only to administrators", () => {
    expect(allow(kam, 'tasks.readOf', { userId: 'k' })).toBe(true);
    expect(allow(kam, 'tasks.readOf', { userId: 'a' })).toBe(false);
    expect(allow(admin, 'tasks.readOf', { userId: 'k' })).toBe(true);
  });

  it('shows a restricted document type to administrators and the payments team only, the others to all', () => {
    const payments = { id: 'p', userType: 'Gestor de Pagos' };
    const operations = { id: 'o', userType: 'Operaciones' };
    for (const user of [admin, payments])
      expect(allow(user, 'documents.read', { isRestricted: true })).toBe(true);
    for (const user of [kam, operations])
      expect(allow(user, 'documents.read', { isRestricted: true })).toBe(false);
    for (const user of [admin, kam, payments, operations])
      expect(allow(user, 'documents.read', { isRestricted: false })).toBe(true);
  });

  it("lets the payments team record a broker's invoice until its task is completed, administrators always", () => {
    const payments = { id: 'p', userType: 'Gestor de Pagos' };
    const others = [kam, { id: 'o', userType: 'Operaciones' }, { id: 's', userType: 'Supervisor' }];
    for (const taskStatus of ['blocked', 'pending', 'in_progress', 'completed']) {
      expect(allow(admin, 'brokerInvoices.record', { taskStatus })).toBe(true);
      expect(allow(payments, 'brokerInvoices.record', { taskStatus })).toBe(taskStatus !== 'completed');
      for (const user of others) expect(allow(user, 'brokerInvoices.record', { taskStatus })).toBe(false);
    }
  });
});
