import { z } from 'zod';
import { isDecimalString } from '../domain/decimal';
import { normalizeRut } from '../domain/rut';
import { isCleanLine, isCleanText, UNCLEAN_LINE_MESSAGE, UNCLEAN_TEXT_MESSAGE } from '../text-safety';

// Zod's own messages (for anything a schema does not word itself) in Spanish, on both sides. In the
// browser, no compiled parsers: zod probes for them with `Function('')`, which the app's
// Content-Security-Policy (no eval) refuses — Chrome logged it in its Issues panel, Lighthouse's best
// practices on /reservas read 96. The server keeps them (no CSP applies there, and they are faster).
z.config({ ...z.locales.es(), jitless: typeof window !== 'undefined' });

// --- Free text (issue 52, decision 0058) ---------------------------------------------------------
// Every free-text field of a request carries one of two rules, checked by `text-fields.test.ts`,
// which walks every route's request schemas: `line` (names, bank fields, file names, numbers as
// typed: no control or bidirectional character, no line break) or `lines` (comments, notes,
// reasons: line breaks and tabs allowed, nothing else unseen). A string of a closed shape (an
// e-mail, a UUID, a date, a RUT, a pattern) is not free text; one the walk cannot see as such is
// marked `closed` by the piece that builds it.

/** The mark the walk reads on a string of a closed shape: a check that passes every value. */
export function closedShape(_value: string): boolean {
  return true;
}

/**
 * Marks `schema` as a string of a closed shape (a RUT, a date, an amount, a password: its own check
 * or transform admits no free text, or it is never shown), named by `shape` for the reader. The mark
 * is a check, so it stays on the schemas chained from it.
 */
export function closed<T extends z.ZodString>(schema: T, shape: string): T {
  return schema.refine(closedShape, { error: `${shape} no válido` }) as T;
}

/** One line of text others will see: no control or bidirectional character. Untrimmed, unbounded. */
export const line = () => z.string().refine(isCleanLine, { error: UNCLEAN_LINE_MESSAGE });

/** Text of several lines: line breaks and tabs, no other control or bidirectional character. */
export const lines = () => z.string().refine(isCleanText, { error: UNCLEAN_TEXT_MESSAGE });

/** Required text: trimmed, non-blank, one clean line, with the message the user sees. */
export const requiredText = (message: string, max = 200) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: `Máximo ${max} caracteres` })
    .refine(isCleanLine, { error: UNCLEAN_LINE_MESSAGE });

/** Optional text: trimmed, one clean line; blank becomes null. */
export const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, { error: `Máximo ${max} caracteres` })
    .refine(isCleanLine, { error: UNCLEAN_LINE_MESSAGE })
    .nullish()
    .transform((value) => (value ? value : null));

/** A required comment, note or reason: trimmed, non-blank, clean lines. */
export const requiredNote = (message: string, max = 2000) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: `Máximo ${max} caracteres` })
    .refine(isCleanText, { error: UNCLEAN_TEXT_MESSAGE });

/** An optional comment or note: trimmed, clean lines; blank becomes null. */
export const optionalNote = (max = 2000) =>
  z
    .string()
    .trim()
    .max(max, { error: `Máximo ${max} caracteres` })
    .refine(isCleanText, { error: UNCLEAN_TEXT_MESSAGE })
    .nullish()
    .transform((value) => (value ? value : null));

/** A list's search box: trimmed, one clean line, at most `max` characters. */
export const searchText = (max = 100, message = `La búsqueda admite hasta ${max} caracteres`) =>
  z.string().trim().max(max, { error: message }).refine(isCleanLine, { error: UNCLEAN_LINE_MESSAGE });

export const requiredEmail = (message = 'Ingrese un correo electrónico válido') =>
  closed(z.string({ error: message }), 'correo')
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: message }).max(254, { error: message }));

export const optionalEmail = (message = 'Ingrese un correo electrónico válido') =>
  closed(z.string(), 'correo')
    .trim()
    .toLowerCase()
    .nullish()
    .transform((value) => (value ? value : null))
    .pipe(z.email({ error: message }).nullable());

/** A RUT checked with its módulo-11 digit, normalised to '12345678-5'. */
export const rut = (message = 'El RUT no es válido (revise el dígito verificador)') =>
  closed(z.string({ error: message }).trim().min(1, { error: message }), 'RUT').transform((value, ctx) => {
    const normalized = normalizeRut(value);
    if (!normalized) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return normalized;
  });

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Business dates live between these years; anything else is a typo (and 0000 is no date at all). */
export const FIRST_YEAR = 1900;
export const LAST_YEAR = 2100;

function isRealDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const year = Number(value.slice(0, 4));
  if (year < FIRST_YEAR || year > LAST_YEAR) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A calendar date 'YYYY-MM-DD' between 1900 and 2100. */
export const isoDate = (message = 'Ingrese una fecha válida') =>
  closed(z.string({ error: message }).refine(isRealDate, { error: message }), 'fecha');

export const optionalIsoDate = (message = 'Ingrese una fecha válida') =>
  closed(z.string(), 'fecha')
    .nullish()
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || isRealDate(value), { error: message });

/**
 * The largest amount any field takes (UF 999.999.999,99, far beyond any real price): bounded so
 * that every derived figure (sums of prices and payments, commission figures) fits the database's
 * numeric(14,2) columns, and a valid input never fails on save.
 */
export const MAX_AMOUNT = 999_999_999.99;
export const AMOUNT_TOO_LARGE_MESSAGE = 'El monto no puede superar 999.999.999,99';

/** A non-negative decimal amount as a string with at most 2 decimals ("1234.56"). */
export const amount = (message = 'Ingrese un monto válido (mayor o igual a 0, con hasta 2 decimales)') =>
  z
    .union([closed(z.string(), 'monto'), z.number()], { error: message })
    .transform((value) => String(value).trim())
    .refine((value) => isDecimalString(value) && !value.startsWith('-') && /^\d+(\.\d{1,2})?$/.test(value), {
      error: message,
    })
    .refine((value) => Number(value) <= MAX_AMOUNT, { error: AMOUNT_TOO_LARGE_MESSAGE });

export const uuid = (message = 'Identificador no válido') => z.uuid({ error: message });

export const idParams = z.strictObject({ id: uuid() });

/** Server-side pagination of every list. */
export const pageQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  search: searchText(100).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;
/** Which page of a list, and how long: what every paged screen asks for. */
export type PageParams = Pick<PageQuery, 'page' | 'pageSize'>;

// --- Sorted and filtered lists (decision 0019) ---------------------------------------------------

/** The page sizes a list screen offers; the API takes any size from 1 to 100. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

export const LIST_QUERY_MESSAGES = {
  page: 'La página debe ser un número entero mayor o igual a 1',
  pageSize: 'El tamaño de página debe ser un número entero entre 1 y 100',
  search: (max: number) => `La búsqueda admite hasta ${max} caracteres`,
  sort: (sorts: readonly string[]) => `Orden no válido: use ${sorts.join(', ')}`,
  direction: 'Dirección de orden no válida: use asc o desc',
} as const;

/**
 * The query of a sorted list: page, page size, search, one of the orders the list offers (each one
 * served by an index, so offer no other) and its direction. A list adds its filters with `.extend`.
 */
export function sortedPageQuery<const Sorts extends readonly [string, ...string[]]>(
  sorts: Sorts,
  defaults: { sort: Sorts[number]; direction: SortDirection },
  { searchMax = 100 }: { searchMax?: number } = {},
) {
  const M = LIST_QUERY_MESSAGES;
  return z.strictObject({
    page: z.coerce.number({ error: M.page }).int({ error: M.page }).min(1, { error: M.page }).default(1),
    pageSize: z.coerce
      .number({ error: M.pageSize })
      .int({ error: M.pageSize })
      .min(1, { error: M.pageSize })
      .max(100, { error: M.pageSize })
      .default(DEFAULT_PAGE_SIZE),
    search: searchText(searchMax, M.search(searchMax)).optional(),
    sort: z.enum(sorts, { error: M.sort(sorts) }).default(defaults.sort),
    direction: z.enum(SORT_DIRECTIONS, { error: M.direction }).default(defaults.direction),
  });
}

/** A yes/no filter of a list ('all', the default, filters nothing). */
export const YES_NO_ALL = ['all', 'yes', 'no'] as const;
export type YesNoAll = (typeof YES_NO_ALL)[number];
export const yesNoAllFilter = (message: string) => z.enum(YES_NO_ALL, { error: message }).default('all');

/** A page of rows. `total` is exact up to `LIST_COUNT_CAP`; `totalIsCapped` says when it stopped. */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({ rows: z.array(row), total: z.number().int(), totalIsCapped: z.boolean() });

/**
 * Counting more rows than this costs time for no use (nobody pages 40 pages deep; they search): the
 * list says "más de 1.000". Measured on 100,000 rows of the embedded database, counting 10,000 cost
 * more than the page itself (decision 0006).
 */
export const LIST_COUNT_CAP = 1_000;

/** Carries the version the user read; a stale one is refused with 409. */
export const versioned = { version: z.number().int().min(1) };
