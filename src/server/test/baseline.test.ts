import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Database, queryRows } from '../db/client';
import { useTestApp } from './app';
import { catalogMark, catalogsTouchedSince, type ResetConnection } from './baseline';
import { createClient, createProject } from './builders';
import { openTestDatabaseSource } from './database';
import { systemDatabase } from './system-database';

// The reset between tests (baseline.ts), on the engine the suite runs on: what one test leaves —
// rows, a changed seeded row, the audit log, a sequence, an injected trigger — the next never sees.
describe('the database between tests', () => {
  const ctx = useTestApp();
  let seeded: { name: string; rows: number; auditRows: number; sequence: string } | undefined;

  const stateOf = async () => {
    const [row] = await queryRows<{ name: string; rows: number; auditRows: number; sequence: string }>(
      ctx.db,
      sql`select (select name from workflow_stages order by id limit 1) as name,
                 (select count(*)::int from clients) + (select count(*)::int from projects) as rows,
                 (select count(*)::int from audit_log) as "auditRows",
                 (select coalesce(last_value, 0)::text from audit_log_id_seq) as sequence`,
    );
    return row!;
  };

  it('a test changes rows, a seeded row, the audit log and a sequence, and adds a trigger', async () => {
    seeded = await stateOf();
    await createProject(ctx.db);
    await createClient(ctx.db);
    await ctx.db.execute(sql`update workflow_stages set name = 'Cambiada por una prueba'`);
    await ctx.db.execute(sql`create function zz_refuse() returns trigger language plpgsql as
      $$ begin raise exception 'inyectado'; end $$`);
    await ctx.db.execute(sql`create trigger zz_refuse before insert on clients
      for each row execute function zz_refuse()`);
    const changed = await stateOf();
    expect(changed.rows).toBeGreaterThan(seeded.rows);
    expect(changed.auditRows).toBeGreaterThan(seeded.auditRows);
    expect(changed.name).toBe('Cambiada por una prueba');
  });

  it('the next test finds the database as the migrations left it', async () => {
    expect(await stateOf()).toEqual(seeded);
    // The injected trigger is gone: a client can be created again.
    await createClient(ctx.db);
  });

  // The reset skips its schema checks while the catalogs show no DDL since the last check: every kind
  // of change a test could leave must show.
  it('sees any DDL in the catalogs since a mark, and none for rows, sequences or a vacuum', async () => {
    const connection: ResetConnection = {
      rows: (text) => queryRows(ctx.db, sql.raw(text)),
      inTransaction: () => Promise.reject(new Error('not used')),
      exec: () => Promise.reject(new Error('not used')),
    };
    // Through the plain database (outside a transaction, for VACUUM); the audited insert as 'sistema'.
    const touchedBy = async (statement: string, executor = ctx.appDb) => {
      const mark = await catalogMark(connection);
      await executor.execute(sql.raw(statement));
      return catalogsTouchedSince(connection, mark);
    };
    expect(
      await touchedBy(`insert into holidays (day, name) values ('2031-01-01', 'Año Nuevo')`, ctx.db),
    ).toBe(false);
    expect(await touchedBy(`select setval('audit_log_id_seq', 5000)`)).toBe(false);
    expect(await touchedBy('vacuum holidays')).toBe(false);
    expect(await touchedBy('create index zz_holidays_name on holidays (name)')).toBe(true);
    expect(await touchedBy('alter index zz_holidays_name rename to zz_holidays_name_2')).toBe(true);
    expect(await touchedBy('drop index zz_holidays_name_2')).toBe(true);
    expect(await touchedBy('alter table holidays add column zz_note text')).toBe(true);
    expect(await touchedBy('alter table holidays alter column zz_note type varchar(20)')).toBe(true);
    expect(await touchedBy('alter table holidays drop column zz_note')).toBe(true);
    expect(await touchedBy('create view zz_days as select day from holidays')).toBe(true);
    expect(await touchedBy('drop view zz_days')).toBe(true);
    expect(await touchedBy(`create function zz_f() returns int language sql as 'select 1'`)).toBe(true);
    expect(await touchedBy(`create or replace function zz_f() returns int language sql as 'select 2'`)).toBe(
      true,
    );
    expect(await touchedBy('drop function zz_f()')).toBe(true);
  });
});

// A worker's test files share its database (database.ts): each file finds it as a new one would be,
// and a file that changed the schema leaves the next one a new database rather than a different one.
describe("the worker's database across test files", () => {
  const identity = async (db: Database) => {
    const [row] = await queryRows<{ id: string }>(
      db,
      // PostgreSQL: the worker's own database; PGlite: the instance, by its start.
      sql`select current_database() || ' ' || pg_postmaster_start_time()::text as id`,
    );
    return row!.id;
  };

  it('is the same database for the next file, put back as the migrations left it', async () => {
    const first = await openTestDatabaseSource();
    const db = systemDatabase((await first.create()).db);
    await createClient(db);
    const id = await identity(db);
    await first.close();

    const next = await openTestDatabaseSource();
    const nextDb = systemDatabase((await next.create()).db);
    expect(await identity(nextDb)).toBe(id);
    const [row] = await queryRows<{ clients: number }>(
      nextDb,
      sql`select count(*)::int as clients from clients`,
    );
    expect(row!.clients).toBe(0);
    await next.close();
  });

  it('is retired when a file changed the schema: that file is told, the next file gets a new database', async () => {
    const changing = await openTestDatabaseSource();
    const db = systemDatabase((await changing.create()).db);
    const id = await identity(db);
    await db.execute(sql`create table zz_left_behind (id int)`);
    await expect(changing.create()).rejects.toThrow(/changed the schema/);
    await changing.close();

    const next = await openTestDatabaseSource();
    const nextDb = systemDatabase((await next.create()).db);
    expect(await identity(nextDb)).not.toBe(id);
    const [row] = await queryRows<{ tables: number }>(
      nextDb,
      sql`select count(*)::int as tables from pg_tables where tablename = 'zz_left_behind'`,
    );
    expect(row!.tables).toBe(0);
    await next.close();
  });
});
