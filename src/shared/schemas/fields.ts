import { z } from 'zod';
import { closed, isoDate, rut } from './common';

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
