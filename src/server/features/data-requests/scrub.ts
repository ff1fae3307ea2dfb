/**
 * The bytes of a suppression (issue 54, decision 0054). An UPDATE leaves the old row version in the
 * table's file until its space is reused, its index entries in the indexes, the values in
 * `pg_statistic`'s samples, and the change itself — with whole pages of the old values — in the
 * write-ahead log. 'Borrar de los archivos' (the scrub) rewrites every table that may hold a holder's
 * values (`HOLDER_TABLES`) with `VACUUM FULL` (a new file holding only live rows, indexes rebuilt; the
 * old files are truncated at commit and unlinked at the next checkpoint), analyses them again and
 * rewrites `pg_statistic`; then, on the embedded database, switches to a new WAL segment and
 * checkpoints with `wal_recycle = off`, so the segments that held the old values are deleted, not
 * renamed for reuse, and deletes any segment an earlier checkpoint had kept for reuse. Nothing of the
 * old values remains in the data directory: `backups/suppressions.test.ts` greps it.
 *
 * It holds the embedded database for its length (VACUUM FULL takes the tables' exclusive lock, and
 * PGlite runs one statement at a time), so it does not run in a request: it runs before every backup
 * (a backup never copies the old values) and in the nightly maintenance, and at start.
 * On PostgreSQL it rewrites the same tables; the WAL, its archives and point-in-time recovery are the
 * operator's (README).
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { asSystem } from '../../db/actor';
import { type Database, isEmbedded, queryRows } from '../../db/client';
import * as queries from './data-requests.queries';
import { HOLDER_TABLES } from './personal-data';

export interface ScrubResult {
  requests: string[];
  tables: number;
  /** WAL segments deleted. */
  walSegments: number;
  millis: number;
}

const quoted = (table: string) => `"${table.replaceAll('"', '""')}"`;

/**
 * Scrubs now if a suppression is waiting for it (or `always`); null when there was nothing to do.
 * `dataDir`: the embedded database's directory (`DATA_DIR/db`), for its WAL.
 */
export async function scrubPending(
  db: Database,
  options: { dataDir?: string; now: Date; always?: boolean },
): Promise<ScrubResult | null> {
  const requests = await queries.listUnscrubbed(db);
  if (requests.length === 0 && !options.always) return null;
  const began = performance.now();
  const existing = await queryRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind = 'r'`,
  );
  const names = new Set(existing.map((row) => row.name));
  const tables = HOLDER_TABLES.filter((table) => names.has(table));
  for (const table of tables) await db.execute(sql.raw(`vacuum full ${quoted(table)}`));
  await db.execute(sql.raw(`analyze ${tables.map(quoted).join(', ')}`));
  let walSegments = 0;
  if (isEmbedded(db)) {
    // The samples ANALYZE kept of the old values, rewritten with the catalog's file.
    await db.execute(sql`vacuum full pg_statistic`);
    walSegments = await retireWal(db, options.dataDir);
  } else {
    // Only a superuser may rewrite the catalog: the operator's (README).
    await db.execute(sql`vacuum full pg_statistic`).catch(() => undefined);
  }
  if (requests.length > 0)
    await asSystem(db, (tx) => queries.updateLedgerScrubbed(tx, requests, options.now));
  return { requests, tables: tables.length, walSegments, millis: performance.now() - began };
}

const SEGMENT = /^[0-9A-F]{24}$/;

/**
 * The log's segments that held the old values deleted: a new segment begun, a checkpoint (which
 * deletes every segment before it, recycling none), then any segment kept from before for reuse
 * (named after the one being written) deleted too — a recycled segment is an old one renamed, with
 * its old contents.
 */
async function retireWal(db: Database, dataDir: string | undefined): Promise<number> {
  await db.execute(sql`set wal_recycle = off`);
  const before = dataDir ? await segments(dataDir) : [];
  await db.execute(sql`select pg_switch_wal()`);
  await db.execute(sql`checkpoint`);
  if (!dataDir) return 0;
  const [current] = await queryRows<{ name: string }>(
    db,
    sql`select pg_walfile_name(pg_current_wal_insert_lsn()) as name`,
  );
  let removed = before.filter((name) => !current || name < current.name).length;
  for (const name of await segments(dataDir)) {
    if (current && name > current.name) {
      await rm(join(dataDir, 'pg_wal', name), { force: true });
      removed += 1;
    }
  }
  return removed;
}

async function segments(dataDir: string): Promise<string[]> {
  return (await readdir(join(dataDir, 'pg_wal')).catch(() => [] as string[])).filter((name) =>
    SEGMENT.test(name),
  );
}
