import { Big } from './decimal';
import { normalizeRut } from './rut';

/**
 * What staff really have in their spreadsheets, read into what the forms would have sent (issue 32,
 * DESIGN §16): amounts '1.234,56', '1234.56' or '1,234.56'; percentages '12,5%' or '0,125'; dates
 * dd/mm/aaaa, dd-mm-aaaa, aaaa-mm-dd and Excel serial numbers; RUT with or without dots, dash or a
 * lower-case k; 'Sí'/'No'. Pure: a cell goes in, a value or a Spanish reason comes out. Text is never
 * evaluated: a cell that looks like a formula ('=1+1') stays that text.
 */

/** A cell as the readers hand it: text (CSV, XLSX strings), a number, a boolean or a date (XLSX). */
export type CellValue = string | number | boolean | Date | null;

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (reason: string): Parsed<never> => ({ ok: false, reason });

/** True when the cell holds nothing (null, or only spaces). */
export function isBlank(cell: CellValue): boolean {
  return cell === null || (typeof cell === 'string' && cell.trim() === '');
}

/** Plain decimal text of a JavaScript number (no exponent, no binary noise past 10 decimals). */
function numberText(value: number): string {
  const text = new Big(value.toPrecision(15)).toFixed();
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** The cell as text: trimmed; numbers without exponent; dates 'YYYY-MM-DD'; booleans 'Sí'/'No'. */
export function cellText(cell: CellValue): string {
  if (cell === null) return '';
  if (typeof cell === 'string') return cell.trim();
  if (typeof cell === 'number') return numberText(cell);
  if (typeof cell === 'boolean') return cell ? 'Sí' : 'No';
  return isoOfUtcDate(cell);
}

function isoOfUtcDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * A decimal number written the Chilean way or the English way, read as a plain decimal string.
 * Both separators: the last one is the decimal mark. Only commas: the comma is the decimal mark
 * ('12,5'), unless they group thousands ('1,234,567'). Only dots: several dots group thousands
 * ('1.234.567'), and so does one dot before exactly three digits after a non-zero lead ('1.234' is
 * mil doscientos treinta y cuatro in Chile); otherwise the dot is the decimal mark ('1234.56', '0.125').
 */
export function readDecimal(text: string): string | null {
  let t = text.replace(/[\s\u00a0]/g, '');
  const negative = t.startsWith('-');
  if (negative) t = t.slice(1);
  if (!/^[\d.,]+$/.test(t) || !/\d/.test(t)) return null;
  const lastDot = t.lastIndexOf('.');
  const lastComma = t.lastIndexOf(',');
  let integer: string;
  let fraction = '';
  const grouped = (part: string, mark: string) =>
    new RegExp(`^\\d{1,3}(\\${mark}\\d{3})+$`).test(part) && !part.startsWith('0');
  if (lastDot >= 0 && lastComma >= 0) {
    const decimalMark = lastDot > lastComma ? '.' : ',';
    const groupMark = decimalMark === '.' ? ',' : '.';
    const [head, tail, ...rest] = t.split(decimalMark);
    if (rest.length > 0 || tail === undefined || !/^\d+$/.test(tail)) return null;
    if (!grouped(head!, groupMark)) return null;
    integer = head!.split(groupMark).join('');
    fraction = tail;
  } else if (lastComma >= 0) {
    const commas = t.split(',').length - 1;
    if (commas > 1) {
      if (!grouped(t, ',')) return null;
      integer = t.split(',').join('');
    } else {
      [integer, fraction] = t.split(',') as [string, string];
    }
  } else if (lastDot >= 0) {
    const dots = t.split('.').length - 1;
    if (dots > 1 || grouped(t, '.')) {
      if (!grouped(t, '.')) return null;
      integer = t.split('.').join('');
    } else {
      [integer, fraction] = t.split('.') as [string, string];
    }
  } else {
    integer = t;
  }
  if (!/^\d*$/.test(integer) || !/^\d*$/.test(fraction) || integer + fraction === '') return null;
  const value = new Big(`${integer || '0'}${fraction ? `.${fraction}` : ''}`);
  return (negative ? value.neg() : value).toFixed();
}

/** A UF amount ≥ 0 with at most two decimals: 'UF 1.234,56', '1234.56', '$1,234.56' → '1234.56'. */
export function parseAmount(cell: CellValue): Parsed<string> {
  const reason = 'No es un monto válido (use por ejemplo 1.234,56)';
  if (typeof cell === 'number') return amountOf(numberText(cell));
  if (typeof cell !== 'string') return fail(reason);
  const text = cell.replace(/^\s*(UF|\$)\s*/i, '');
  const decimal = readDecimal(text);
  return decimal === null ? fail(reason) : amountOf(decimal);
}

function amountOf(decimal: string): Parsed<string> {
  const value = new Big(decimal);
  if (value.lt(0)) return fail('El monto no puede ser negativo');
  if (value.round(2).cmp(value) !== 0) return fail('El monto admite hasta 2 decimales');
  return ok(value.toFixed(2));
}

/**
 * A percentage as a fraction 0..1 with at most six decimals: '12,5%' and '12.5 %' → '0.125'; a bare
 * number up to 1 is already a fraction ('0,125', or an Excel percent cell 0.125); a bare number above
 * 1 is read as percent points ('12,5' → '0.125').
 */
export function parsePercent(cell: CellValue): Parsed<string> {
  const reason = 'No es un porcentaje válido (use por ejemplo 12,5% o 0,125)';
  let decimal: string | null;
  let isPercent = false;
  if (typeof cell === 'number') decimal = numberText(cell);
  else if (typeof cell === 'string') {
    const text = cell.trim();
    isPercent = text.endsWith('%');
    decimal = readDecimal(isPercent ? text.slice(0, -1) : text);
  } else return fail(reason);
  if (decimal === null) return fail(reason);
  let value = new Big(decimal);
  if (isPercent || value.gt(1)) value = value.div(100);
  if (value.lt(0) || value.gt(1)) return fail('El porcentaje debe estar entre 0% y 100%');
  if (value.round(6).cmp(value) !== 0) return fail('El porcentaje admite hasta 4 decimales');
  return ok(value.toFixed());
}

/** A whole number (Excel may hand 2 as 2 or '2'). */
export function parseInteger(cell: CellValue): Parsed<number> {
  const text = cellText(cell).replace(/[\s.]/g, '');
  if (!/^-?\d{1,9}$/.test(text)) return fail('No es un número entero');
  return ok(Number(text));
}

const DAY_MS = 86_400_000;
/** Excel's day 0 in the 1900 date system, counting its phantom 29/02/1900 (serial 60). */
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

/** 'YYYY-MM-DD' of an Excel serial day number (1900 system); null outside 1900..2100 or fractional garbage. */
export function excelSerialDate(serial: number): string | null {
  if (!Number.isFinite(serial) || serial < 1 || serial > 73_415) return null;
  const days = Math.floor(serial);
  // Serials before 1 March 1900 are one day off (Excel believes 1900 was a leap year).
  const adjusted = days < 61 ? days + 1 : days;
  return isoOfUtcDate(new Date(EXCEL_EPOCH + adjusted * DAY_MS));
}

function calendarDate(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2100 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return isoOfUtcDate(date);
}

/**
 * A calendar day 'YYYY-MM-DD' from dd/mm/aaaa, dd-mm-aaaa, dd.mm.aaaa, aaaa-mm-dd, an Excel serial
 * number (or its text) or an XLSX date cell (read on the UTC calendar, as Excel stores it).
 */
export function parseDate(cell: CellValue): Parsed<string> {
  const reason = 'No es una fecha válida (use dd/mm/aaaa)';
  if (cell instanceof Date) {
    return Number.isNaN(cell.getTime()) ? fail(reason) : dateOrFail(isoOfUtcDate(cell), reason);
  }
  if (typeof cell === 'number') return dateOrFail(excelSerialDate(cell), reason);
  if (typeof cell !== 'string') return fail(reason);
  const text = cell.trim();
  let match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (match) return dateOrFail(calendarDate(Number(match[3]), Number(match[2]), Number(match[1])), reason);
  match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?$/.exec(text);
  if (match) return dateOrFail(calendarDate(Number(match[1]), Number(match[2]), Number(match[3])), reason);
  if (/^\d{1,5}(?:[.,]\d+)?$/.test(text))
    return dateOrFail(excelSerialDate(Number(text.replace(',', '.'))), reason);
  return fail(reason);
}

function dateOrFail(value: string | null, reason: string): Parsed<string> {
  return value === null ? fail(reason) : ok(value);
}

/** A RUT in any spelling ('12.345.678-5', '123456785', '7654321-k') → '12345678-5'. */
export function parseRut(cell: CellValue): Parsed<string> {
  const normalized = normalizeRut(cellText(cell));
  return normalized === null ? fail('El RUT no es válido (revise el dígito verificador)') : ok(normalized);
}

const YES = new Set(['si', 's', 'yes', 'y', 'true', 'verdadero', '1', 'x']);
const NO = new Set(['no', 'n', 'false', 'falso', '0']);

/** 'Sí' / 'No' (also 'si', 'S', 'N', 'x', 1/0, TRUE/FALSE and Excel booleans). */
export function parseYesNo(cell: CellValue): Parsed<boolean> {
  if (typeof cell === 'boolean') return ok(cell);
  const text = foldText(cellText(cell));
  if (YES.has(text)) return ok(true);
  if (NO.has(text)) return ok(false);
  return fail("Escriba 'Sí' o 'No'");
}

/** Lower case without accents, spaces collapsed: how headers and list values are compared. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9%]+/g, ' ')
    .trim();
}
