import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatDecimal,
  formatFractionAsPercent,
  formatInstantDate,
  formatMonthYear,
  formatPercent,
  formatUF,
  parseMonthYear,
  santiagoDateOf,
  santiagoInstant,
  santiagoWallClock,
} from './index';

describe('UF and percent formatting (es-CL)', () => {
  it('shows UF with exactly two decimals and dots for thousands', () => {
    expect(formatUF('1234.56')).toBe('UF 1.234,56');
    expect(formatUF('1234')).toBe('UF 1.234,00');
    expect(formatUF(0)).toBe('UF 0,00');
    expect(formatUF('1234567.5')).toBe('UF 1.234.567,50');
    expect(formatUF(null)).toBe('');
  });

  it('rounds half-up with decimal arithmetic', () => {
    expect(formatDecimal('1.005')).toBe('1,01');
    expect(formatDecimal('2.675')).toBe('2,68');
    expect(formatDecimal(1.005)).toBe('1,01');
    expect(formatDecimal('-1234.5')).toBe('-1.234,50');
    expect(formatDecimal('abc')).toBe('');
  });

  it('formats percentages with two decimals', () => {
    expect(formatPercent(12.5)).toBe('12,50 %');
    expect(formatPercent('3.333')).toBe('3,33 %');
    expect(formatFractionAsPercent('0.125')).toBe('12,50 %');
    expect(formatFractionAsPercent('0.05')).toBe('5,00 %');
  });
});

describe('dates in America/Santiago', () => {
  it('shows a DATE column as dd/MM/yyyy without shifting a day', () => {
    expect(formatDate('2026-03-01')).toBe('01/03/2026');
    expect(formatDate('1990-12-31')).toBe('31/12/1990');
    expect(formatDate(null)).toBe('');
  });

  it('shows an instant on its Santiago calendar day', () => {
    // 02:00 UTC on 1 March is still 28 February in Santiago (UTC-3 in summer).
    expect(formatInstantDate('2026-03-01T02:00:00Z')).toBe('28/02/2026');
    expect(santiagoDateOf(new Date('2026-03-01T02:00:00Z'))).toBe('2026-02-28');
    // In winter Santiago is UTC-4.
    expect(formatDateTime('2026-07-01T03:30:00Z')).toBe('30/06/2026 23:30');
  });

  it('names months in Spanish and parses "mes de AAAA"', () => {
    expect(formatMonthYear('2026-03-01')).toBe('marzo de 2026');
    expect(parseMonthYear('marzo de 2026')).toBe('2026-03-01');
    expect(parseMonthYear('Septiembre de 2025')).toBe('2025-09-01');
    expect(parseMonthYear('2026-11')).toBe('2026-11-01');
    expect(parseMonthYear('2026-13')).toBeNull();
    expect(parseMonthYear('marzo 2026')).toBeNull();
  });
});

describe('the Santiago wall clock of admin-edited instants', () => {
  it('reads and names instants in Santiago whatever the machine’s time zone', () => {
    // 12:00 UTC on 20 November 2026 is 09:00 in Santiago (summer time, UTC-3).
    expect(santiagoWallClock('2026-11-20T12:00:00Z')).toEqual({ date: '2026-11-20', time: '09:00' });
    expect(santiagoInstant('2026-11-20', '09:00')?.toISOString()).toBe('2026-11-20T12:00:00.000Z');
    // Winter (UTC-4), across midnight.
    expect(santiagoWallClock('2026-07-01T03:30:00Z')).toEqual({ date: '2026-06-30', time: '23:30' });
    expect(santiagoInstant('2026-06-30', '23:30')?.toISOString()).toBe('2026-07-01T03:30:00.000Z');
    // The hour skipped on 6 September 2026 (00:00 −04 became 01:00 −03): the instant an hour later,
    // on that day, never 23:xx of the day before.
    expect(santiagoInstant('2026-09-06', '00:00')?.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(santiagoInstant('2026-09-06', '00:30')?.toISOString()).toBe('2026-09-06T04:30:00.000Z');
    expect(santiagoInstant('2026-09-06', '01:00')?.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(santiagoInstant('2026-13-01', '10:00')).toBeNull();
    expect(santiagoInstant('2026-06-30', '9:00')).toBeNull();
  });
});
