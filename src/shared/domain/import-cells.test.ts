import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cellText,
  excelSerialDate,
  foldText,
  parseAmount,
  parseDate,
  parseInteger,
  parsePercent,
  parseRut,
  parseYesNo,
  readDecimal,
} from './import-cells';
import { rutCheckDigit } from './rut';

const value = <T>(parsed: { ok: true; value: T } | { ok: false; reason: string }) =>
  parsed.ok ? parsed.value : `error: ${parsed.reason}`;

describe('amounts', () => {
  it.each([
    ['1.234,56', '1234.56'],
    ['1234.56', '1234.56'],
    ['1,234.56', '1234.56'],
    ['1234,5', '1234.50'],
    ['UF 2.500', '2500.00'],
    ['$ 1.234.567,8', '1234567.80'],
    ['1.234', '1234.00'],
    ['0.5', '0.50'],
    ['12', '12.00'],
    [' 3 100,25 ', '3100.25'],
  ])('%s → %s', (text, expected) => {
    expect(value(parseAmount(text))).toBe(expected);
  });

  it('reads number cells without binary noise', () => {
    expect(value(parseAmount(1234.56))).toBe('1234.56');
    expect(value(parseAmount(0.1 + 0.2))).toBe('0.30');
  });

  it('refuses what is not an amount, with a Spanish reason', () => {
    for (const bad of ['abc', '1.2.3,4,5', '12,345,6', '=1+1', '', '1,2,3']) {
      expect(parseAmount(bad).ok, bad).toBe(false);
    }
    expect(value(parseAmount('-5'))).toBe('error: El monto no puede ser negativo');
    expect(value(parseAmount('1,234'))).toBe('error: El monto admite hasta 2 decimales');
  });

  it('reads every spelling of the same amount alike (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999_999_999 }),
        fc.integer({ min: 0, max: 99 }),
        (whole, cents) => {
          const plain = `${whole}.${String(cents).padStart(2, '0')}`;
          const grouped = whole.toLocaleString('en-US');
          const chilean = `${grouped.replaceAll(',', '.')},${String(cents).padStart(2, '0')}`;
          const english = `${grouped}.${String(cents).padStart(2, '0')}`;
          for (const text of [plain, chilean, english]) expect(value(parseAmount(text))).toBe(plain);
        },
      ),
    );
  });
});

describe('percentages', () => {
  it.each([
    ['12,5%', '0.125'],
    ['12.5 %', '0.125'],
    ['0,125', '0.125'],
    ['0.125', '0.125'],
    ['3', '0.03'],
    ['100%', '1'],
    ['0', '0'],
  ])('%s → %s', (text, expected) => {
    expect(value(parsePercent(text))).toBe(expected);
  });

  it('reads Excel percent cells (fractions)', () => {
    expect(value(parsePercent(0.125))).toBe('0.125');
  });

  it('refuses what is out of range or not a number', () => {
    expect(parsePercent('120%').ok).toBe(false);
    expect(parsePercent('doce').ok).toBe(false);
  });
});

describe('dates', () => {
  it.each([
    ['05/03/2024', '2024-03-05'],
    ['5-3-2024', '2024-03-05'],
    ['2024-03-05', '2024-03-05'],
    ['05.03.2024', '2024-03-05'],
    ['45356', '2024-03-05'],
  ])('%s → %s', (text, expected) => {
    expect(value(parseDate(text))).toBe(expected);
  });

  it('reads Excel serial numbers and date cells', () => {
    expect(value(parseDate(45356))).toBe('2024-03-05');
    expect(value(parseDate(new Date(Date.UTC(2024, 2, 5))))).toBe('2024-03-05');
    expect(excelSerialDate(1)).toBe('1900-01-01');
    expect(excelSerialDate(61)).toBe('1900-03-01');
  });

  it('refuses impossible days', () => {
    for (const bad of ['31/02/2024', '2024-13-01', '12/2024', 'mañana', '1800-01-01']) {
      expect(parseDate(bad).ok, bad).toBe(false);
    }
  });

  it('reads a day the same in all its spellings (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1901-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        (date) => {
          const iso = date.toISOString().slice(0, 10);
          const [y, m, d] = iso.split('-');
          for (const text of [iso, `${d}/${m}/${y}`, `${d}-${m}-${y}`])
            expect(value(parseDate(text))).toBe(iso);
          const serial = Math.round(
            (Date.UTC(Number(y), Number(m) - 1, Number(d)) - Date.UTC(1899, 11, 30)) / 86_400_000,
          );
          expect(value(parseDate(serial))).toBe(iso);
        },
      ),
    );
  });
});

describe('RUT, yes/no, integers and text', () => {
  it('reads every spelling of a RUT', () => {
    for (const text of ['12.345.678-5', '12345678-5', '123456785', ' 12.345.678-5 ']) {
      expect(value(parseRut(text))).toBe('12345678-5');
    }
    expect(value(parseRut('10.000.013-k'))).toBe('10000013-K');
    expect(parseRut('12.345.678-9').ok).toBe(false);
  });

  it('normalises any valid RUT whatever its spelling (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000_000, max: 99_999_999 }),
        fc.boolean(),
        fc.boolean(),
        (body, dots, lower) => {
          const digit = rutCheckDigit(String(body));
          const shown = dots ? String(body).replace(/\B(?=(\d{3})+(?!\d))/g, '.') : String(body);
          const text = `${shown}-${lower ? digit.toLowerCase() : digit}`;
          expect(value(parseRut(text))).toBe(`${body}-${digit}`);
        },
      ),
    );
  });

  it('reads Sí/No', () => {
    for (const yes of ['Sí', 'si', 'SI', 'S', 'x', true, 1]) expect(value(parseYesNo(yes))).toBe(true);
    for (const no of ['No', 'n', 'NO', false, 0]) expect(value(parseYesNo(no))).toBe(false);
    expect(value(parseYesNo('quizás'))).toBe("error: Escriba 'Sí' o 'No'");
  });

  it('reads integers', () => {
    expect(value(parseInteger('2'))).toBe(2);
    expect(value(parseInteger(2))).toBe(2);
    expect(parseInteger('2,5').ok).toBe(false);
  });

  it('keeps formula-looking text as text', () => {
    expect(cellText('=HYPERLINK("http://x")')).toBe('=HYPERLINK("http://x")');
    expect(cellText('+56 9 1234 5678')).toBe('+56 9 1234 5678');
  });

  it('folds headers and list values', () => {
    expect(foldText('  RUT Cliente ')).toBe('rut cliente');
    expect(foldText('Fecha de Constitución')).toBe('fecha de constitucion');
    expect(readDecimal('abc')).toBeNull();
  });
});
