import { z } from 'zod';
import { normalizeRut } from '../domain/rut';
import { closed, isoDate, rut } from './common';

/** An optional RUT: empty (or null) is null; otherwise normalised '12345678-5' or its message. */
export const optionalRut = (invalidMessage: string) =>
  closed(z.string(), 'RUT')
    .trim()
    .nullish()
    .transform((value, ctx) => {
      if (!value) return null;
      const normalized = normalizeRut(value);
      if (!normalized) {
        ctx.addIssue({ code: 'custom', message: invalidMessage });
        return z.NEVER;
      }
      return normalized;
    });

/** A required RUT: its own message when empty, the check-digit message otherwise; normalised '12345678-5'. */
export const requiredRut = (requiredMessage: string, invalidMessage: string) =>
  closed(z.string({ error: requiredMessage }), 'RUT')
    .trim()
    .min(1, { error: requiredMessage })
    .pipe(rut(invalidMessage));

/** A required calendar date 'YYYY-MM-DD': its own message when empty (or null), another when not a date. */
export const requiredDate = (requiredMessage: string, invalidMessage: string) =>
  closed(z.string({ error: requiredMessage }), 'fecha')
    .trim()
    .min(1, { error: requiredMessage })
    .pipe(isoDate(invalidMessage));
