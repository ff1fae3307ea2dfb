import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMonths, monthsEndingWith, percentChange } from './dashboard';
import { daysLate, santiagoDaysBetween } from './workflow/days';

describe('percent change versus the previous month', () => {
  it('rounds the absolute percent half up and signs it', () => {
    expect(percentChange(12, 8)).toBe(50);
    expect(percentChange(6, 8)).toBe(-25);
    expect(percentChange(9, 8)).toBe(13); // 12.5 -> 13
    expect(percentChange(7, 8)).toBe(-13); // -12.5 -> -13 (absolute value rounded half up)
    expect(percentChange(4, 3)).toBe(33);
    expect(percentChange(5, 5)).toBe(0);
    expect(Object.is(percentChange(1999, 2000), 0)).toBe(true); // -0.05 % rounds to 0, not -0
  });

  it('gives 100, positive, when the previous month had nothing', () => {
    expect(percentChange(7, 0)).toBe(100);
    expect(percentChange(0, 0)).toBe(100);
  });

  it('agrees with Math.round of the exact ratio', () => {
    fc.assert(
      fc.property(fc.nat(5000), fc.integer({ min: 1, max: 5000 }), (current, previous) => {
        const exact = (Math.abs(current - previous) * 100) / previous;
        const expected = Math.round(exact) * (current < previous ? -1 : 1);
        // Math.round on binary floats can miss an exact .5 by one ulp: only compare clear cases.
        fc.pre(Math.abs((exact % 1) - 0.5) > 1e-9);
        expect(percentChange(current, previous)).toBe(expected === 0 ? 0 : expected);
      }),
    );
  });
});

describe('calendar months', () => {
  it('steps across years', () => {
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2025-12', 1)).toBe('2026-01');
    expect(addMonths('2026-03', -14)).toBe('2025-01');
    expect(monthsEndingWith('2026-02', 6)).toEqual([
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
    ]);
  });
});

describe('days late', () => {
  it('counts whole days on the Santiago calendar', () => {
    // 23:50 and 00:10 in Santiago (UTC-3 in summer) are two calendar days.
    expect(santiagoDaysBetween(new Date('2026-02-11T02:50:00Z'), new Date('2026-02-11T03:10:00Z'))).toBe(1);
    expect(santiagoDaysBetween(new Date('2026-02-10T12:00:00Z'), new Date('2026-02-10T23:00:00Z'))).toBe(0);
  });

  it('is the days beyond the deadline, never negative', () => {
    const now = new Date('2026-02-20T15:00:00Z');
    const started = '2026-02-10T15:00:00.000Z';
    expect(daysLate({ startedAt: started, completedAt: null, daysToComplete: 2 }, now)).toBe(8);
    expect(
      daysLate({ startedAt: started, completedAt: '2026-02-11T15:00:00.000Z', daysToComplete: 2 }, now),
    ).toBe(0);
    expect(
      daysLate({ startedAt: started, completedAt: '2026-02-15T15:00:00.000Z', daysToComplete: 3 }, now),
    ).toBe(2);
    expect(daysLate({ startedAt: null, completedAt: null, daysToComplete: 2 }, now)).toBe(0);
    expect(daysLate({ startedAt: started, completedAt: null, daysToComplete: null }, now)).toBe(0);
  });
});
