import { dec, toFixed } from '../domain/decimal';

/**
 * Display formatting for es-CL: UF with exactly two decimals, percentages with two decimals,
 * dates as dd/MM/yyyy and times in America/Santiago. Pure functions used by the client (and by
 * CSV exports later); they never change stored values.
 */
// This module loads big.js (the decimals): the shell, on every screen, imports ./names directly.

export const TIME_ZONE = 'America/Santiago';
export const LOCALE = 'es-CL';

const integer = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0, useGrouping: 'always' });

function toNumber(value: string | number): number {
  return typeof value === 'number' ? value : Number(value);
}

/** Formats an already-rounded decimal string exactly, without going through floating point. */
function groupDecimalString(value: string): string {
  const negative = value.startsWith('-');
  const [intPart = '0', fracPart = ''] = value.replace('-', '').split('.');
  const frac = `${fracPart}00`.slice(0, 2);
  const grouped = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${negative && (intPart !== '0' || /[1-9]/.test(frac)) ? '-' : ''}${grouped},${frac}`;
}

/**
 * A number with exactly two decimals in es-CL ('1.234,56'), rounded half-up with decimal
 * arithmetic (never through binary floating point). Empty for null or non-numbers.
 */
export function formatDecimal(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'number' && !Number.isFinite(value)) return '';
  try {
    return groupDecimalString(toFixed(dec(value), 2));
  } catch {
    return '';
  }
}

/** UF amount: 'UF 1.234,56'. Empty for null. */
export function formatUF(value: string | number | null | undefined): string {
  const formatted = formatDecimal(value);
  return formatted === '' ? '' : `UF ${formatted}`;
}

/** Whole pesos: '$ 1.234.567' (rounded half-up); empty for null. */
export function formatCLP(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  try {
    const whole = toFixed(dec(value), 0);
    const negative = whole.startsWith('-') && whole !== '-0';
    const grouped = whole.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, '.');
    return `${negative ? '-' : ''}$ ${grouped}`;
  } catch {
    return '';
  }
}

/** A UF value in pesos with its two decimals: '$ 36.789,36'; empty for null. */
export function formatUfValue(value: string | number | null | undefined): string {
  const formatted = formatDecimal(value);
  return formatted === '' ? '' : `$ ${formatted}`;
}

/** A percentage given in percent units (12.5 -> '12,50 %'). */
export function formatPercent(value: string | number | null | undefined): string {
  const formatted = formatDecimal(value);
  return formatted === '' ? '' : `${formatted} %`;
}

/** A fraction 0..1 shown as percent (0.125 -> '12,50 %'). */
export function formatFractionAsPercent(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  return formatPercent(toNumber(value) * 100);
}

export function formatInteger(value: number): string {
  return integer.format(value);
}

const oneDecimal = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** A file size in bytes as '5,3 MB' (powers of 1,024; a display, never a stored value). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${integer.format(bytes)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${oneDecimal.format(value)} ${units[unit]}`;
}

/** 'YYYY-MM-DD' (a DATE column) -> 'dd/MM/yyyy', without any time-zone shift. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return '';
  // A bare calendar date: never converted through a Date, so it cannot shift a day.
  if (value.length === 10) return `${match[3]}/${match[2]}/${match[1]}`;
  return formatInstantDate(value);
}

const santiagoDate = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
const santiagoDateTime = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

function parts(formatter: Intl.DateTimeFormat, instant: Date): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of formatter.formatToParts(instant)) out[part.type] = part.value;
  return out;
}

/** An instant (ISO timestamp or Date) as its calendar date in Santiago: 'dd/MM/yyyy'. */
export function formatInstantDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const instant = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(instant.getTime())) return '';
  const p = parts(santiagoDate, instant);
  return `${p.day}/${p.month}/${p.year}`;
}

/** An instant as 'dd/MM/yyyy HH:mm' in Santiago. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const instant = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(instant.getTime())) return '';
  const p = parts(santiagoDateTime, instant);
  const hour = p.hour === '24' ? '00' : p.hour;
  return `${p.day}/${p.month}/${p.year} ${hour}:${p.minute}`;
}

/** An instant as ISO-8601 UTC text (as the API and JSON carry it), or null. */
export function isoOrNull(instant: Date | null): string | null {
  return instant === null ? null : instant.toISOString();
}

/** The calendar date ('YYYY-MM-DD') of an instant in Santiago. */
export function santiagoDateOf(instant: Date): string {
  // Santiago's offset is whole hours, so its date changes only on a minute of UTC: the last minute's
  // answer is kept. Every imported row's date check asks for today (a birth date is not in the
  // future), and formatToParts costs ~7 µs: 2 s of CPU over the three passes of 100,000 clients.
  const minute = Math.floor(instant.getTime() / 60_000);
  if (minute === lastDate.minute) return lastDate.date;
  const p = parts(santiagoDate, instant);
  const date = `${p.year}-${p.month}-${p.day}`;
  lastDate = { minute, date };
  return date;
}
let lastDate = { minute: Number.NaN, date: '' };

const santiagoWall = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** An instant as its Santiago wall clock: { date: 'YYYY-MM-DD', time: 'HH:mm' } (what a picker edits). */
export function santiagoWallClock(value: string | Date): { date: string; time: string } {
  const p = parts(santiagoWall, typeof value === 'string' ? new Date(value) : value);
  const hour = p.hour === '24' ? '00' : p.hour;
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${hour}:${p.minute}` };
}

/**
 * The instant a Santiago wall clock names ('YYYY-MM-DD', 'HH:mm'), whatever the browser's own time
 * zone; null when either is not valid. In the hour skipped when clocks go forward, the instant an
 * hour later.
 */
export function santiagoInstant(date: string, time: string): Date | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const wanted = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  // No rolling over: 31/02 or 25:00 is no time at all.
  if (new Date(wanted).toISOString().slice(0, 16) !== `${date}T${time}`) return null;
  // Guess with the offset at the wall time read as UTC, then correct once with the offset found.
  const shownAt = (instant: number) => {
    const wall = santiagoWallClock(new Date(instant));
    return Date.parse(`${wall.date}T${wall.time}:00Z`);
  };
  let instant = wanted;
  for (let i = 0; i < 2; i++) instant += wanted - shownAt(instant);
  // In the skipped hour no instant shows the wall time, and the guess may end before the gap (6
  // September 2026 00:00 guessed as 5 September 23:00): the instant after the gap, as PostgreSQL's
  // `AT TIME ZONE` (santiago-day.test.ts holds them equal).
  const shown = shownAt(instant);
  if (shown < wanted) instant += wanted - shown;
  return new Date(instant);
}

const MONTHS = [
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
const SHORT_MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'];

/** 'YYYY-MM' or 'YYYY-MM-DD' -> 'marzo de 2026'. */
export function formatMonthYear(value: string | null | undefined): string {
  if (!value) return '';
  const match = /^(\d{4})-(\d{2})/.exec(value);
  if (!match) return '';
  return `${MONTHS[Number(match[2]) - 1]} de ${match[1]}`;
}

/** 'YYYY-MM' -> 'mar 2026' (chart labels). */
export function formatShortMonth(value: string): string {
  const match = /^(\d{4})-(\d{2})/.exec(value);
  if (!match) return value;
  return `${SHORT_MONTHS[Number(match[2]) - 1]} ${match[1]}`;
}

/**
 * Parses a Spanish 'mes de AAAA' ('marzo de 2026') or 'AAAA-MM' into the first day of that month
 * ('2026-03-01'), or null.
 */
export function parseMonthYear(input: string): string | null {
  const text = input.trim().toLowerCase();
  const iso = /^(\d{4})-(\d{1,2})$/.exec(text);
  if (iso) {
    const month = Number(iso[2]);
    return month >= 1 && month <= 12 ? `${iso[1]}-${String(month).padStart(2, '0')}-01` : null;
  }
  const spanish = /^([a-záéíóú]+)\s+de\s+(\d{4})$/.exec(text);
  if (!spanish) return null;
  const name = spanish[1]!.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  const index = MONTHS.indexOf(name === 'setiembre' ? 'septiembre' : name);
  return index < 0 ? null : `${spanish[2]}-${String(index + 1).padStart(2, '0')}-01`;
}

export { formatRut } from '../domain/rut';
export { formatPersonName } from './names';
