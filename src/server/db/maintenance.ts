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
import type { Database, DatabaseKind } from './client';

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
): Promise<() => void> {
  if (kind !== 'pglite') return () => {};
  const run = async (when: 'start' | 'nightly') => {
    try {
      const millis = await maintainEmbeddedDatabase(db);
      log.info({ when, millis: Math.round(millis) }, 'embedded database vacuumed and analyzed');
    } catch (error) {
      log.error({ err: error, when }, 'embedded database maintenance failed');
    }
  };
  await run('start');
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
