import { Big, dec, money } from './decimal';
import { paymentSplit } from './pricing';

/**
 * Pesos and UF (DESIGN §17, decision 0034). A UF value is the pesos of one UF on one day, with two
 * decimals; an amount in UF becomes whole pesos, rounded half-up (the half peso goes up). A day
 * without a value is missing: nothing here guesses or interpolates one.
 */

/** The first and last days a UF value may have (the UF exists since 1967; values kept since 1977). */
export const UF_FIRST_DATE = '1977-01-01';
export const UF_LAST_DATE = '2100-12-31';

/** The UF moves by well under 0.1 % a day: a jump above this fraction is asked about, never taken silently. */
export const UF_NEIGHBOUR_JUMP = '0.01';

export const UF_SOURCES = ['file', 'user', 'automatic'] as const;
export type UfSource = (typeof UF_SOURCES)[number];
export const UF_SOURCE_LABELS: Record<UfSource, string> = {
  file: 'Archivo',
  user: 'Usuario',
  automatic: 'Automático',
};

export const UF_MISSING_LABEL = 'Valor UF no disponible';

/** An amount in UF in whole pesos at a UF value: half-up ('0.5' peso goes up). */
export function ufToClp(amountUf: string, ufValue: string): string {
  return dec(amountUf).times(dec(ufValue)).round(0, Big.roundHalfUp).toFixed(0);
}

/**
 * What a payment is worth in pesos: frozen (stored with the payment at its date), estimated at
 * today's value while unpaid, or missing when the needed day has no value.
 */
export type ClpFigure =
  | { state: 'frozen'; clp: string; ufValue: string; date: string }
  | { state: 'estimated'; clp: string; ufValue: string; date: string }
  | { state: 'missing'; date: string };

/**
 * A commission's two payments as stored: each one's date and, once paid, the pesos and the UF value
 * frozen with it (decision 0034).
 */
export interface CommissionPayments {
  payment1Date: string | null;
  payment2Date: string | null;
  payment1Clp: string | null;
  payment1UfValue: string | null;
  payment2Clp: string | null;
  payment2UfValue: string | null;
}

/**
 * The pesos of a payment. Paid (a payment date): the stored amount and value when there are; if the
 * day had no value when it was paid, 'missing'. Unpaid: today's value, labelled estimated.
 */
export function clpFigureOf(input: {
  amountUf: string;
  paymentDate: string | null;
  frozenClp: string | null;
  frozenUfValue: string | null;
  today: string;
  todayUfValue: string | null;
}): ClpFigure {
  if (input.paymentDate) {
    if (input.frozenClp !== null && input.frozenUfValue !== null) {
      return { state: 'frozen', clp: input.frozenClp, ufValue: input.frozenUfValue, date: input.paymentDate };
    }
    return { state: 'missing', date: input.paymentDate };
  }
  if (input.todayUfValue === null) return { state: 'missing', date: input.today };
  return {
    state: 'estimated',
    clp: ufToClp(input.amountUf, input.todayUfValue),
    ufValue: input.todayUfValue,
    date: input.today,
  };
}

/** The UF a payment pays: the first payment's percentage (100 with one payment), the second the rest. */
export function paymentUf(
  commission: { commissionAmount: string; numberOfPayments: number; firstPaymentPercentage: number },
  payment: 1 | 2,
): string {
  const { first, second } = paymentSplit(commission);
  return payment === 1 ? first : second;
}

// --- Reading published values ---------------------------------------------------------------------

/**
 * A number as written in Chile ('36.789,36', '36789,36') or with a decimal point ('36789.36'); null
 * when it is not one. A comma is the decimal mark; then dots group thousands.
 */
export function parseEsClDecimal(text: string): string | null {
  const cleaned = text.replace(/[\s$\u00a0]/g, '');
  if (cleaned === '') return null;
  let normalised: string;
  if (cleaned.includes(',')) {
    if (!/^-?\d{1,3}(\.\d{3})*(,\d+)?$/.test(cleaned) && !/^-?\d+(,\d+)?$/.test(cleaned)) return null;
    normalised = cleaned.replace(/\./g, '').replace(',', '.');
  } else if (/^-?\d{1,3}(\.\d{3})+$/.test(cleaned)) {
    normalised = cleaned.replace(/\./g, '');
  } else if (/^-?\d+(\.\d+)?$/.test(cleaned)) {
    normalised = cleaned;
  } else {
    return null;
  }
  return normalised;
}

/** True when 'YYYY-MM-DD' names a real calendar day. */
export function isCalendarDate(date: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A day written 'dd/MM/yyyy', 'dd-MM-yyyy' or 'YYYY-MM-DD' as 'YYYY-MM-DD'; null otherwise. */
export function parseDayText(text: string): string | null {
  const trimmed = text.trim();
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(trimmed);
  if (match) return `${match[1]}-${pad(Number(match[2]))}-${pad(Number(match[3]))}`;
  match = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(trimmed);
  if (match) return `${match[3]}-${pad(Number(match[2]))}-${pad(Number(match[1]))}`;
  return null;
}

const MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'];

/** 'Enero', 'ENE', 'ene.', 'Septiembre', 'Set' → 1..12; null otherwise. */
function monthOfHeader(text: string): number | null {
  const word = text
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f.]/g, '');
  if (word.length < 3) return null;
  const start = word === 'set' || word.startsWith('setiembre') ? 'sep' : word.slice(0, 3);
  const index = MONTHS.indexOf(start);
  return index < 0 ? null : index + 1;
}

export interface UfEntry {
  date: string;
  value: string;
}

/** A line the file could not be read at, or a value refused, in the user's words. */
export interface UfProblem {
  /** 1-based row of the file (0 when it concerns the whole file). */
  row: number;
  message: string;
}

export interface UfReading {
  entries: UfEntry[];
  problems: UfProblem[];
}

/**
 * Reads a table of UF values from its cells (a CSV's fields or a sheet's texts, row by row), in
 * either of two layouts:
 * - the SII's yearly table: a header row of months (Enero … Diciembre, or their first three letters),
 *   then rows whose first cell is the day (1–31) and whose other cells are that day's values; the
 *   year is a four-digit number in a cell above or beside the header, or `year` (the file's name);
 * - a list: rows of a date (dd/MM/yyyy or YYYY-MM-DD) and a value.
 * Empty cells are days without a value (the table's 30 and 31 February, or days not yet published).
 */
export function readUfTable(rows: readonly (readonly string[])[], year?: number): UfReading {
  const headerIndex = rows.findIndex((row) => row.filter((cell) => monthOfHeader(cell) !== null).length >= 2);
  return headerIndex >= 0 ? readYearTable(rows, headerIndex, year) : readList(rows);
}

function readYearTable(rows: readonly (readonly string[])[], headerIndex: number, year?: number): UfReading {
  const problems: UfProblem[] = [];
  const entries: UfEntry[] = [];
  const header = rows[headerIndex]!;
  let tableYear = year;
  for (const row of rows.slice(0, headerIndex + 1)) {
    for (const cell of row) {
      const found = /(?:^|\D)((?:19|20|21)\d{2})(?:\D|$)/.exec(cell);
      if (found) tableYear = Number(found[1]);
    }
  }
  if (tableYear === undefined) {
    return {
      entries,
      problems: [
        {
          row: 0,
          message:
            'No se encontró el año de la tabla (escríbalo en el encabezado o en el nombre del archivo)',
        },
      ],
    };
  }
  const months = header.map(monthOfHeader);
  for (let index = headerIndex + 1; index < rows.length; index++) {
    const row = rows[index]!;
    const dayText = (row[0] ?? '').trim();
    if (dayText === '' && row.every((cell) => cell.trim() === '')) continue;
    const day = /^\d{1,2}$/.test(dayText) ? Number(dayText) : null;
    if (day === null || day < 1 || day > 31) {
      problems.push({
        row: index + 1,
        message: `Fila ${index + 1}: «${dayText}» no es un día del mes (1 a 31)`,
      });
      continue;
    }
    for (let column = 1; column < row.length; column++) {
      const month = months[column];
      const cell = (row[column] ?? '').trim();
      if (!month || cell === '') continue;
      const date = `${tableYear}-${pad(month)}-${pad(day)}`;
      const value = parseEsClDecimal(cell);
      if (!isCalendarDate(date)) {
        problems.push({
          row: index + 1,
          message: `Fila ${index + 1}: el ${day} de ${MONTH_NAMES[month - 1]} no existe`,
        });
      } else if (value === null) {
        problems.push({ row: index + 1, message: `Fila ${index + 1}: «${cell}» no es un valor` });
      } else {
        entries.push({ date, value });
      }
    }
  }
  return { entries, problems };
}

function readList(rows: readonly (readonly string[])[]): UfReading {
  const problems: UfProblem[] = [];
  const entries: UfEntry[] = [];
  rows.forEach((row, index) => {
    const cells = row.map((cell) => cell.trim()).filter((cell) => cell !== '');
    if (cells.length === 0) return;
    const date = parseDayText(cells[0] ?? '');
    // A header line ('Fecha;Valor') is not a value.
    if (date === null && index === 0 && cells.every((cell) => parseEsClDecimal(cell) === null)) return;
    if (date === null || !isCalendarDate(date)) {
      problems.push({
        row: index + 1,
        message: `Fila ${index + 1}: «${cells[0]}» no es una fecha (dd/mm/aaaa)`,
      });
      return;
    }
    const value = cells[1] === undefined ? null : parseEsClDecimal(cells[1]);
    if (value === null) {
      problems.push({ row: index + 1, message: `Fila ${index + 1}: falta el valor o no es un número` });
      return;
    }
    entries.push({ date, value });
  });
  return { entries, problems };
}

export const MONTH_NAMES = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

/** A day as the messages write it: '05/11/2026'. */
function shown(date: string): string {
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y}`;
}

/**
 * The refusals of a set of values, before anything is saved: a day twice, a value not positive, a
 * date outside 1977–2100, more than two decimals.
 */
export function ufRefusals(entries: readonly UfEntry[]): string[] {
  const refusals: string[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.date)) refusals.push(`El día ${shown(entry.date)} aparece más de una vez`);
    seen.add(entry.date);
    if (entry.date < UF_FIRST_DATE || entry.date > UF_LAST_DATE)
      refusals.push(`La fecha ${shown(entry.date)} está fuera del rango permitido (1977 a 2100)`);
    const value = dec(entry.value);
    if (value.lte(0)) refusals.push(`El valor del ${shown(entry.date)} debe ser mayor que cero`);
    else if (!value.eq(dec(money(value))))
      refusals.push(`El valor del ${shown(entry.date)} tiene más de dos decimales`);
  }
  return refusals;
}

/**
 * Values that jump more than 1 % from the day before or after (among the new values and the stored
 * ones around them): shown for confirmation, never taken silently.
 */
export function ufJumps(entries: readonly UfEntry[], stored: readonly UfEntry[] = []): string[] {
  const byDate = new Map<string, string>();
  for (const entry of stored) byDate.set(entry.date, entry.value);
  for (const entry of entries) byDate.set(entry.date, entry.value);
  const limit = dec(UF_NEIGHBOUR_JUMP);
  const warnings: string[] = [];
  for (const entry of entries) {
    const previous = byDate.get(dayBefore(entry.date));
    if (previous === undefined) continue;
    const change = dec(entry.value).minus(previous).abs().div(previous);
    if (change.gt(limit)) {
      warnings.push(
        `El valor del ${shown(entry.date)} difiere en ${change.times(100).round(2).toFixed(2).replace('.', ',')} % del día anterior`,
      );
    }
  }
  // A stored day right after a new one is compared too (a correction that breaks the next day).
  for (const entry of entries) {
    const nextDate = dayAfter(entry.date);
    if (entries.some((other) => other.date === nextDate)) continue;
    const next = byDate.get(nextDate);
    if (next === undefined) continue;
    const change = dec(next).minus(entry.value).abs().div(entry.value);
    if (change.gt(limit)) {
      warnings.push(
        `El valor del ${shown(entry.date)} difiere en ${change.times(100).round(2).toFixed(2).replace('.', ',')} % del día siguiente`,
      );
    }
  }
  return warnings;
}

export function dayBefore(date: string): string {
  return shiftDay(date, -1);
}

export function dayAfter(date: string): string {
  return shiftDay(date, 1);
}

function shiftDay(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const shifted = new Date(Date.UTC(y!, m! - 1, d! + days));
  return shifted.toISOString().slice(0, 10);
}

/**
 * A CSV's rows: ';', tab or ',' separated (a ';' anywhere decides: Chilean Excel writes ';'), quotes
 * around fields with separators, a BOM dropped.
 */
export function csvRows(text: string): string[][] {
  const source = text.replace(/^\ufeff/, '');
  const separator = source.includes(';') ? ';' : source.includes('\t') ? '\t' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!;
    if (quoted) {
      if (char === '"' && source[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') {
        quoted = false;
      } else {
        field += char;
      }
    } else if (char === '"' && field === '') {
      quoted = true;
    } else if (char === separator) {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[index + 1] === '\n') index++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += char;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
