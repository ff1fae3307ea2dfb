import { createHash } from 'node:crypto';
import { formatRut } from '../../../shared/domain/rut';
import { errorMessage } from '../../../shared/errors';
import { formatInteger } from '../../../shared/format';
import {
  type ColumnMapping,
  columnsOf,
  countsSentence,
  type ImportCounts,
  type ImportKind,
  MAX_ROW_ERRORS,
  type RepeatedKeys,
  type RowError,
  type SkippedRow,
} from '../../../shared/schemas/imports';
import { actingAs } from '../../db/actor';
import { type Database, type Executor, isEmbedded } from '../../db/client';
import {
  analyzedRows,
  analyzeSize,
  analyzeTables,
  forgetPlansEmbedded,
  preferIndexesEmbedded,
} from '../../db/maintenance';
import { letOthersThrough } from '../../event-loop';
import { AppError } from '../../http/app-error';
import * as brokersService from '../brokers/brokers.service';
import * as clientsService from '../clients/clients.service';
import * as commissionsService from '../commissions/commissions.service';
import * as reservationsService from '../reservations/reservations.service';
import * as stock from '../stock/stock.service';
import type { StoredRecord } from './imports.queries';
import * as queries from './imports.queries';
import { brokersKind } from './kinds/brokers';
import { clientsKind } from './kinds/clients';
import {
  type ChangedRecord,
  IMPORT_TABLES,
  type ImportTable,
  type KindModule,
  type PlannedRow,
  type ReadRow,
  readRow,
} from './kinds/kind';
import { reservationsKind } from './kinds/reservations';
import { unitsKind } from './kinds/units';
import { type OpenedTable, openTable, type SheetRow } from './read-file';

/**
 * The import pipeline (DESIGN §16), the same for the screen and `npm run import`: read (streaming) →
 * map columns → parse Chilean formats → validate with the shared schemas and domain rules → resolve
 * references → plan (create / update / unchanged / error per row) → apply in chunks, each its own
 * short transaction that records what it changed → on failure or cancellation, those changes undone.
 */

/** The registry: one module per kind (decision 0033: 'Unidades y precios' plugs in as one more). */
export const KINDS: Record<ImportKind, KindModule> = {
  clients: clientsKind as KindModule,
  brokers: brokersKind as KindModule,
  units: unitsKind as KindModule,
  reservations: reservationsKind as KindModule,
};

/**
 * The tables an apply of each kind grows, the first its main one. Their sizes are taken again
 * whenever the main one has doubled since its statistics were taken (`analyzeSize`), and their whole
 * statistics once the apply ends (`analyzeTables`) — a new installation's tables grow from empty; a
 * large one's are left alone. On both engines: the plans kept by name read them (0044, 0047).
 */
const GROWN_TABLES: Record<ImportKind, readonly string[]> = {
  clients: ['clients', 'import_run_records'],
  brokers: ['brokers', 'import_run_records'],
  units: ['units', 'price_lists', 'price_list_items', 'import_run_records'],
  reservations: [
    'reservations',
    'broker_commissions',
    'reservation_units',
    'flows',
    'flow_tasks',
    'flow_task_assignees',
    'import_run_records',
  ],
};

/**
 * Rows planned per database round trip of a dry run. On the embedded database a batch's queries and
 * its rows' validation run without a break for other requests: 500 rows held /api/health up to half
 * a second on a loaded machine; 100 keep each stretch short (decision 0033, 2026-11-27).
 */
const PLAN_BATCH = 100;

/** Rows handled per stretch of a dry run's closing passes (duplicates, claims, counts). */
const PASS_STEPS = 5_000;

/** Identical repeated rows listed in the review (the count says how many there were). */
const MAX_LISTED_REPEATS = 100;

export interface PipelineInput {
  kind: ImportKind;
  bytes: Buffer;
  sheetName?: string | null;
  /** The header row chosen on screen or with `--header-row`; null or absent: found by the reader. */
  headerRow?: number | null;
  mapping: ColumnMapping;
  /** Rows repeating a key: the first kept (default), or all refused. */
  repeatedKeys?: RepeatedKeys;
}

export interface PlanOutcome {
  counts: ImportCounts;
  totalRows: number;
  errors: RowError[];
  /** Rows that may not be applied (errors, differing repeated keys). */
  errorRows: Set<number>;
  /** Rows identical to an earlier one: imported once (the earlier one), these skipped. */
  repeatRows: Set<number>;
  /** Where the header was, and the rows the reader skipped (title, blank, totals, footers): the first ones, and how many. */
  headerRow: number;
  skipped: { rows: SkippedRow[]; count: number };
}

function requireMapping(kind: KindModule, mapping: ColumnMapping) {
  const missing = kind.fields.filter((field) => field.required && columnsOf(mapping, field.key).length === 0);
  if (missing.length > 0) {
    throw new AppError('IMPORT_MAPPING_MISSING', {
      params: { fields: missing.map((field) => field.label).join(', ') },
    });
  }
}

/** The file's table: where its header is; its rows, and what the reader skipped, as they are read. */
const openInput = (input: PipelineInput): Promise<OpenedTable> =>
  openTable(input.bytes, { sheet: input.sheetName, headerRow: input.headerRow });

async function* readRows(
  table: OpenedTable,
  input: PipelineInput,
  kind: KindModule,
): AsyncGenerator<ReadRow> {
  for await (const row of table.rows as AsyncIterable<SheetRow>) {
    yield readRow(kind.fields, input.mapping, row.rowNumber, row.cells);
  }
}

/** A row's natural key (compared without case) and how an error shows it. */
function keyOf(kind: KindModule, row: ReadRow): { key: string; text: string } | undefined {
  if (kind.keyOf) return kind.keyOf(row);
  const value = row.values[kind.keyField];
  if (value === undefined) return undefined;
  const text =
    kind.fields.find((field) => field.key === kind.keyField)?.type === 'rut'
      ? formatRut(String(value))
      : String(value);
  return { key: String(value).toLowerCase(), text };
}

/** A row's mapped cells as one text: two rows with the same key and this text are the same row. */
function fingerprintOf(row: ReadRow): string {
  return createHash('sha1').update(JSON.stringify(row.texts)).digest('base64');
}

/** At most MAX_ROW_ERRORS errors of a row, then one saying how many more (issue 52). */
function boundedRowErrors(errors: RowError[]): RowError[] {
  if (errors.length <= MAX_ROW_ERRORS) return errors;
  const more = errors.length - (MAX_ROW_ERRORS - 1);
  const first = errors[0]!;
  return [
    ...errors.slice(0, MAX_ROW_ERRORS - 1),
    {
      rowNumber: first.rowNumber,
      column: '',
      value: '',
      reason: `y ${formatInteger(more)} errores más en esta fila`,
    },
  ];
}

/** What the file says more than once under one key, as the plan's closing pass reads it. */
interface KeyUse {
  text: string;
  first: number;
  print: string;
  /** Rows after the first with this key and other values (errors), and identical ones (imported once). */
  differing: number[];
  identical: number[];
}

/**
 * The dry run: every row read, validated and planned against the database; nothing written. Rows that
 * repeat a key (issue 55): identical ones are imported once, noted as skipped; differing ones are
 * errors naming the first row, which is kept — or, with 'refuseAll', every row of that key is an
 * error. Each message says how many rows and which was first, never the list: the text stays linear
 * in the file's size (issue 52).
 */
export async function plan(db: Database, input: PipelineInput, now: Date): Promise<PlanOutcome> {
  const kind = KINDS[input.kind];
  requireMapping(kind, input.mapping);
  const repeatedKeys = input.repeatedKeys ?? 'keepFirst';
  const outcomes: PlannedRow[] = [];
  const keys = new Map<string, KeyUse>();
  const memo: Record<string, unknown> = {};
  let batch: ReadRow[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    // What a row would write is not kept: a dry run of 100,000 rows held every client's values.
    for (const { plan: _plan, ...outcome } of await kind.planBatch(db, batch, now, memo))
      outcomes.push(outcome);
    batch = [];
    await letOthersThrough();
  };
  const table = await openInput(input);
  for await (const row of readRows(table, input, kind)) {
    const key = keyOf(kind, row);
    if (key !== undefined) {
      const print = fingerprintOf(row);
      const seen = keys.get(key.key);
      if (!seen)
        keys.set(key.key, { text: key.text, first: row.rowNumber, print, differing: [], identical: [] });
      else {
        // A repeat is not planned: it is imported once (identical) or is an error naming the first.
        (seen.print === print ? seen.identical : seen.differing).push(row.rowNumber);
        continue;
      }
    }
    batch.push(row);
    if (batch.length >= PLAN_BATCH) await flush();
  }
  await flush();

  // The passes over every row below, a few thousand rows at a time with others' requests between:
  // in one stretch they held the event loop 200–300 ms at 100,000 rows (decision 0033, 2026-11-27).
  let steps = 0;
  const stretchEnds = () => ++steps % PASS_STEPS === 0;
  const byRow = new Map<number, PlannedRow>();
  for (const outcome of outcomes) {
    byRow.set(outcome.rowNumber, outcome);
    if (stretchEnds()) await letOthersThrough();
  }
  const keyField = kind.fields.find((field) => field.key === kind.keyField)!;
  const repeats: SkippedRow[] = [];
  let repeatCount = 0;
  const repeatRows = new Set<number>();
  const repeatErrors: PlannedRow[] = [];
  for (const use of keys.values()) {
    if (stretchEnds()) await letOthersThrough();
    for (const rowNumber of use.identical) {
      repeatRows.add(rowNumber);
      repeatCount += 1;
      if (repeats.length < MAX_LISTED_REPEATS)
        repeats.push({ rowNumber, reason: 'repeated', firstRow: use.first });
    }
    if (use.differing.length === 0) continue;
    const others = use.differing.length + use.identical.length;
    const refused = repeatedKeys === 'refuseAll';
    const reason = `${keyField.label} repetido en ${formatInteger(others)} ${others === 1 ? 'fila' : 'filas'} (la primera es la ${use.first})`;
    const errorOf = (rowNumber: number): RowError => ({
      rowNumber,
      column: keyField.label,
      value: use.text,
      reason,
    });
    for (const rowNumber of use.differing) {
      repeatErrors.push({ rowNumber, action: 'error', errors: [errorOf(rowNumber)] });
    }
    if (refused) {
      const first = byRow.get(use.first)!;
      first.action = 'error';
      first.errors = [...first.errors, errorOf(use.first)];
    }
  }
  for (const outcome of repeatErrors) {
    outcomes.push(outcome);
    byRow.set(outcome.rowNumber, outcome);
  }
  // What two rows claim (a unit of two reservations): an error on each, naming the first row and how many.
  const claims = new Map<string, { first: number; count: number }>();
  for (const outcome of outcomes) {
    if (stretchEnds()) await letOthersThrough();
    for (const claim of outcome.claims ?? []) {
      const seen = claims.get(claim.key);
      if (seen) {
        seen.count += 1;
        seen.first = Math.min(seen.first, outcome.rowNumber);
      } else claims.set(claim.key, { first: outcome.rowNumber, count: 1 });
    }
  }
  for (const outcome of outcomes) {
    if (stretchEnds()) await letOthersThrough();
    for (const claim of outcome.claims ?? []) {
      const { first, count } = claims.get(claim.key)!;
      if (count < 2) continue;
      outcome.action = 'error';
      outcome.errors = [
        ...outcome.errors,
        {
          rowNumber: outcome.rowNumber,
          column: claim.column,
          value: claim.value,
          reason:
            first === outcome.rowNumber
              ? `Lo toman ${formatInteger(count)} filas de este archivo (esta es la primera)`
              : `Lo toman ${formatInteger(count)} filas de este archivo (la primera es la ${first})`,
        },
      ];
    }
  }
  const counts: ImportCounts = { created: 0, updated: 0, unchanged: 0, errors: 0 };
  const errors: RowError[] = [];
  const errorRows = new Set<number>();
  for (const outcome of outcomes) {
    if (stretchEnds()) await letOthersThrough();
    if (outcome.action === 'create') counts.created += 1;
    else if (outcome.action === 'update') counts.updated += 1;
    else if (outcome.action === 'unchanged') counts.unchanged += 1;
    else {
      counts.errors += 1;
      errorRows.add(outcome.rowNumber);
      errors.push(...boundedRowErrors(outcome.errors));
    }
  }
  errors.sort((a, b) => a.rowNumber - b.rowNumber);
  repeats.sort((a, b) => a.rowNumber - b.rowNumber);
  return {
    counts,
    totalRows: outcomes.length + repeatCount,
    errors,
    errorRows,
    repeatRows,
    headerRow: table.header.rowNumber,
    skipped: {
      rows: [...table.skipped.rows, ...repeats].sort((a, b) => a.rowNumber - b.rowNumber),
      count: table.skipped.count + repeatCount,
    },
  };
}

export interface ApplyOptions {
  actorId: string;
  now: Date;
  onlyValidRows: boolean;
  /** Tests inject a failure before a chunk (the apply must leave nothing). */
  beforeChunk?: (chunkIndex: number) => void | Promise<void>;
  /** Told of an unexpected error (not an AppError) before the run records it (the route logs it). */
  onFailure?: (error: unknown) => void;
}

export interface ApplyOutcome {
  counts: ImportCounts;
  status: 'applied' | 'failed' | 'cancelled';
  failure: string | null;
  /** The projects whose units, prices or held units the applied run changed (none when it failed). */
  stockChanged: string[];
}

/**
 * Applies a run's file: the dry run first (refused while errors remain, unless only the valid rows are
 * wanted), then the rows in chunks — each chunk re-planned and written in one short transaction of its
 * own, declared as the importing user with the run's id as its request (the audit log ties every change
 * to the run), its records kept for undo, the run's progress saved. Between chunks the event loop is
 * free. A failure or a cancellation undoes every chunk written.
 */
export async function apply(
  db: Database,
  runId: string,
  input: PipelineInput,
  options: ApplyOptions,
  planned?: PlanOutcome,
): Promise<ApplyOutcome> {
  const kind = KINDS[input.kind];
  const dry = planned ?? (await plan(db, input, options.now));
  if (dry.counts.errors > 0 && !options.onlyValidRows) throw new AppError('IMPORT_HAS_ERRORS');
  const acting = actingAs(db, { userId: options.actorId, requestId: runId, at: null });
  const counts: ImportCounts = { created: 0, updated: 0, unchanged: 0, errors: dry.counts.errors };
  let processed = dry.counts.errors + dry.repeatRows.size;
  let chunkIndex = 0;
  // The main table's rows by its statistics, and when they were last taken.
  const startRows = await analyzedRows(db, GROWN_TABLES[input.kind][0]!);
  let rowsAtAnalysis = startRows;
  let grown = false;
  const memo: Record<string, unknown> = {};
  const applyContext = {
    actorId: options.actorId,
    now: options.now,
    memo: {} as Record<string, unknown>,
    stockChanged: new Set<string>(),
  };
  const writeChunk = async (chunk: ReadRow[]) => {
    await options.beforeChunk?.(chunkIndex);
    chunkIndex += 1;
    const cancelRequested = await acting.transaction(async (tx) => {
      await preferIndexesEmbedded(tx);
      const rows = await kind.planBatch(tx, chunk, options.now, memo);
      // A row the plan found valid and its chunk does not (the database moved since the dry run): an
      // apply that wanted every row stops, and what it wrote is undone (decision 0077).
      if (!options.onlyValidRows && rows.some((row) => row.action === 'error'))
        throw new AppError('IMPORT_HAS_ERRORS');
      const records: ChangedRecord[] = await kind.applyBatch(
        tx,
        rows.filter((row) => row.action === 'create' || row.action === 'update'),
        applyContext,
      );
      await queries.insertRecords(tx, runId, records);
      for (const row of rows) {
        if (row.action === 'create') counts.created += 1;
        else if (row.action === 'update') counts.updated += 1;
        else if (row.action === 'unchanged') counts.unchanged += 1;
        else counts.errors += 1;
      }
      processed += chunk.length;
      return queries.updateRunProgress(tx, runId, {
        processedRows: processed,
        createdCount: counts.created,
        updatedCount: counts.updated,
        unchangedCount: counts.unchanged,
        errorCount: counts.errors,
      });
    });
    await letOthersThrough();
    if (cancelRequested) throw new AppError('IMPORT_CANCELLED');
    const rowsNow = startRows + counts.created;
    if (rowsNow >= Math.max(2 * rowsAtAnalysis, 100)) {
      // Their sizes only, a table at a time with others' requests between; the whole statistics
      // once the apply ends (below).
      for (const table of GROWN_TABLES[input.kind]) {
        await analyzeSize(db, table);
        await letOthersThrough();
      }
      rowsAtAnalysis = rowsNow;
      grown = true;
    }
  };
  try {
    await acting.transaction((tx) =>
      queries.updateRun(tx, runId, {
        status: 'applying',
        startedAt: options.now,
        totalRows: dry.totalRows,
        processedRows: 0,
        errorCount: dry.counts.errors,
        onlyValidRows: options.onlyValidRows,
        failure: null,
      }),
    );
    await forgetPlansEmbedded(db);
    const chunkSize = isEmbedded(db) ? kind.chunkSize.embedded : kind.chunkSize.postgres;
    let chunk: ReadRow[] = [];
    for await (const row of readRows(await openInput(input), input, kind)) {
      if (dry.errorRows.has(row.rowNumber) || dry.repeatRows.has(row.rowNumber)) continue;
      chunk.push(row);
      if (chunk.length >= chunkSize) {
        await writeChunk(chunk);
        chunk = [];
      }
    }
    if (chunk.length > 0) await writeChunk(chunk);
    if (kind.finish) {
      await options.beforeChunk?.(chunkIndex);
      await acting.transaction(async (tx) => {
        await preferIndexesEmbedded(tx);
        await queries.insertRecords(tx, runId, await kind.finish!(tx, applyContext));
      });
    }
    // The grown tables' whole statistics (the planner's view of their columns), a table at a time.
    if (grown) {
      for (const table of GROWN_TABLES[input.kind]) {
        await analyzeTables(db, [table]);
        await letOthersThrough();
      }
    }
  } catch (error) {
    if (!(error instanceof AppError)) options.onFailure?.(error);
    const cancelled = error instanceof AppError && error.code === 'IMPORT_CANCELLED';
    const failure = error instanceof AppError ? error.code : 'IMPORT_FAILED';
    await rollBackRun(db, runId, options.actorId, {
      status: cancelled ? 'cancelled' : 'failed',
      failure,
      onFailure: options.onFailure,
    });
    return {
      counts: { created: 0, updated: 0, unchanged: 0, errors: counts.errors },
      status: cancelled ? 'cancelled' : 'failed',
      failure,
      stockChanged: [],
    };
  }
  await acting.transaction((tx) =>
    queries.updateRun(tx, runId, { status: 'applied', finishedAt: new Date(), processedRows: dry.totalRows }),
  );
  return { counts, status: 'applied', failure: null, stockChanged: [...applyContext.stockChanged] };
}

/**
 * Undoes what an apply wrote and ends its run 'failed' or 'cancelled' with the reason: after a
 * failure or a cancellation, or for a run a stopped server left 'Aplicando' (`IMPORT_INTERRUPTED`).
 * The rollback may fail too: the run still ends, its failure saying the rollback did not finish, so
 * a run is never left 'Aplicando' by an error nobody heard.
 */
export async function rollBackRun(
  db: Database,
  runId: string,
  actorId: string | null,
  outcome: { status: 'failed' | 'cancelled'; failure: string; onFailure?: (error: unknown) => void },
): Promise<void> {
  const left = await undoRecords(db, runId, actorId, { force: true }).catch((undoError) => {
    outcome.onFailure?.(undoError);
    return ['IMPORT_UNDO_FAILED'];
  });
  await actingAs(db, { userId: actorId, requestId: runId, at: null }).transaction((tx) =>
    queries.updateRun(tx, runId, {
      status: outcome.status,
      failure: left.length > 0 ? `${outcome.failure}: ${left.join(', ')}` : outcome.failure,
      finishedAt: new Date(),
      createdCount: 0,
      updatedCount: 0,
      unchangedCount: 0,
    }),
  );
}

/**
 * Each table an import writes, locked, restored and deleted by its owning feature (decision 0056):
 * the undo writes no table itself.
 */
const OWNERS: Record<
  ImportTable,
  {
    lock(tx: Executor, ids: readonly string[]): Promise<void>;
    restore(
      tx: Executor,
      rows: readonly { id: string; before: Record<string, unknown> }[],
      userId: string | null,
    ): Promise<void>;
    remove(tx: Executor, ids: readonly string[]): Promise<void>;
  }
> = {
  clients: {
    lock: clientsService.lockImportedIn,
    restore: clientsService.restoreImportedIn,
    remove: clientsService.removeImportedIn,
  },
  brokers: {
    lock: brokersService.lockImportedIn,
    restore: brokersService.restoreImportedIn,
    remove: brokersService.removeImportedIn,
  },
  reservations: {
    lock: reservationsService.lockImportedIn,
    restore: reservationsService.restoreImportedIn,
    remove: reservationsService.removeImportedIn,
  },
  broker_commissions: {
    lock: commissionsService.lockImportedIn,
    restore: commissionsService.restoreImportedIn,
    remove: commissionsService.removeImportedIn,
  },
  units: {
    lock: (tx, ids) => stock.lockImportedIn(tx, 'units', ids),
    restore: (tx, rows, userId) => stock.restoreImportedIn(tx, 'units', rows, userId),
    remove: (tx, ids) => stock.removeImportedIn(tx, 'units', ids),
  },
  price_lists: {
    lock: (tx, ids) => stock.lockImportedIn(tx, 'price_lists', ids),
    restore: (tx, rows, userId) => stock.restoreImportedIn(tx, 'price_lists', rows, userId),
    remove: (tx, ids) => stock.removeImportedIn(tx, 'price_lists', ids),
  },
};

/** Rows restored or deleted per statement (the JSON of a thousand snapshots stays small). */
const REVERT_STEP = 1_000;

/**
 * Reverts what a run wrote inside the caller's transaction: every record it changed locked first (by
 * its owner, the tables in one order), then checked under that lock — changed since by someone else
 * (an edit saved meanwhile, a task moved on its flow, a reservation made for its client) and the
 * undo is refused naming those records (`force`: an apply rolling itself back answers them instead);
 * then, newest first, creations deleted (a reservation's flows and commission with it) and updates
 * put back as a new version (a version never moves backwards). Nothing is reverted when one record
 * is refused.
 */
async function revertIn(
  tx: Executor,
  runId: string,
  actorId: string | null,
  options: { force?: boolean },
): Promise<string[]> {
  const run = await queries.findRunState(tx, runId);
  if (!run) throw new AppError('IMPORT_RUN_NOT_FOUND');
  const records = await queries.listRecordsOf(tx, runId);
  for (const table of IMPORT_TABLES) {
    const ids = records.filter((record) => record.tableName === table).map((record) => record.recordId);
    for (let start = 0; start < ids.length; start += REVERT_STEP)
      await OWNERS[table].lock(tx, ids.slice(start, start + REVERT_STEP));
  }
  const conflicts = await queries.listLaterChanges(tx, runId, run.startedAt ?? run.createdAt, 11);
  if (conflicts.length > 0) {
    if (options.force) return conflicts;
    const shown = conflicts.slice(0, 10).join(', ') + (conflicts.length > 10 ? ' y otros' : '');
    throw new AppError('IMPORT_UNDO_CONFLICT', { params: { records: shown } });
  }
  // Consecutive records of one table and action: one statement per step.
  let index = 0;
  while (index < records.length) {
    const first = records[index]!;
    const group: StoredRecord[] = [];
    while (
      index < records.length &&
      records[index]!.tableName === first.tableName &&
      records[index]!.action === first.action &&
      group.length < REVERT_STEP
    ) {
      group.push(records[index]!);
      index += 1;
    }
    const owner = OWNERS[first.tableName];
    if (first.action === 'insert')
      await owner.remove(
        tx,
        group.map((record) => record.recordId),
      );
    else
      await owner.restore(
        tx,
        group.flatMap((record) => (record.before ? [{ id: record.recordId, before: record.before }] : [])),
        actorId,
      );
  }
  await queries.deleteRecordsOfRun(tx, runId);
  return [];
}

/**
 * Reverts what a run wrote, in one transaction (`revertIn`): after a failed or cancelled apply, with
 * `force` (the records others changed are answered, not lost).
 */
export async function undoRecords(
  db: Database,
  runId: string,
  actorId: string | null,
  options: { force?: boolean } = {},
): Promise<string[]> {
  return actingAs(db, { userId: actorId, requestId: runId, at: null }).transaction((tx) =>
    revertIn(tx, runId, actorId, options),
  );
}

/**
 * 'Deshacer importación': under the run's lock, so that of concurrent undos exactly one reverts and
 * the others are told it was undone; the run's records reverted and the run 'Deshecha' in the same
 * transaction.
 */
export async function undoRun(db: Database, runId: string, actorId: string, now: Date): Promise<void> {
  await actingAs(db, { userId: actorId, requestId: runId, at: null }).transaction(async (tx) => {
    const locked = await queries.lockRun(tx, runId);
    if (!locked) throw new AppError('IMPORT_RUN_NOT_FOUND');
    if (locked.status === 'undone') throw new AppError('IMPORT_ALREADY_UNDONE');
    if (locked.status !== 'applied') throw new AppError('IMPORT_NOT_UNDOABLE');
    await revertIn(tx, runId, actorId, {});
    await queries.updateRun(tx, runId, { status: 'undone', undoneAt: now, undoneBy: actorId });
  });
}

export { countsSentence, errorMessage };
