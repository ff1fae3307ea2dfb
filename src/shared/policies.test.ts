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
});
