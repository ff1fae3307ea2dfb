import { z } from 'zod';
import { parseEsClDecimal, UF_SOURCES } from '../domain/uf';
import { closed, isoDate, line } from './common';

/**
 * Configuración → 'Valores UF' (issue 33, decision 0034): the UF value of each day, by month; a day
 * added or corrected by hand; a published table imported. Reads for every signed-in user (the CLP
 * figures of other screens), writes for administrators.
 */

/** 'YYYY-MM' */
export const ufMonthQuery = z.strictObject({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'Ingrese un mes válido (aaaa-mm)' }),
});

export const ufDateParams = z.strictObject({ date: isoDate() });

export const ufValueView = z.object({
  date: z.string(),
  /** Pesos of one UF, two decimals ('40123.45'); null: 'Valor UF no disponible'. */
  value: z.string().nullable(),
  source: z.enum(UF_SOURCES).nullable(),
  updatedAt: z.string().nullable(),
  /** Who last set it (null for 'sistema' or a missing day). */
  updatedByName: z.string().nullable(),
  /** Null for a missing day (the first save creates it). */
  version: z.number().int().nullable(),
});
export type UfValueView = z.infer<typeof ufValueView>;

export const ufMonthResponse = z.object({
  month: z.string(),
  /** Every calendar day of the month, missing ones with a null value. */
  days: z.array(ufValueView),
  canManage: z.boolean(),
});
export type UfMonth = z.infer<typeof ufMonthResponse>;

const VALUE_MESSAGE = 'Ingrese un valor positivo con hasta dos decimales (ej. 39.712,50)';

/** A value as typed ('39.712,50' or '39712.50'), normalised to '39712.50'. */
export const ufValueText = closed(z.string({ error: VALUE_MESSAGE }), 'valor UF')
  .trim()
  .transform((text, ctx) => {
    const value = parseEsClDecimal(text);
    if (value === null || !/^\d+(\.\d{1,2})?$/.test(value) || Number(value) <= 0) {
      ctx.addIssue({ code: 'custom', message: VALUE_MESSAGE });
      return z.NEVER;
    }
    return value;
  });

/** PUT /api/uf-values/:date: add (no version) or correct (the version read) one day. */
export const ufDayBody = z.strictObject({
  value: ufValueText,
  version: z.number().int().min(1).optional(),
  /** The user saw the warning that the value is more than 1 % from its neighbours, and confirms it. */
  confirmJump: z.boolean().default(false),
});
export type UfDayBody = z.input<typeof ufDayBody>;

export const ufDayResponse = z.object({ ufValue: ufValueView });

export const UF_FILE_MAX_BYTES = 512 * 1024;

/** POST /api/uf-values/import: a CSV or XLSX file (base64), previewed first, then confirmed. */
export const ufImportBody = z.strictObject({
  fileName: line().trim().min(1).max(200),
  /** The file's bytes in base64. */
  content: z.base64({ error: 'El archivo no es válido' }).max(Math.ceil((UF_FILE_MAX_BYTES * 4) / 3) + 4, {
    error: 'El archivo es demasiado grande (máximo 512 KB)',
  }),
  /** False: only the preview, nothing changes. True: save (the warnings shown must be confirmed). */
  apply: z.boolean().default(false),
  /** The user saw the warnings (jumps above 1 %, stored values that change) and takes them. */
  confirmWarnings: z.boolean().default(false),
});
export type UfImportBody = z.input<typeof ufImportBody>;

export const ufImportResponse = z.object({
  import: z.object({
    applied: z.boolean(),
    /** Days read from the file. */
    total: z.number().int(),
    /** Days without a value before. */
    added: z.number().int(),
    /** Stored days whose value changes. */
    changed: z.number().int(),
    /** Stored days with the same value. */
    unchanged: z.number().int(),
    firstDate: z.string().nullable(),
    lastDate: z.string().nullable(),
    /** What must be confirmed before saving: jumps above 1 %, stored values that change. */
    warnings: z.array(z.string()),
  }),
});
export type UfImportResult = z.infer<typeof ufImportResponse>['import'];

/**
 * A payment in pesos (decision 0034): frozen with its date once paid, estimated at today's value
 * while unpaid, or missing when the needed day has no value ('Valor UF no disponible').
 */
export const clpFigure = z.discriminatedUnion('state', [
  z.object({ state: z.literal('frozen'), clp: z.string(), ufValue: z.string(), date: z.string() }),
  z.object({ state: z.literal('estimated'), clp: z.string(), ufValue: z.string(), date: z.string() }),
  z.object({ state: z.literal('missing'), date: z.string() }),
]);

/** One attempt of the automatic fetch: what came and was saved, or why nothing was. */
export const ufFetchView = z.object({
  attemptedAt: z.string(),
  status: z.enum(['saved', 'failed']),
  /** Values the source answered. */
  received: z.number().int(),
  /** Days that had no value before. */
  added: z.number().int(),
  failure: z.string().nullable(),
});
export type UfFetchView = z.infer<typeof ufFetchView>;

/** GET /api/uf-values/automatic: whether the daily fetch is on (an API key set), and its last attempt. */
export const ufAutomaticResponse = z.object({
  enabled: z.boolean(),
  /** The source's host ('api.cmfchile.cl'), when enabled. */
  source: z.string().nullable(),
  last: ufFetchView.nullable(),
});
export type UfAutomatic = z.infer<typeof ufAutomaticResponse>;

/** POST /api/uf-values/automatic: the attempt just made. */
export const ufFetchAnswer = z.object({ fetch: ufFetchView });
