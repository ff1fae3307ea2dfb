import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { UfEntry, UfSource } from '../../../shared/domain/uf';
import {
  type UfFetchView,
  type UfValueView,
  ufFetchView,
  ufValueView,
} from '../../../shared/schemas/uf-values';
import { type Executor, queryRows } from '../../db/client';

// Rows checked outside production (decisions 0036, 0067); the views' rows by their answer schemas.
const ufEntryRow = z.object({ date: z.string(), value: z.string() });
const dateRow = z.object({ date: z.string() });
const foundRow = z.object({ found: z.number() });

/** The UF values (decision 0034): this feature alone writes `uf_values`. */

/** Every calendar day of a month ('YYYY-MM'), with its value or none, in one statement. */
export function listMonth(db: Executor, month: string): Promise<UfValueView[]> {
  const first = `${month}-01`;
  return queryRows(
    db,
    sql`
      select d.day::date::text as date, u.value::text as value, u.source,
             to_char(u.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "updatedAt",
             (select p.first_name || ' ' || p.last_name from profiles p where p.id = u.updated_by) as "updatedByName",
             u.version
        from generate_series(${first}::date, (${first}::date + interval '1 month' - interval '1 day'), interval '1 day') as d(day)
        left join uf_values u on u.date = d.day::date
       order by d.day`,
    ufValueView,
  );
}

export async function findValue(db: Executor, date: string): Promise<UfValueView | null> {
  const [row] = await queryRows(
    db,
    sql`
      select u.date::text as date, u.value::text as value, u.source,
             to_char(u.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "updatedAt",
             (select p.first_name || ' ' || p.last_name from profiles p where p.id = u.updated_by) as "updatedByName",
             u.version
        from uf_values u where u.date = ${date}::date`,
    ufValueView,
  );
  return row ?? null;
}

/** The stored values of some days (missing days are absent). */
export function listValuesOn(db: Executor, dates: readonly string[]): Promise<UfEntry[]> {
  if (dates.length === 0) return Promise.resolve([]);
  return queryRows(
    db,
    sql`select u.date::text as date, u.value::text as value from uf_values u
         where u.date = any(${`{${dates.join(',')}}`}::date[])`,
    ufEntryRow,
  );
}

/** The stored values from the day before `first` to the day after `last` (the neighbours of an import). */
export function listValuesAround(db: Executor, first: string, last: string): Promise<UfEntry[]> {
  return queryRows(
    db,
    sql`select u.date::text as date, u.value::text as value from uf_values u
         where u.date between ${first}::date - 1 and ${last}::date + 1`,
    ufEntryRow,
  );
}

/** Adds a day; false when it already exists (a concurrent add: the caller answers 409). */
export async function insertValue(
  tx: Executor,
  entry: UfEntry,
  source: UfSource,
  userId: string | null,
): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`insert into uf_values (date, value, source, created_by, updated_by)
        values (${entry.date}::date, ${entry.value}, ${source}, ${userId}, ${userId})
        on conflict (date) do nothing returning date::text as date`,
    dateRow,
  );
  return rows.length === 1;
}

/** Corrects a day read at `version`; false when stale. */
export async function updateValue(
  tx: Executor,
  entry: UfEntry,
  version: number,
  source: UfSource,
  userId: string | null,
): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`update uf_values set value = ${entry.value}, source = ${source}, updated_by = ${userId},
               updated_at = now(), version = version + 1
         where date = ${entry.date}::date and version = ${version}
        returning date::text as date`,
    dateRow,
  );
  return rows.length === 1;
}

/**
 * An import's values, in one statement: new days inserted, changed days updated (a day whose value is
 * the same is left as it is, and logs nothing).
 */
export async function upsertValues(
  tx: Executor,
  entries: readonly UfEntry[],
  source: UfSource,
  userId: string | null,
): Promise<void> {
  if (entries.length === 0) return;
  await tx.execute(sql`
    insert into uf_values (date, value, source, created_by, updated_by)
    select e.date::date, e.value::numeric, ${source}, ${userId}::uuid, ${userId}::uuid
      from json_to_recordset(${JSON.stringify(entries)}::json) as e(date text, value text)
    on conflict (date) do update
      set value = excluded.value, source = excluded.source, updated_by = excluded.updated_by,
          updated_at = now(), version = uf_values.version + 1
      where uf_values.value is distinct from excluded.value`);
}

// --- The automatic fetch's attempts ----------------------------------------------------------------

const fetchColumns = sql`to_char(attempted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "attemptedAt",
       status, received, added, failure`;

export async function insertFetch(
  db: Executor,
  attempt: {
    attemptedAt: Date;
    status: 'saved' | 'failed';
    received: number;
    added: number;
    failure: string | null;
  },
): Promise<UfFetchView> {
  const [row] = await queryRows(
    db,
    sql`insert into uf_fetches (attempted_at, status, received, added, failure)
        values (${attempt.attemptedAt.toISOString()}::timestamptz, ${attempt.status}, ${attempt.received},
                ${attempt.added}, ${attempt.failure})
        returning ${fetchColumns}`,
    ufFetchView,
  );
  return row!;
}

export async function findLastFetch(db: Executor): Promise<UfFetchView | null> {
  const [row] = await queryRows(
    db,
    sql`select ${fetchColumns} from uf_fetches order by attempted_at desc limit 1`,
    ufFetchView,
  );
  return row ?? null;
}

/** Whether an attempt saved the values on this Santiago calendar day. */
export async function hasSavedFetchOn(db: Executor, day: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 as found from uf_fetches
         where status = 'saved' and santiago_date(attempted_at) = ${day}::date
         limit 1`,
    foundRow,
  );
  return rows.length > 0;
}
