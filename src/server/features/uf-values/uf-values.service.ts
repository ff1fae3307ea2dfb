import type { z } from 'zod';
import type { CellValue } from '../../../shared/domain/import-cells';
import {
  csvRows,
  readUfTable,
  type UfEntry,
  type UfSource,
  ufJumps,
  ufRefusals,
} from '../../../shared/domain/uf';
import { formatDate, formatUfValue, santiagoDateOf } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import type {
  UfAutomatic,
  UfFetchView,
  UfImportResult,
  UfMonth,
  UfValueView,
  ufDayBody,
  ufImportBody,
} from '../../../shared/schemas/uf-values';
import type { ServiceContext } from '../../context';
import { actingAs, SYSTEM_ACTOR } from '../../db/actor';
import type { Executor } from '../../db/client';
import { AppError } from '../../http/app-error';
import { isReaderLimit, readSmallTable } from '../../readers/table';
import * as commissions from '../commissions/commissions.service';
import { fetchPublishedValues, type UfFetchSettings, UfSourceError } from './uf-source';
import * as queries from './uf-values.queries';

/**
 * Configuración → 'Valores UF' (issue 33, decision 0034). The values are data with a source per
 * day; a missing day stays missing. Every write is a transaction of an administrator (audited by the
 * table's trigger); a value more than 1 % from its neighbours, or a stored value an import would
 * change, is saved only once the user has confirmed it.
 */

function requireManager(ctx: Pick<ServiceContext, 'user'>): void {
  if (!can(ctx.user, 'ufValues.manage')) throw new AppError('FORBIDDEN');
}

export async function listMonth(ctx: ServiceContext, month: string): Promise<UfMonth> {
  return {
    month,
    days: await queries.listMonth(ctx.db, month),
    canManage: can(ctx.user, 'ufValues.manage'),
  };
}

// --- For the other features: the value of a day, or none ------------------------------------------

/** The UF value of a day ('40123.45'), or null: 'Valor UF no disponible'. Never a guess. */
export async function valueOn(db: Executor, date: string): Promise<string | null> {
  const [entry] = await queries.listValuesOn(db, [date]);
  return entry?.value ?? null;
}

/** The values of several days at once (one statement); missing days are absent from the map. */
export async function valuesOn(db: Executor, dates: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(dates)];
  const entries = await queries.listValuesOn(db, unique);
  return new Map(entries.map((entry) => [entry.date, entry.value]));
}

// --- One day by hand --------------------------------------------------------------------------------

/**
 * Adds a day (no version) or corrects it (the version read; stale → 409). A value more than 1 % from
 * the day before or after asks for confirmation first (409 with the warning; nothing saved).
 */
export async function saveDay(
  ctx: ServiceContext,
  date: string,
  body: z.output<typeof ufDayBody>,
): Promise<UfValueView> {
  requireManager(ctx);
  const entry = { date, value: body.value };
  const refusals = ufRefusals([entry]);
  if (refusals.length > 0)
    throw new AppError('UF_VALUE_INVALID', { params: { problems: refusals.join('. ') } });
  await ctx.db.transaction(async (tx) => {
    const neighbours = await queries.listValuesAround(tx, date, date);
    const warnings = ufJumps(
      [entry],
      neighbours.filter((stored) => stored.date !== date),
    );
    if (warnings.length > 0 && !body.confirmJump) {
      throw new AppError('UF_CONFIRMATION_REQUIRED', { params: { warnings: warnings.join('. ') } });
    }
    const saved =
      body.version === undefined
        ? await queries.insertValue(tx, entry, 'user', ctx.user.id)
        : await queries.updateValue(tx, entry, body.version, 'user', ctx.user.id);
    if (!saved) throw new AppError('STALE_VERSION');
    await commissions.freezeMissingPesosIn(tx, [date], ctx.user.id);
  });
  return (await queries.findValue(ctx.db, date))!;
}

// --- Import -----------------------------------------------------------------------------------------

/** The cells of a CSV or XLSX file, row by row, as text. */
async function cellsOf(fileName: string, bytes: Buffer): Promise<string[][]> {
  const isXlsx = bytes.subarray(0, 2).toString('latin1') === 'PK';
  if (!isXlsx) {
    const text = bytes.toString('utf8');
    // A binary file that is not a workbook (a PDF, an image) is not a table of values.
    if (text.includes('\u0000') || /\.(xls|pdf|png|jpe?g)$/i.test(fileName))
      throw new AppError('UF_FILE_UNREADABLE');
    return csvRows(text);
  }
  // The bounded reader of every table door (decision 0049): a workbook that expands past its bounds,
  // or breaks a reader's limit, is refused with the reader's reason; one it cannot read, as unreadable.
  let table: CellValue[][];
  try {
    table = await readSmallTable(bytes, UF_FILE_MAX_ROWS);
  } catch (error) {
    if (!isReaderLimit(error)) throw new AppError('UF_FILE_UNREADABLE');
    throw new AppError('UF_IMPORT_INVALID', { params: { problems: error.message } });
  }
  return table.map((row) => Array.from(row, (cell) => textOfCell(cell ?? null)));
}

/** Rows a UF file may have: years of daily values. */
const UF_FILE_MAX_ROWS = 20_000;

/** A sheet cell as the text a CSV would hold: numbers with a decimal point, dates as YYYY-MM-DD. */
function textOfCell(value: CellValue): string {
  if (value === null) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value);
}

/**
 * Reads a published table (the SII's yearly table or a list of date and value), refuses it whole on
 * any problem, and previews or saves it. The preview lists what must be confirmed: a value more than
 * 1 % from its neighbours, a stored value that would change. Saving with unconfirmed warnings is
 * refused (409), so what the user confirmed is what is saved.
 */
export async function importFile(
  ctx: ServiceContext,
  body: z.output<typeof ufImportBody>,
  source: UfSource = 'file',
): Promise<UfImportResult> {
  requireManager(ctx);
  const bytes = Buffer.from(body.content, 'base64');
  if (bytes.length === 0) throw new AppError('UF_FILE_UNREADABLE');
  const yearInName = /(?:^|\D)((?:19|20|21)\d{2})(?:\D|$)/.exec(body.fileName);
  const reading = readUfTable(
    await cellsOf(body.fileName, bytes),
    yearInName ? Number(yearInName[1]) : undefined,
  );
  const problems = [...reading.problems.map((problem) => problem.message), ...ufRefusals(reading.entries)];
  if (problems.length === 0 && reading.entries.length === 0) problems.push('El archivo no tiene valores');
  if (problems.length > 0)
    throw new AppError('UF_IMPORT_INVALID', { params: { problems: summary(problems) } });
  const entries = [...reading.entries].sort((a, b) => a.date.localeCompare(b.date));
  return applyEntries(
    { db: ctx.db, actorId: ctx.user.id },
    entries,
    source,
    body.apply,
    body.confirmWarnings,
  );
}

async function applyEntries(
  writer: { db: Executor & Pick<ServiceContext['db'], 'transaction'>; actorId: string | null },
  entries: UfEntry[],
  source: UfSource,
  apply: boolean,
  confirmed: boolean,
): Promise<UfImportResult> {
  const first = entries[0]!.date;
  const last = entries.at(-1)!.date;
  const run = async (tx: Executor): Promise<UfImportResult> => {
    const stored = await queries.listValuesAround(tx, first, last);
    const storedByDate = new Map(stored.map((entry) => [entry.date, entry.value]));
    let added = 0;
    let unchanged = 0;
    const changes: string[] = [];
    for (const entry of entries) {
      const before = storedByDate.get(entry.date);
      if (before === undefined) added++;
      else if (before === entry.value) unchanged++;
      else
        changes.push(
          `El ${formatDate(entry.date)} cambia de ${formatUfValue(before)} a ${formatUfValue(entry.value)}`,
        );
    }
    const warnings = [...ufJumps(entries, stored), ...changes];
    const result = {
      applied: false,
      total: entries.length,
      added,
      changed: changes.length,
      unchanged,
      firstDate: first,
      lastDate: last,
      warnings,
    };
    if (!apply) return result;
    if (warnings.length > 0 && !confirmed) {
      throw new AppError('UF_CONFIRMATION_REQUIRED', { params: { warnings: summary(warnings) } });
    }
    const actorId = source === 'automatic' ? null : writer.actorId;
    await queries.upsertValues(tx, entries, source, actorId);
    await commissions.freezeMissingPesosIn(
      tx,
      entries.map((entry) => entry.date),
      actorId,
    );
    return { ...result, applied: true };
  };
  // The preview reads; the save reads and writes in one transaction, so what was checked is what is saved.
  return apply ? writer.db.transaction(run) : run(writer.db);
}

/** The first problems, and how many more: a message that fits on the screen. */
function summary(problems: readonly string[]): string {
  const shown = problems.slice(0, 5).join('. ');
  const more = problems.length - 5;
  return more > 0 ? `${shown}. (y ${more} más)` : `${shown}.`;
}

// --- The automatic fetch (off unless UF_API_KEY is set) ------------------------------------------------

/**
 * One attempt: the source's values saved as an import of source 'automatic' would be — all or none,
 * refused whole on a bad value, and never taking what needs a person's eye (a value more than 1 % from
 * its neighbours, a stored value it would change). Whatever happens, the attempt is recorded with
 * what came and what was saved, or why nothing was; a failed attempt changes nothing else.
 */
export async function fetchAutomatically(
  db: ServiceContext['db'],
  settings: UfFetchSettings,
  now: Date,
): Promise<UfFetchView> {
  let received = 0;
  let outcome: { status: 'saved'; added: number } | { status: 'failed'; failure: string };
  try {
    const entries = (await fetchPublishedValues(settings, santiagoDateOf(now))).sort((a, b) =>
      a.date.localeCompare(b.date),
    );
    received = entries.length;
    const refusals = ufRefusals(entries);
    if (refusals.length > 0)
      throw new UfSourceError(`La fuente trae valores inválidos: ${summary(refusals)}`);
    const result = await applyEntries({ db, actorId: null }, entries, 'automatic', true, false);
    outcome = { status: 'saved', added: result.added };
  } catch (error) {
    if (error instanceof UfSourceError) outcome = { status: 'failed', failure: error.message };
    else if (error instanceof AppError && error.code === 'UF_CONFIRMATION_REQUIRED')
      outcome = { status: 'failed', failure: `No se guardó nada. ${error.message}` };
    else throw error;
  }
  return queries.insertFetch(db, {
    attemptedAt: now,
    status: outcome.status,
    received,
    added: outcome.status === 'saved' ? outcome.added : 0,
    failure: outcome.status === 'failed' ? outcome.failure : null,
  });
}

/** GET /api/uf-values/automatic (administrators): on or off, and the last attempt. */
export async function automaticStatus(ctx: ServiceContext, settings: UfFetchSettings): Promise<UfAutomatic> {
  requireManager(ctx);
  if (!settings.apiKey) return { enabled: false, source: null, last: null };
  return { enabled: true, source: new URL(settings.baseUrl).host, last: await queries.findLastFetch(ctx.db) };
}

/** POST /api/uf-values/automatic: an administrator asks for an attempt now ('Consultar ahora'). */
export async function fetchNow(ctx: ServiceContext, settings: UfFetchSettings): Promise<UfFetchView> {
  requireManager(ctx);
  if (!settings.apiKey) throw new AppError('UF_FETCH_DISABLED');
  return fetchAutomatically(ctx.db, settings, ctx.now);
}

/**
 * The daily fetch, in the server (main.ts): an attempt at start and then every hour until one has
 * saved today's (Santiago) values; several instances may each try, which saves the same values.
 */
export function startUfFetchJob(options: {
  db: ServiceContext['db'];
  settings: UfFetchSettings;
  log: { warn(object: object, message: string): void };
  everyMs?: number;
}): () => void {
  if (!options.settings.apiKey) return () => {};
  // Its writes are the system's in the audit trail ('sistema').
  const db = actingAs(options.db, SYSTEM_ACTOR);
  let running = false;
  const attempt = async () => {
    if (running) return;
    running = true;
    try {
      const now = new Date();
      if (await queries.hasSavedFetchOn(db, santiagoDateOf(now))) return;
      const done = await fetchAutomatically(db, options.settings, now);
      if (done.status === 'failed') options.log.warn({ failure: done.failure }, 'automatic UF fetch failed');
    } catch (error) {
      options.log.warn({ err: error }, 'automatic UF fetch failed');
    } finally {
      running = false;
    }
  };
  void attempt();
  const timer = setInterval(() => void attempt(), options.everyMs ?? 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
