import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createPglite, type Database, drizzleFor, queryRows } from './client';
import {
  analyzeSize,
  analyzeTables,
  forgetPlansEmbedded,
  millisUntilSantiagoHour,
  preferIndexesEmbedded,
  QUICK_STATISTICS_TARGET,
  startEmbeddedMaintenance,
} from './maintenance';

const HOUR = 3600 * 1000;

/** An embedded database of its own (whatever engine the suite runs on) with a table never analyzed. */
async function probe() {
  client = await createPglite();
  const db = drizzleFor(client);
  await db.execute(sql`create table maintenance_probe (n integer)`);
  await db.execute(sql`insert into maintenance_probe select g from generate_series(1, 2000) g`);
  return db;
}

const statistics = (db: Database) =>
  queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from pg_stats where tablename = 'maintenance_probe'`,
  );

let client: PGlite | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('the embedded database housekeeping', () => {
  it('gathers the statistics the planner needs at start, and tells how long it took', async () => {
    const db = await probe();
    expect(await statistics(db)).toEqual([{ n: 0 }]);

    const logged: object[] = [];
    const stop = await startEmbeddedMaintenance(db, 'pglite', {
      info: (object) => logged.push(object),
      error: (object) => logged.push({ failed: object }),
    });
    stop();
    expect(logged).toEqual([{ when: 'start', millis: expect.any(Number) }]);
    expect(await statistics(db)).toEqual([{ n: 1 }]);
  });

  it('takes a grown table’s size alone, quickly, and its whole statistics when asked', async () => {
    client = await createPglite();
    const db = drizzleFor(client);
    await db.execute(sql`create table grown_probe (id integer primary key, name text, born date)`);
    await db.execute(sql`insert into grown_probe select g, 'nombre ' || g, date '1980-01-01' + g % 9000
                         from generate_series(1, 5000) g`);
    const state = async () => {
      const [size] = await queryRows<{ rows: number }>(
        db,
        sql`select reltuples::int as rows from pg_class where relname = 'grown_probe'`,
      );
      const columns = await queryRows<{ name: string }>(
        db,
        sql`select attname as name from pg_stats where tablename = 'grown_probe' order by attname`,
      );
      return { rows: size!.rows, columns: columns.map((column) => column.name) };
    };
    expect(await state()).toEqual({ rows: -1, columns: [] });
    await analyzeSize(db, 'grown_probe');
    expect(await state()).toEqual({ rows: 5000, columns: ['id'] });
    await analyzeTables(db, ['grown_probe']);
    expect(await state()).toEqual({ rows: 5000, columns: ['born', 'id', 'name'] });
    // The quick sample: a histogram of QUICK_STATISTICS_TARGET buckets (the default would take 100),
    // and the session's own setting left as it was.
    const [histogram] = await queryRows<{ bounds: number; target: string }>(
      db,
      sql`select cardinality(histogram_bounds::text::int[]) as bounds,
                 current_setting('default_statistics_target') as target
            from pg_stats where tablename = 'grown_probe' and attname = 'id'`,
    );
    expect(histogram).toEqual({ bounds: QUICK_STATISTICS_TARGET + 1, target: '100' });
  });

  it('plans a bulk write’s referential checks against a one-page table by its key, in that write only', async () => {
    client = await createPglite();
    const db = drizzleFor(client);
    await db.execute(sql`create table stage_probe (id integer primary key, name text)`);
    await db.execute(sql`insert into stage_probe select g, 'etapa ' || g from generate_series(1, 20) g`);
    await db.execute(
      sql`create table task_probe (id serial primary key, stage_id integer references stage_probe)`,
    );
    // The start's maintenance: the table is one page, and a scan of it is the planner's cheaper check.
    await db.execute(sql`vacuum (analyze) stage_probe`);
    const insertTasks = (executor: Pick<Database, 'execute'>) =>
      executor.execute(
        sql`insert into task_probe (stage_id) select 1 + g % 20 from generate_series(1, 30) g`,
      );
    const reads = async () => {
      // The backend's counters reach the statistics views when it flushes them.
      await db.execute(sql`select pg_stat_force_next_flush()`);
      await db.execute(sql`select pg_stat_clear_snapshot()`);
      const [counts] = await queryRows<{ scans: number; probes: number }>(
        db,
        sql`select seq_scan::int as scans, idx_scan::int as probes from pg_stat_user_tables where relname = 'stage_probe'`,
      );
      return counts!;
    };
    // A write before the bulk one: its checks' plans (sequential scans) are kept for the session.
    await insertTasks(db);
    const before = await reads();
    expect(before.scans).toBeGreaterThanOrEqual(30);

    await forgetPlansEmbedded(db);
    await db.transaction(async (tx) => {
      await preferIndexesEmbedded(tx);
      await insertTasks(tx);
    });
    const after = await reads();
    expect(after).toEqual({ scans: before.scans, probes: before.probes + 30 });
    // `set local`: the setting ended with the write's transaction.
    const [setting] = await queryRows<{ value: string }>(
      db,
      sql`select current_setting('enable_seqscan') as value`,
    );
    expect(setting).toEqual({ value: 'on' });
  });

  it('leaves PostgreSQL to its autovacuum', async () => {
    const db = await probe();
    const logged: object[] = [];
    const stop = await startEmbeddedMaintenance(db, 'postgres', {
      info: (object) => logged.push(object),
      error: (object) => logged.push(object),
    });
    stop();
    expect(logged).toEqual([]);
    expect(await statistics(db)).toEqual([{ n: 0 }]);
  });
});

describe('the nightly hour', () => {
  it('is 04:00 on the Santiago clock, summer time or not', () => {
    // 12:00 in Santiago (UTC-3, summer) → 16 hours.
    expect(millisUntilSantiagoHour(new Date('2026-11-20T15:00:00Z'))).toBe(16 * HOUR);
    // 03:59:30 in Santiago (UTC-4, winter) → 30 seconds.
    expect(millisUntilSantiagoHour(new Date('2026-07-01T07:59:30Z'))).toBe(30_000);
    // Exactly 04:00 → the next night, not now.
    expect(millisUntilSantiagoHour(new Date('2026-07-01T08:00:00Z'))).toBe(24 * HOUR);
    // 04:00:01 → almost a day.
    expect(millisUntilSantiagoHour(new Date('2026-07-01T08:00:01Z'))).toBe(24 * HOUR - 1000);
  });
});
