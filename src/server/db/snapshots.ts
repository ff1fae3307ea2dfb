import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { uuidArrayParam } from './arrays';
import { type Executor, queryRows } from './client';

/**
 * Whole-row snapshots for an import's undo (decision 0033, 0056), as generic helpers: each owning
 * feature calls them on its own table (`clients.service.restoreImportedIn`…), so only the owner writes.
 */

/** Whole rows as JSON, locked for the rest of the transaction: the `before` of an update. */
export async function lockSnapshots(
  tx: Executor,
  table: PgTable,
  ids: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: string; doc: Record<string, unknown> }>(
    tx,
    sql`select t.id, to_jsonb(t) as doc from ${table} t where t.id = any(${uuidArrayParam(ids)}) for update`,
  );
  return new Map(rows.map((row) => [row.id, row.doc]));
}

/** Rows locked for the rest of the transaction (an undo checks them under this lock). */
export async function lockRows(tx: Executor, table: PgTable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(sql`select 1 from ${table} t where t.id = any(${uuidArrayParam(ids)}) for update`);
}

/** Columns a restore never puts back: the key, the version and who changed it last (the undo is a change). */
const KEPT = new Set([
  'id',
  'version',
  'updated_at',
  'updated_by',
  'created_at',
  'created_by',
  'client_search_text',
]);

/**
 * Puts snapshots back set-based, as a new version (a version never moves backwards): every stored
 * column but the kept ones and the generated ones; `updated_by` is the one undoing.
 */
export async function restoreSnapshots(
  tx: Executor,
  table: PgTable,
  rows: readonly { id: string; before: Record<string, unknown> }[],
  actorId: string | null,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.values(getTableColumns(table))
    .filter((column) => !KEPT.has(column.name) && !column.generated)
    .map((column) => column.name);
  const has = (name: string) => Object.values(getTableColumns(table)).some((column) => column.name === name);
  const name = getTableName(table);
  const list = columns.map((column) => `"${column}"`).join(', ');
  const source = columns.map((column) => `r."${column}"`).join(', ');
  const extra = [
    has('version') ? sql`, version = t.version + 1` : sql``,
    has('updated_at') ? sql`, updated_at = now()` : sql``,
    has('updated_by') ? sql`, updated_by = ${actorId}::uuid` : sql``,
  ];
  await tx.execute(
    sql`update ${table} t set (${sql.raw(list)}) = row(${sql.raw(source)})${sql.join(extra, sql``)}
        from jsonb_populate_recordset(null::${sql.raw(`"${name}"`)}, ${JSON.stringify(rows.map((row) => row.before))}::jsonb) r
        where t.id = r.id`,
  );
}

/** Deletes rows by id (an import's creations undone). */
export async function deleteByIds(tx: Executor, table: PgTable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(sql`delete from ${table} t where t.id = any(${uuidArrayParam(ids)})`);
}
