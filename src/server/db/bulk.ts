import { getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client';

/**
 * Inserts rows set-based, for the writes made by the hundred (an import's chunk): the rows travel as
 * one JSON parameter, and `json_to_recordset` gives each value its column's own type. The query
 * builder makes one parameter per value — 900 for 20 reservations, bound one by one — and building
 * them was most of an import's JavaScript (decision 0033, 2026-11-27). Values are converted as the
 * builder converts them (an instant to ISO text, a number to numeric text); JSON columns keep theirs.
 * The columns are the rows' keys, the same in every row (a key left out takes the column's default,
 * as with the builder; null is null). Nothing is answered: ids are made by the caller (`newRowId`).
 */
export async function insertRowsAsJson<Table extends PgTable>(
  tx: Executor,
  table: Table,
  rows: readonly Table['$inferInsert'][],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = getTableColumns(table);
  const keys = Object.keys(rows[0]!).filter((key) => (rows[0] as Record<string, unknown>)[key] !== undefined);
  const payload = rows.map((row) => {
    const values = row as Record<string, unknown>;
    if (Object.keys(values).filter((key) => values[key] !== undefined).length !== keys.length)
      throw new Error('insertRowsAsJson: every row must have the same columns');
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const column = columns[key];
      if (!column) throw new Error(`insertRowsAsJson: no column '${key}'`);
      const value = values[key];
      if (value === undefined) throw new Error('insertRowsAsJson: every row must have the same columns');
      out[column.name] =
        value === null || column.dataType === 'json' ? value : column.mapToDriverValue(value);
    }
    return out;
  });
  const names = keys.map((key) => `"${columns[key]!.name}"`).join(', ');
  const types = keys.map((key) => `"${columns[key]!.name}" ${columns[key]!.getSQLType()}`).join(', ');
  await tx.execute(
    sql`insert into ${table} (${sql.raw(names)})
        select ${sql.raw(names)} from json_to_recordset(${JSON.stringify(payload)}::json) as x(${sql.raw(types)})`,
  );
}
