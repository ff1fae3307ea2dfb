import { describe, expect, it } from 'vitest';
import { newRowId } from './ids';

describe('newRowId', () => {
  it('makes distinct version-7 ids that sort by the millisecond they were made in', async () => {
    const first = Array.from({ length: 5_000 }, () => newRowId());
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = Array.from({ length: 5_000 }, () => newRowId());
    const all = [...first, ...later];
    expect(new Set(all).size).toBe(all.length);
    for (const id of all)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Every id made after the pause sorts after every id made before it (the timestamp leads).
    expect([...first].sort().at(-1)! < [...later].sort()[0]!).toBe(true);
    // The random part differs between ids of one millisecond (the pool never hands out a slice twice).
    expect(new Set(all.map((id) => id.slice(19))).size).toBe(all.length);
  });
});
