import { formatRut } from './rut';
import { foldForSearch } from './search';

/**
 * What a suppression looks for (Ley 21.719, decision 0027): the holder's identifying values as they
 * may be written — a RUT with or without dots and hyphen, a date as stored or as typed, a phone with
 * or without its punctuation — folded like search text (lower case, no accents), and matched as whole
 * words, so that 'Ana' is found in 'Llamar a Ana' and not in 'mañana'. The database's
 * `audit_redact` (migration 0021) reads the same patterns.
 */

/** The holder's identifying values (their client record's): what a suppression looks for and clears. */
export interface HolderValues {
  rut: string;
  firstName: string;
  lastName: string;
  /** 'YYYY-MM-DD'. */
  birthDate: string | null;
  phone: string | null;
  email: string | null;
}

/** A holder's restriction of the processing of their data: opposition or blocking (decision 0027). */
export type HolderRestriction = 'opposition' | 'blocking';

export interface HolderNeedles {
  /** For the holder's own records (their client row, reservations, flows): every value. */
  own: string[];
  /** For everyone else's records (any comment, any export's filters): what names them unambiguously. */
  global: string[];
}

/** What replaces the holder's words in a text kept (a comment). */
export const REDACTED_TEXT = '[titular suprimido]';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function rutForms(rut: string): string[] {
  const formatted = formatRut(rut);
  return [rut, formatted, rut.replace('-', ''), formatted.replace(/\./g, '')];
}

function dateForms(date: string | null): string[] {
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return date ? [date] : [];
  const [year, month, day] = date.split('-');
  return [date, `${day}/${month}/${year}`, `${day}-${month}-${year}`];
}

function phoneForms(phone: string): string[] {
  if (!phone) return [];
  const digits = phone.replace(/\D/g, '');
  return digits.length >= 6 ? [phone, digits, digits.slice(-8)] : [phone];
}

/** Folded and distinct, the short ones (under `min` characters) left out. */
function needles(values: readonly (string | null | undefined)[], min: number): string[] {
  const folded = values
    .filter((value): value is string => typeof value === 'string')
    .map((value) => foldForSearch(value.trim()).replace(/\s+/g, ' '))
    .filter((value) => value.length >= min);
  return [...new Set(folded)];
}

/**
 * The needles of the holder's values now and of every value they had before (`past`: what the audit
 * trail remembers of their record — an old phone or e-mail is theirs as much as the current one).
 */
export function holderNeedles(
  values: HolderValues,
  past: Partial<Record<keyof HolderValues, string[]>> = {},
): HolderNeedles {
  const all = <K extends keyof HolderValues>(key: K) =>
    [values[key], ...(past[key] ?? [])].filter(
      (value): value is string => typeof value === 'string' && value !== '',
    );
  const firstNames = all('firstName');
  const lastNames = all('lastName');
  const fullNames = firstNames.flatMap((first) => lastNames.map((last) => `${first} ${last}`));
  const shared = [
    ...fullNames,
    ...all('rut').flatMap(rutForms),
    ...all('email'),
    ...all('phone').flatMap(phoneForms),
  ];
  return {
    own: needles([...shared, ...firstNames, ...lastNames, ...all('birthDate').flatMap(dateForms)], 2),
    global: needles(shared, 6),
  };
}

/**
 * A needle as a regular expression source matching it as whole words (the database reads it between
 * `\m` and `\M`): special characters escaped, any run of spaces as one or more.
 */
export function needlePattern(needle: string): string {
  return escapeRegExp(needle).replace(/ /g, '\\s+');
}

/**
 * The text with every whole-word occurrence of a needle replaced by REDACTED_TEXT; matching is on
 * the folded text (one character folds to one), so the original's other characters stay as written.
 */
export function redactText(
  text: string,
  holderNeedles: readonly string[],
): { text: string; changed: boolean } {
  // Folded character by character, keeping any that would change length: indexes stay the original's.
  const folded = [...text]
    .map((char) => {
      const plain = foldForSearch(char);
      return plain.length === char.length ? plain : char;
    })
    .join('');
  return redactFolded(text, folded, holderNeedles);
}

function redactFolded(
  text: string,
  folded: string,
  list: readonly string[],
): { text: string; changed: boolean } {
  const ranges: [number, number][] = [];
  for (const needle of list) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${needlePattern(needle)}(?![\\p{L}\\p{N}_])`, 'gu');
    for (const match of folded.matchAll(pattern)) ranges.push([match.index, match.index + match[0].length]);
  }
  if (ranges.length === 0) return { text, changed: false };
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let cursor = 0;
  for (const [start, end] of ranges) {
    if (start < cursor) {
      cursor = Math.max(cursor, end);
      continue;
    }
    out += text.slice(cursor, start) + REDACTED_TEXT;
    cursor = end;
  }
  return { text: out + text.slice(cursor), changed: true };
}

/** Whole calendar days from one date 'YYYY-MM-DD' to another (negative when `to` is earlier). */
export function calendarDaysBetween(from: string, to: string): number {
  const day = (date: string) =>
    Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return Math.round((day(to) - day(from)) / 86_400_000);
}

/** A holder's request must be answered within this many calendar days (Ley 21.719). */
export const DATA_REQUEST_DAYS = 30;

/** Shown instead of a restricted holder's name and RUT in reports, approvals and exports. */
export const RESTRICTED_HOLDER_TEXT = 'Datos restringidos';
