import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { uuidArrayParam } from '../../db/arrays';
import { insertRowsAsJson } from '../../db/bulk';
import type { Executor } from '../../db/client';
import { isoInstant, queryRows } from '../../db/client';
import { importMappings, importRunFileParts, importRunRecords, importRuns, profiles } from '../../db/schema';
import { letOthersThrough } from '../../event-loop';
import { type ChangedRecord, IMPORT_TABLES, type ImportTable } from './kinds/kind';

/**
 * The import's own tables (runs, their records, the remembered mappings) and the generic part of
 * undo: whole-row snapshots before an update, restored column by column; creations deleted.
 */

export type RunRow = typeof importRuns.$inferSelect & { fileBytes: Buffer };

/*
 * A run's file is written as bytes (a binary parameter, no text made of it) and read back as base64
 * text, decoded natively: the embedded database's driver reads a bytea as hex one byte at a time in
 * JavaScript (a 100,000-row CSV, 8.7 MB, took 0.8 s to read, with the event loop held and hundreds of
 * MB of short strings; decision 0033, 2026-11-27). It is stored and read in parts of 256 KiB, a
 * statement each, so that other requests run between them.
 */

/**
 * The largest part of a run's file (`import_run_file_parts`). The 8.7 MB upload of 100,000 clients,
 * /api/health asked every 20 ms beside it (the machine's CPU throttled): one statement 790 ms, parts
 * of 1 MiB 330–420 ms, of 256 KiB 180–240 ms (the driver copies each part's text in JavaScript).
 */
export const FILE_PART_BYTES = 256 * 1024;

/** The file's parts, in order: FILE_PART_BYTES each, the last shorter (an empty file has one, empty). */
export function filePartsOf(bytes: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  for (let start = 0; start < bytes.length || parts.length === 0; start += FILE_PART_BYTES) {
    parts.push(bytes.subarray(start, start + FILE_PART_BYTES));
  }
  return parts;
}

export async function insertRun(
  db: Executor,
  values: { kind: string; fileName: string; fileHash: string; fileParts: number; createdBy: string | null },
): Promise<{ id: string }> {
  const [row] = await db.insert(importRuns).values(values).returning({ id: importRuns.id });
  return row!;
}

export async function insertFilePart(
  db: Executor,
  runId: string,
  part: number,
  bytes: Buffer,
): Promise<void> {
  await db.insert(importRunFileParts).values({ runId, part, bytes });
}

export async function deleteRun(db: Executor, id: string): Promise<void> {
  await db.delete(importRuns).where(eq(importRuns.id, id));
}

/** The run with its file, read part by part; null when the run, or any part of its file, is missing. */
export async function findRun(db: Executor, id: string): Promise<RunRow | null> {
  const [row] = await db.select().from(importRuns).where(eq(importRuns.id, id)).limit(1);
  if (!row) return null;
  const parts: Buffer[] = [];
  for (let part = 0; part < row.fileParts; part++) {
    const [found] = await db
      .select({ bytes: sql<string>`encode(${importRunFileParts.bytes}, 'base64')` })
      .from(importRunFileParts)
      .where(and(eq(importRunFileParts.runId, id), eq(importRunFileParts.part, part)));
    if (!found) return null;
    // Node's base64 decoder skips the line breaks PostgreSQL puts every 76 characters.
    parts.push(Buffer.from(found.bytes, 'base64'));
    // Others' requests between the parts: on the embedded database a statement's answer comes back
    // without leaving the event loop, and the 34 parts of 8.7 MB read back to back held it ~200 ms.
    await letOthersThrough();
  }
  return { ...row, fileBytes: Buffer.concat(parts) };
}

/** The run's status, its row locked (not its file's bytes). */
export async function lockRun(db: Executor, id: string): Promise<{ status: string } | null> {
  const [row] = await db
    .select({ status: importRuns.status })
    .from(importRuns)
    .where(eq(importRuns.id, id))
    .for('update')
    .limit(1);
  return row ?? null;
}

/** What a status check needs of a run, without its file's bytes. */
export async function findRunState(
  db: Executor,
  id: string,
): Promise<{ status: string; startedAt: Date | null; createdAt: Date } | null> {
  const [row] = await db
    .select({ status: importRuns.status, startedAt: importRuns.startedAt, createdAt: importRuns.createdAt })
    .from(importRuns)
    .where(eq(importRuns.id, id))
    .limit(1);
  return row ?? null;
}

export async function updateRun(db: Executor, id: string, values: Partial<typeof importRuns.$inferInsert>) {
  await db.update(importRuns).set(values).where(eq(importRuns.id, id));
}

/** A chunk's progress saved; answers whether a cancellation was asked meanwhile (one statement). */
export async function updateRunProgress(
  db: Executor,
  id: string,
  values: Partial<typeof importRuns.$inferInsert>,
): Promise<boolean> {
  const [row] = await db
    .update(importRuns)
    .set(values)
    .where(eq(importRuns.id, id))
    .returning({ cancel: importRuns.cancelRequested });
  return row?.cancel ?? false;
}

/** Another run applying now (one import at a time). */
export async function findRunningRun(db: Executor): Promise<string | null> {
  const [row] = await db
    .select({ id: importRuns.id })
    .from(importRuns)
    .where(eq(importRuns.status, 'applying'))
    .limit(1);
  return row?.id ?? null;
}

/** Every run marked 'Aplicando' (a server that stopped mid-apply leaves its run so). */
export async function listApplyingRuns(db: Executor): Promise<string[]> {
  const rows = await db
    .select({ id: importRuns.id })
    .from(importRuns)
    .where(eq(importRuns.status, 'applying'));
  return rows.map((row) => row.id);
}

const runColumns = {
  id: importRuns.id,
  kind: importRuns.kind,
  fileName: importRuns.fileName,
  fileHash: importRuns.fileHash,
  status: importRuns.status,
  headerRow: importRuns.headerRow,
  totalRows: importRuns.totalRows,
  processedRows: importRuns.processedRows,
  createdCount: importRuns.createdCount,
  updatedCount: importRuns.updatedCount,
  unchangedCount: importRuns.unchangedCount,
  errorCount: importRuns.errorCount,
  failure: importRuns.failure,
  createdByName: sql<string | null>`${profiles.firstName} || ' ' || ${profiles.lastName}`,
  createdAt: isoInstant(importRuns.createdAt),
  startedAt: optionalInstant(importRuns.startedAt),
  finishedAt: optionalInstant(importRuns.finishedAt),
  undoneAt: optionalInstant(importRuns.undoneAt),
};

function optionalInstant(column: typeof importRuns.startedAt) {
  return sql<string | null>`case when ${column} is null then null else ${isoInstant(column)} end`;
}

/** The runs that were applied (or tried), newest first; not the file's bytes; one statement. */
export function listRuns(db: Executor, limit: number) {
  return db
    .select(runColumns)
    .from(importRuns)
    .leftJoin(profiles, eq(profiles.id, importRuns.createdBy))
    .where(ne(importRuns.status, 'uploaded'))
    .orderBy(desc(importRuns.createdAt), desc(importRuns.id))
    .limit(limit);
}

export type RunListRow = Awaited<ReturnType<typeof listRuns>>[number];

export async function findRunListRow(db: Executor, id: string): Promise<RunListRow | null> {
  const [row] = await db
    .select(runColumns)
    .from(importRuns)
    .leftJoin(profiles, eq(profiles.id, importRuns.createdBy))
    .where(eq(importRuns.id, id))
    .limit(1);
  return row ?? null;
}

// --- Mappings ---------------------------------------------------------------------------------------

export async function findMapping(db: Executor, kind: string): Promise<Record<string, string>> {
  const [row] = await db
    .select({ columns: importMappings.columns })
    .from(importMappings)
    .where(eq(importMappings.kind, kind))
    .limit(1);
  return (row?.columns as Record<string, string> | undefined) ?? {};
}

export async function upsertMapping(
  db: Executor,
  kind: string,
  columns: Record<string, string>,
  userId: string,
) {
  await db
    .insert(importMappings)
    .values({ kind, columns, updatedBy: userId })
    .onConflictDoUpdate({
      target: importMappings.kind,
      set: { columns, updatedBy: userId, updatedAt: sql`now()` },
    });
}

// --- Records and undo --------------------------------------------------------------------------------

/** A chunk's records (undo's memory of what it changed), set-based (`insertRowsAsJson`). */
export async function insertRecords(db: Executor, runId: string, records: readonly ChangedRecord[]) {
  await insertRowsAsJson(
    db,
    importRunRecords,
    records.map((record) => ({
      runId,
      tableName: record.tableName,
      recordId: record.recordId,
      action: record.action,
      before: record.before,
      rowNumber: record.rowNumber,
    })),
  );
}

export interface StoredRecord {
  id: number;
  tableName: ImportTable;
  recordId: string;
  action: 'insert' | 'update';
  before: Record<string, unknown> | null;
}

/** Every record of a run, newest first (undo walks them backwards). */
export async function listRecordsOf(db: Executor, runId: string): Promise<StoredRecord[]> {
  return (await db
    .select({
      id: importRunRecords.id,
      tableName: importRunRecords.tableName,
      recordId: importRunRecords.recordId,
      action: importRunRecords.action,
      before: importRunRecords.before,
    })
    .from(importRunRecords)
    .where(eq(importRunRecords.runId, runId))
    .orderBy(desc(importRunRecords.id))) as StoredRecord[];
}

export async function deleteRecordsOfRun(db: Executor, runId: string) {
  await db.delete(importRunRecords).where(eq(importRunRecords.runId, runId));
}

export async function hasRecords(db: Executor, runId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: importRunRecords.id })
    .from(importRunRecords)
    .where(eq(importRunRecords.runId, runId))
    .limit(1);
  return row !== undefined;
}

const TABLE_SQL: Record<ImportTable, ReturnType<typeof sql.raw>> = Object.fromEntries(
  IMPORT_TABLES.map((table) => [table, sql.raw(table)]),
) as Record<ImportTable, ReturnType<typeof sql.raw>>;

/** Whole rows as JSON, locked for the rest of the transaction: the `before` of an update. */
export async function lockRowSnapshots(
  tx: Executor,
  table: ImportTable,
  ids: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: string; doc: Record<string, unknown> }>(
    tx,
    sql`select t.id, to_jsonb(t) as doc from ${TABLE_SQL[table]} t
        where t.id = any(${uuidArrayParam(ids)}) for update`,
  );
  return new Map(rows.map((row) => [row.id, row.doc]));
}

/**
 * What changed a run's records after the run, by someone else: the audit rows of those records (and
 * of their flows) since the run started that the run did not write. Named for the refusal.
 */
export async function listLaterChanges(
  db: Executor,
  runId: string,
  since: Date,
  limit: number,
): Promise<string[]> {
  const rows = await queryRows<{ label: string }>(
    db,
    sql`with touched as (
          select distinct record_id as id from import_run_records where run_id = ${runId}::uuid
          union
          select f.id from flows f
            join import_run_records r on r.record_id = f.reservation_id and r.run_id = ${runId}::uuid
                 and r.table_name = 'reservations' and r.action = 'insert'
        ),
        changed as (
          select distinct a.root_table, a.root_id from audit_log a
          where a.root_id in (select id from touched)
            and a.occurred_at >= ${since.toISOString()}::timestamptz
            and a.request_id is distinct from ${runId}
            and a.action in ('insert', 'update', 'delete')
          union
          -- Units and price lists are audited under their project: found by their own id.
          select distinct a.table_name, a.record_id::uuid from audit_log a
          where a.table_name in ('units', 'price_lists')
            and a.record_id in (select record_id::text from import_run_records
                                 where run_id = ${runId}::uuid and table_name in ('units', 'price_lists'))
            and a.occurred_at >= ${since.toISOString()}::timestamptz
            and a.request_id is distinct from ${runId}
            and a.action in ('insert', 'update', 'delete')
        ),
        referenced as (
          select 'clients' as root_table, c.id as root_id from clients c
            join import_run_records r on r.record_id = c.id and r.run_id = ${runId}::uuid and r.action = 'insert'
            where exists (select 1 from reservations x where x.client_id = c.id
              and not exists (select 1 from import_run_records y where y.run_id = ${runId}::uuid and y.record_id = x.id))
          union
          select 'brokers', b.id from brokers b
            join import_run_records r on r.record_id = b.id and r.run_id = ${runId}::uuid and r.action = 'insert'
            where exists (select 1 from reservations x where x.broker_id = b.id
              and not exists (select 1 from import_run_records y where y.run_id = ${runId}::uuid and y.record_id = x.id))
          union
          -- A unit or a price list the run created, now held by (or priced) a reservation it did not import.
          select 'units', u.id from units u
            join import_run_records r on r.record_id = u.id and r.run_id = ${runId}::uuid and r.action = 'insert'
            where exists (select 1 from reservation_units x where x.unit_id = u.id
              and not exists (select 1 from import_run_records y where y.run_id = ${runId}::uuid and y.record_id = x.reservation_id))
          union
          select 'price_lists', l.id from price_lists l
            join import_run_records r on r.record_id = l.id and r.run_id = ${runId}::uuid and r.action = 'insert'
            where exists (select 1 from reservation_units x where x.price_list_id = l.id
              and not exists (select 1 from import_run_records y where y.run_id = ${runId}::uuid and y.record_id = x.reservation_id))
        )
        select coalesce(
          (select 'Cliente ' || rut from clients where id = c.root_id),
          (select 'Broker ' || rut from brokers where id = c.root_id),
          (select 'Reserva ' || reservation_number from reservations where id = c.root_id),
          (select 'Reserva ' || r.reservation_number from flows f join reservations r on r.id = f.reservation_id where f.id = c.root_id),
          (select case kind when 'apartment' then 'Departamento ' when 'parking' then 'Estacionamiento ' else 'Bodega ' end || number
             from units where id = c.root_id),
          (select 'Lista de precios del ' || to_char(effective_date, 'DD/MM/YYYY') from price_lists where id = c.root_id),
          c.root_table
        ) as label
        from (select * from changed union select * from referenced) c
        order by 1
        limit ${limit}`,
  );
  return rows.map((row) => row.label);
}

/** The projects whose stock a run touched: its units, its price lists, its reservations holding units. */
export async function listStockProjectsOfRun(db: Executor, runId: string): Promise<string[]> {
  const rows = await queryRows<{ project_id: string }>(
    db,
    sql`select u.project_id from units u
          join import_run_records r on r.record_id = u.id and r.run_id = ${runId}::uuid and r.table_name = 'units'
        union
        select l.project_id from price_lists l
          join import_run_records r on r.record_id = l.id and r.run_id = ${runId}::uuid and r.table_name = 'price_lists'
        union
        select x.project_id from reservations x
          join import_run_records r on r.record_id = x.id and r.run_id = ${runId}::uuid and r.table_name = 'reservations'
         where exists (select 1 from reservation_units ru where ru.reservation_id = x.id)`,
  );
  return rows.map((row) => row.project_id);
}
