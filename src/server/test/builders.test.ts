import { sql } from 'drizzle-orm';
import pg from 'pg';
import { expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { useTestApp } from './app';
import { loadInBulk } from './builders';
import { testDatabaseUrl } from './database';
import { describeOnPostgres } from './engine';

// Several connections at once (one holding an old snapshot, another database's writer): only where
// PostgreSQL is the database under test. The embedded database has one connection.
describeOnPostgres('loadInBulk on PostgreSQL', () => {
  const ctx = useTestApp();

  it('leaves its rebuilt indexes usable by the next plan, even while an older transaction still runs', async () => {
    const planOf = async () =>
      (await queryRows<Record<string, string>>(ctx.db, sql`explain select * from bulk_hot where a = 5`))
        .map((row) => Object.values(row)[0])
        .join('\n');
    await ctx.db.execute(
      sql`create table bulk_hot (id int primary key, a int, b text) with (fillfactor = 40)`,
    );
    await ctx.db.execute(sql`create index bulk_hot_a_idx on bulk_hot (a)`);
    const writer = new pg.Client({ connectionString: testDatabaseUrl() });
    await writer.connect();
    let releaseSnapshot = () => {};
    try {
      await ctx.db.execute(sql`insert into bulk_hot select n, n, 'x' from generate_series(1, 1000) as n`);
      // A snapshot of this database older than the rows' HOT updates and deletion: the build meets
      // their chains as recently dead, and marks the rebuilt index `indcheckxmin`.
      let snapshotTaken = () => {};
      const taken = new Promise<void>((resolve) => {
        snapshotTaken = resolve;
      });
      const holder = ctx.db.transaction(
        async (tx) => {
          // Its first statement takes the snapshot (a lock on bulk_hot would block the rebuild).
          await tx.execute(sql`select 1`);
          snapshotTaken();
          await new Promise<void>((resolve) => {
            releaseSnapshot = resolve;
          });
        },
        { isolationLevel: 'repeatable read' },
      );
      await taken;
      await ctx.db.execute(sql`update bulk_hot set b = 'y'`);
      await ctx.db.execute(sql`delete from bulk_hot`);
      // Another database's transaction, running when the index is built and ending 300 ms later:
      // until it ends, no plan anywhere may use the index.
      await writer.query('begin');
      await writer.query('select pg_current_xact_id()');
      const writerEnds = new Promise((resolve) => setTimeout(resolve, 300)).then(() =>
        writer.query('commit'),
      );

      await loadInBulk(
        ctx.db,
        ['bulk_hot'],
        [sql`insert into bulk_hot select n, n, 'z' from generate_series(1, 1000) as n`],
      );
      const [index] = await queryRows<{ hidden: boolean }>(
        ctx.db,
        sql`select indcheckxmin as hidden from pg_index where indexrelid = 'bulk_hot_a_idx'::regclass`,
      );
      expect(index!.hidden).toBe(true);
      expect(await planOf()).toContain('bulk_hot_a_idx');
      await writerEnds;
      releaseSnapshot();
      await holder;
    } finally {
      releaseSnapshot();
      await writer.end();
      await ctx.db.execute(sql`drop table if exists bulk_hot`);
    }
  });
});
