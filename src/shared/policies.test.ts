import { describe, expect, it } from 'vitest';
import { allow } from './policies';

const admin = { id: 'a', userType: 'Administrador' };
const kam = { id: 'k', userType: 'KAM' };

describe('record policies', () => {
  it('lets the assignee or an administrator decide an approval task, nobody else', () => {
    expect(allow(kam, 'task.decide', { assigneeIds: ['k'] })).toBe(true);
    expect(allow(admin, 'task.decide', { assigneeIds: ['k'] })).toBe(true);
    expect(allow(kam, 'task.decide', { assigneeIds: ['x'] })).toBe(false);
    expect(allow(kam, 'task.decide', { assigneeIds: [] })).toBe(false);
  });

  it("shows another user's tasks only to administrators", () => {
    expect(allow(kam, 'tasks.readOf', { userId: 'k' })).toBe(true);
    expect(allow(kam, 'tasks.readOf', { userId: 'a' })).toBe(false);
    expect(allow(admin, 'tasks.readOf', { userId: 'k' })).toBe(true);
  });
});
