import { z } from 'zod';
import { isDecimalString } from '../domain/decimal';
import { normalizeRut } from '../domain/rut';

// Zod's own messages (for anything a schema does not word itself) in Spanish, on both sides.
z.config(z.locales.es());

/** Required text: trimmed, non-blank, with the message the user sees. */
export const requiredText = (message: string, max = 200) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: `Máximo ${max} caracteres` });

/** Optional text: trimmed; blank becomes null. */
export const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, { error: `Máximo ${max} caracteres` })
    .nullish()
    .transform((value) => (value ? value : null));

export const requiredEmail = (message = 'Ingrese un correo electrónico válido') =>
  z
    .string({ error: message })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: message }).max(254, { error: message }));

export const optionalEmail = (message = 'Ingrese un correo electrónico válido') =>
  z
    .string()
    .trim()
    .toLowerCase()
    .nullish()
    .transform((value) => (value ? value : null))
    .pipe(z.email({ error: message }).nullable());

/** A RUT checked with its módulo-11 digit, normalised to '12345678-5'. */
export const rut = (message = 'El RUT no es válido (revise el dígito verificador)') =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .transform((value, ctx) => {
      const normalized = normalizeRut(value);
      if (!normalized) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return normalized;
    });

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function isRealDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A calendar date 'YYYY-MM-DD'. */
export const isoDate = (message = 'Ingrese una fecha válida') =>
  z.string({ error: message }).refine(isRealDate, { error: message });

export const optionalIsoDate = (message = 'Ingrese una fecha válida') =>
  z
    .string()
    .nullish()
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || isRealDate(value), { error: message });

/** A non-negative decimal amount as a string with at most 2 decimals ("1234.56"). */
export const amount = (message = 'Ingrese un monto válido (mayor o igual a 0, con hasta 2 decimales)') =>
  z
    .union([z.string(), z.number()], { error: message })
    .transform((value) => String(value).trim())
    .refine((value) => isDecimalString(value) && !value.startsWith('-') && /^\d+(\.\d{1,2})?$/.test(value), {
      error: message,
    })
    .refine((value) => Number(value) < 1e12, { error: message });

export const uuid = (message = 'Identificador no válido') => z.uuid({ error: message });

export const idParams = z.strictObject({ id: uuid() });

/** Server-side pagination of every list. */
export const pageQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  search: z.string().trim().max(100).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

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
