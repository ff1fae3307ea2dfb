import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatRut, isValidRut, normalizeRut, rutCheckDigit } from './rut';

describe('RUT', () => {
  it('computes the módulo-11 check digit, including 0 and K', () => {
    expect(rutCheckDigit('12345678')).toBe('5');
    expect(rutCheckDigit('11111111')).toBe('1');
    expect(rutCheckDigit('10000013')).toBe('K');
    expect(rutCheckDigit('6')).toBe('K');
    expect(rutCheckDigit('5126663')).toBe('3');
    expect(rutCheckDigit('28')).toBe('0');
  });

  it('accepts a RUT with or without dots and dash and normalises it', () => {
    expect(normalizeRut('12.345.678-5')).toBe('12345678-5');
    expect(normalizeRut('12345678-5')).toBe('12345678-5');
    expect(normalizeRut('123456785')).toBe('12345678-5');
    expect(normalizeRut(' 10.000.013-k ')).toBe('10000013-K');
    expect(normalizeRut('6-k')).toBe('6-K');
  });

  it('refuses a wrong check digit or a malformed value', () => {
    expect(normalizeRut('12.345.678-9')).toBeNull();
    expect(normalizeRut('10000013-1')).toBeNull();
    expect(normalizeRut('abc')).toBeNull();
    expect(normalizeRut('')).toBeNull();
    expect(normalizeRut('12.345.678-')).toBeNull();
    expect(normalizeRut('0-0')).toBeNull();
    expect(isValidRut('12.345.678-5')).toBe(true);
    expect(isValidRut('12.345.678-4')).toBe(false);
  });

  it('formats with thousands dots', () => {
    expect(formatRut('12345678-5')).toBe('12.345.678-5');
    expect(formatRut('6-K')).toBe('6-K');
    expect(formatRut('1234567-4')).toBe('1.234.567-4');
  });

  it('round-trips every body with its own check digit (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), (n) => {
        const body = String(n);
        const rut = `${body}-${rutCheckDigit(body)}`;
        expect(normalizeRut(formatRut(rut))).toBe(rut);
        const wrong = rutCheckDigit(body) === '1' ? '2' : '1';
        expect(normalizeRut(`${body}-${wrong}`)).toBeNull();
      }),
    );
  });
});
