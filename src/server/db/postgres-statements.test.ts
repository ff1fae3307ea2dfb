import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresTestDatabase, testDatabaseUrl } from '../test/database';
import { describeOnPostgres } from '../test/engine';
import { drizzleFor, postgresPool, queryRows } from './client';
import { PLANNED_PER_RUN } from './planned-per-run';
import { nameStatements } from './postgres-statements';

/** The statements this connection holds by name (PostgreSQL's own list), oldest first. */
async function prepared(client: pg.Client): Promise<{ name: string; statement: string }[]> {
  const { rows } = await client.query<{ name: string; statement: string }>(
    'select name, statement from pg_prepared_statements order by prepare_time, name',
  );
  return rows;
}

const TABLE = `
  create table items (id int primary key, name text not null, price numeric(12, 2), at timestamptz);
  insert into items values (1, 'uno', 10.50, '2026-11-20T12:00:00Z'), (2, 'dos', null, null);`;

// The engine's own behaviour: only where PostgreSQL is the database under test.
describeOnPostgres(
  'nameStatements: PostgreSQL parses and plans a statement once per connection (decision 0047)',
  () => {
    let database: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
    let client: pg.Client;
    let plain: pg.Client;

    beforeAll(async () => {
      database = await createPostgresTestDatabase(testDatabaseUrl()!);
      plain = new pg.Client({ connectionString: database.url });
      await plain.connect();
      await plain.query(TABLE);
      client = new pg.Client({ connectionString: database.url });
      await client.connect();
      nameStatements(client, { maxStatements: 4 });
    });
    afterAll(async () => {
      await client?.end();
      await plain?.end();
      await database?.drop();
    });

    it('answers a named statement as an unnamed one, in both row modes, reads and writes', async () => {
      const text = 'select id, name, price, at from items where id = any($1::int[]) order by id';
      const asObjects = await plain.query(text, [[1, 2]]);
      const asArrays = await plain.query({ text, rowMode: 'array' }, [[1, 2]]);
      for (let run = 0; run < 7; run++) {
        // Drizzle's shape (a config, values apart) in both row modes, and a plain text.
        expect((await client.query({ text }, [[1, 2]])).rows).toEqual(asObjects.rows);
        const arrays = await client.query({ text, rowMode: 'array' }, [[1, 2]]);
        expect(arrays.rows).toEqual(asArrays.rows);
        expect(arrays.fields.map((field) => field.name)).toEqual(asArrays.fields.map((field) => field.name));
        expect((await client.query(text, [[1, 2]])).rows).toEqual(asObjects.rows);
      }
      // node-postgres's callback form (the pool's own queries use it).
      const byCallback = await new Promise((resolve, reject) =>
        client.query(text, [[1, 2]], (error, result) => (error ? reject(error) : resolve(result.rows))),
      );
      expect(byCallback).toEqual(asObjects.rows);
      const written = await client.query('update items set name = $1 where id = $2', ['UNO', 1]);
      expect(written.rowCount).toBe(1);
      expect((await plain.query('select name from items where id = 1')).rows).toEqual([{ name: 'UNO' }]);
      expect((await prepared(client)).map((row) => row.name)).toEqual(['n1', 'n2']);
    });

    it('names data statements with parameters only, each text once, the first ones up to its limit', async () => {
      // Without parameters (the simple protocol, which allows several statements in one text) and
      // anything but a data statement stay unnamed.
      await client.query('select count(*) from items');
      await client.query('select 1; select 2');
      await client.query({ text: 'show search_path' });
      await client.query("select set_config('application_name', $1, false)", ['pruebas']);
      // A statement marked to be planned at each run (a report's date range).
      const ranged = sql`select id from items where ${PLANNED_PER_RUN} id >= ${1}`;
      const { sql: rangedText, params } = new PgDialect().sqlToQuery(ranged);
      for (let run = 0; run < 2; run++) expect((await client.query(rangedText, params)).rows).toHaveLength(2);
      const before = await prepared(client);
      expect(before.map((row) => row.name)).toEqual(['n1', 'n2', 'n3']);
      expect(before[2]!.statement).toContain('set_config');

      const texts = ['a', 'b', 'c'].map((alias) => `select id as ${alias} from items where id = $1`);
      for (const text of texts) {
        for (let run = 0; run < 2; run++) expect((await client.query(text, [2])).rows).toHaveLength(1);
      }
      // Four at most: the fifth and sixth texts answer, unnamed.
      const after = await prepared(client);
      expect(after.map((row) => row.name)).toEqual(['n1', 'n2', 'n3', 'n4']);
      expect(after[3]!.statement).toBe(texts[0]);
    });

    it('keeps the connection usable after a statement fails, and fails the same way again', async () => {
      const insert = 'insert into items (id, name) values ($1, $2)';
      const fresh = new pg.Client({ connectionString: database.url });
      await fresh.connect();
      nameStatements(fresh);
      try {
        await fresh.query(insert, [10, 'diez']);
        for (let run = 0; run < 2; run++) {
          await expect(fresh.query(insert, [10, 'otra vez'])).rejects.toMatchObject({
            code: '23505',
            constraint: 'items_pkey',
          });
        }
        // A parameter the server refuses at Bind (after the Parse went through), then a good one.
        const byId = 'select name from items where id = $1';
        await expect(fresh.query(byId, ['no es un número'])).rejects.toMatchObject({ code: '22P02' });
        expect((await fresh.query(byId, [10])).rows).toEqual([{ name: 'diez' }]);
        // A syntax error is reported at each run, never as a statement that does not exist.
        for (let run = 0; run < 2; run++) {
          await expect(fresh.query('select nme from items where id = $1', [1])).rejects.toMatchObject({
            code: '42703',
          });
        }
        // Inside a transaction that fails and rolls back: the next statements run.
        await fresh.query('begin');
        await expect(fresh.query(insert, [10, 'repetido'])).rejects.toMatchObject({ code: '23505' });
        await fresh.query('rollback');
        expect((await fresh.query(byId, [10])).rows).toEqual([{ name: 'diez' }]);
      } finally {
        await fresh.end();
      }
    });

    it("prepares a statement again under a new name once its table's shape changed", async () => {
      const fresh = new pg.Client({ connectionString: database.url });
      await fresh.connect();
      nameStatements(fresh);
      try {
        const all = 'select * from items where id = $1';
        expect((await fresh.query(all, [2])).fields).toHaveLength(4);
        // Another instance's migration gives the table a column.
        await plain.query('alter table items add column note text');
        await expect(fresh.query(all, [2])).rejects.toMatchObject({ code: '0A000' });
        const again = await fresh.query(all, [2]);
        expect(again.fields.map((field) => field.name)).toContain('note');
      } finally {
        await fresh.end();
        await plain.query('alter table items drop column note');
      }
    });

    it("is what the server's pool does: Drizzle's statements and raw SQL are named on its connections", async () => {
      const pool = postgresPool(database.url, 1);
      try {
        const db = drizzleFor(pool);
        for (let run = 0; run < 3; run++) {
          const rows = await queryRows<{ name: string }>(db, sql`select name from items where id = ${2}`);
          expect(rows).toEqual([{ name: 'dos' }]);
        }
        const { rows } = await pool.query<{ name: string; statement: string }>(
          'select name, statement from pg_prepared_statements',
        );
        expect(rows).toEqual([{ name: 'n1', statement: 'select name from items where id = $1' }]);
      } finally {
        await pool.end();
      }
    });
  },
);
