/**
 * The embedded database's housekeeping (decision 0025). PostgreSQL's autovacuum takes back dead row
 * versions and keeps the planner's statistics current; PGlite runs no autovacuum, so a database that
 * grew from empty would be planned without statistics for ever (the Flujo de Reservas took a common
 * surname for a rare one and sorted thousands of rows for a page of 25). `VACUUM (ANALYZE)` once at
 * start, before the server listens, and every night at 04:00 in Santiago, when nobody waits on the
 * few seconds it holds the database. Nothing to do on PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import { santiagoWallClock } from '../../shared/format';
import { type Database, type DatabaseKind, type Executor, isEmbedded, queryRows } from './client';

const MAINTENANCE_HOUR = 4;

async function maintainEmbeddedDatabase(db: Database): Promise<number> {
  const began = performance.now();
  await db.execute(sql`vacuum (analyze)`);
  return performance.now() - began;
}

/** Milliseconds from `now` to the next `hour`:00 of the Santiago clock (a DST change may shift it an hour). */
export function millisUntilSantiagoHour(now: Date, hour = MAINTENANCE_HOUR): number {
  const [hours, minutes] = santiagoWallClock(now).time.split(':').map(Number) as [number, number];
  // Santiago's offset is whole hours: its seconds are UTC's.
  const sinceMidnight = ((hours * 60 + minutes) * 60 + now.getUTCSeconds()) * 1000 + now.getUTCMilliseconds();
  const day = 24 * 3600 * 1000;
  const wait = (hour * 3600 * 1000 - sinceMidnight + day) % day;
  return wait === 0 ? day : wait;
}

export interface MaintenanceLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * Runs the housekeeping now (awaited: the server listens afterwards) and then every night; returns
 * what stops the nightly runs. A no-op on PostgreSQL.
 */
export async function startEmbeddedMaintenance(
  db: Database,
  kind: DatabaseKind,
  log: MaintenanceLog,
  options: {
    /** Skip the run at start (a restart after a crash: serving again comes first; nightly still runs). */
    atStart?: boolean;
    /**
     * Runs first, on both engines: the scrub of suppressed values from the files (decision 0054), which
     * holds the tables it rewrites — at start before the server listens, and at night.
     */
    scrub?: () => Promise<unknown>;
  } = {},
): Promise<() => void> {
  const { scrub } = options;
  if (kind !== 'pglite' && !scrub) return () => {};
  const run = async (when: 'start' | 'nightly') => {
    if (scrub) {
      try {
        await scrub();
      } catch (error) {
        log.error({ err: error, when }, 'scrub of suppressed values failed');
      }
    }
    if (kind !== 'pglite') return;
    try {
      const millis = await maintainEmbeddedDatabase(db);
      log.info({ when, millis: Math.round(millis) }, 'embedded database vacuumed and analyzed');
    } catch (error) {
      log.error({ err: error, when }, 'embedded database maintenance failed');
    }
  };
  if (options.atStart !== false) await run('start');
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(async () => {
      await run('nightly');
      schedule();
    }, millisUntilSantiagoHour(new Date()));
    // Never what keeps the process alive.
    timer.unref();
  };
  schedule();
  return () => clearTimeout(timer);
}

/**
 * The sample an import's closing `ANALYZE` takes: statistics target 30, 9,000 rows, against the
 * default 100's 30,000. Sizes, distinct counts, null fractions and the 30 commonest values are what
 * our plans read; the sample's size is what held the embedded database (a grown `flow_tasks` 154 ms
 * at 100, 42 ms at 30, on a slow day; decision 0033). The nightly `VACUUM (ANALYZE)` takes the
 * default sample again.
 */
export const QUICK_STATISTICS_TARGET = 30;

/**
 * The statistics of `tables` brought up to date (`ANALYZE` with the quick sample above), for a bulk
 * write that grows them from nearly empty (an import on a new installation). Without it the planner
 * keeps the sizes it last read: on the embedded database the foreign-key checks, planned once per
 * session, scanned their whole table for every inserted row, and each chunk of an import got slower
 * than the last (5,000 reservations: 90 ms chunks became 500 ms); on PostgreSQL a named statement's
 * generic plan, made while the table was nearly empty, stayed (decision 0047: 100,000 clients took
 * 57 s to apply instead of 9), and autovacuum's analysis comes a minute or more later. An ANALYZE
 * changes the tables' statistics, and the plans that read them are made again (`analyzedRows` tells
 * when a table has doubled since).
 */
export async function analyzeTables(db: Database, tables: readonly string[]): Promise<void> {
  if (tables.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local default_statistics_target = ${QUICK_STATISTICS_TARGET}`));
    await tx.execute(sql.raw(`analyze ${tables.map((table) => `"${table}"`).join(', ')}`));
  });
}

/**
 * The size of `table` brought up to date (its row and page counts) without its columns' statistics:
 * `ANALYZE` of one column. What a bulk write's foreign-key checks and plans need while it runs (the
 * sizes), for a fifth of the time: a whole ANALYZE of 100,000 clients held the embedded database
 * 320 ms, of their first column 60 ms (decision 0033, 2026-11-27). The whole statistics follow once
 * the write ends (`analyzeTables`).
 */
export async function analyzeSize(db: Executor, table: string): Promise<void> {
  const [first] = await queryRows<{ name: string }>(
    db,
    sql`select attname as name from pg_attribute
         where attrelid = to_regclass(${table}) and attnum > 0 and not attisdropped
         order by attnum limit 1`,
  );
  if (!first) return;
  await db.execute(sql.raw(`analyze "${table}" ("${first.name}")`));
}

/** The rows the statistics say `table` has (0 before its first analysis). */
export async function analyzedRows(db: Executor, table: string): Promise<number> {
  const rows = await queryRows<{ rows: number }>(
    db,
    sql`select greatest(reltuples, 0)::float8 as rows from pg_class
         where oid = to_regclass(${table}) `,
  );
  return rows[0]?.rows ?? 0;
}

/**
 * A bulk write's plans on the embedded database made again without sequential scans where an index
 * serves (decision 0046). After the maintenance's `VACUUM (ANALYZE)` a one-page table (`profiles`,
 * `workflow_tasks`, `import_runs`) is cheaper to scan than to probe by the planner's costs, so every
 * referential check against it is planned as a sequential scan; on PGlite each such scan also asks the
 * host file system for the file's size (Emscripten's NODEFS answers `lseek` with `fstatSync`), a cost
 * the planner cannot know: 13 µs a check against 7 µs by the primary key, and an import of 5,000
 * reservations makes ~400,000 checks. The checks' plans are kept for the session, so the write first
 * discards the cached plans (`forgetPlansEmbedded`, once), and its transactions plan with sequential
 * scans disabled (`preferIndexesEmbedded`, `set local`: other requests keep the planner's defaults).
 * Plans made inside are kept afterwards: an index probe of a small table is never a bad plan. Nothing
 * on PostgreSQL, whose file size is one system call.
 */
export async function forgetPlansEmbedded(db: Executor): Promise<void> {
  if (isEmbedded(db)) await db.execute(sql`discard plans`);
}

/** Inside a bulk write's transaction on the embedded database: see `forgetPlansEmbedded`. */
export async function preferIndexesEmbedded(tx: Executor): Promise<void> {
  if (isEmbedded(tx)) await tx.execute(sql`set local enable_seqscan = off`);
}
