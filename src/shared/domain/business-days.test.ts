import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  businessDaysBack,
  businessDaysBetween,
  isBusinessDay,
  nextBusinessDay,
  reminderWindow,
} from './business-days';

// Friday 18 and Saturday 19 September 2026 are holidays (Fiestas Patrias).
const holidays = new Set(['2026-09-18', '2026-09-19', '2026-12-08']);

describe('Chilean business days', () => {
  it('are weekdays that are not holidays', () => {
    expect(isBusinessDay('2026-09-17', holidays)).toBe(true); // Thursday
    expect(isBusinessDay('2026-09-18', holidays)).toBe(false); // holiday
    expect(isBusinessDay('2026-09-20', holidays)).toBe(false); // Sunday
    expect(isBusinessDay('2026-09-21', holidays)).toBe(true); // Monday
  });

  it('jumps a holiday and the weekend after it', () => {
    expect(nextBusinessDay('2026-09-17', holidays)).toBe('2026-09-21');
    expect(nextBusinessDay('2026-12-07', holidays)).toBe('2026-12-09');
  });

  it('counts the business days around a holiday', () => {
    // Thursday 17 → Tuesday 22: Monday 21 and Tuesday 22 count, the holiday and the weekend do not.
    expect(businessDaysBetween('2026-09-17', '2026-09-22', holidays)).toBe(2);
    expect(businessDaysBetween('2026-09-17', '2026-09-22', new Set())).toBe(3);
    expect(businessDaysBetween('2026-09-22', '2026-09-17', holidays)).toBe(0);
  });

  it('reminds on Thursday of the deadlines up to Monday when Friday is a holiday', () => {
    expect(reminderWindow('2026-09-17', holidays)).toEqual({ after: '2026-09-17', through: '2026-09-21' });
  });

  it('never counts more business days than calendar days, and weekends never', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 800 }), fc.integer({ min: 0, max: 60 }), (offset, span) => {
        const from = addDays('2026-01-01', offset);
        const to = addDays(from, span);
        const count = businessDaysBetween(from, to, new Set());
        expect(count).toBeLessThanOrEqual(span);
        expect(count).toBeGreaterThanOrEqual(Math.floor((span * 5) / 7) - 1);
      }),
    );
  });
});

describe('businessDaysBack', () => {
  it('counts business days back over weekends and holidays, today itself for 0', () => {
    // 2026-12-07 is a Monday; 2026-12-08 a holiday (Inmaculada Concepción).
    const holidays = new Set(['2026-12-08']);
    expect(businessDaysBack('2026-12-07', 0, holidays)).toBe('2026-12-07');
    expect(businessDaysBack('2026-12-07', 1, holidays)).toBe('2026-12-04');
    expect(businessDaysBack('2026-12-09', 1, holidays)).toBe('2026-12-07');
    expect(businessDaysBack('2026-12-09', 5, holidays)).toBe('2026-12-01');
  });
});
