import { PGlite, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keepStatements } from './pglite-statements';
import { PLANNED_PER_RUN_TEXT } from './planned-per-run';

/** Named statements the instance holds (PostgreSQL's own list). */
async function preparedCount(client: PGlite): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_prepared_statements where name like 'k%'`,
  );
  // The count's own statement is one of them.
  return rows[0]!.n;
}

describe('keepStatements: the embedded database parses and plans a statement once (decision 0044)', () => {
  let client: PGlite;
  let now = 0;
  beforeAll(async () => {
    client = await PGlite.create();
    keepStatements(client, { maxStatements: 5, clock: () => now });
    await client.exec(`
      create table items (id int primary key, name text not null, price numeric(12, 2), at timestamptz);
      insert into items values (1, 'uno', 10.50, '2026-11-20T12:00:00Z'), (2, 'dos', null, null);`);
  });
  afterAll(() => client.close());

  it('answers a kept statement as PGlite itself does, with parameters, types, row modes and parsers', async () => {
    const text = 'select id, name, price, at from items where id = any($1::int[]) order by id';
    const plain = await PGlite.create();
    await plain.exec(`
      create table items (id int primary key, name text not null, price numeric(12, 2), at timestamptz);
      insert into items values (1, 'uno', 10.50, '2026-11-20T12:00:00Z'), (2, 'dos', null, null);`);
    // A query's own parsers (as Drizzle gives) over the instance's: the timestamp by the query's, the
    // numeric still by the instance's.
    const parsers = { [types.TIMESTAMPTZ]: (value: string) => `a las ${value}` };
    for (const options of [
      undefined,
      { rowMode: 'array' as const },
      { parsers },
      { rowMode: 'array' as const, parsers },
    ]) {
      const expected = await plain.query(text, [[1, 2]], options);
      for (let run = 0; run < 7; run++) {
        const answer = await client.query(text, [[1, 2]], options);
        expect(answer.rows).toEqual(expected.rows);
        expect(answer.fields).toEqual(expected.fields);
      }
    }
    const written = await client.query('update items set name = $1 where id = $2', ['UNO', 1]);
    expect(written.affectedRows).toBe(1);
    expect((await client.query('select name from items where id = $1', [1])).rows).toEqual([{ name: 'UNO' }]);
    await plain.close();
  });

  it('keeps each text once, and closes the least recently used past its limit', async () => {
    const texts = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(
      (alias) => `select id as ${alias} from items where id = $1`,
    );
    for (const text of texts) await client.query(text, [1]);
    // Five kept at most: the oldest is closed as the next one is prepared.
    await client.query('select count(*) from items where id > $1', [0]);
    expect(await preparedCount(client)).toBeLessThanOrEqual(5);
    expect(await preparedCount(client)).toBeGreaterThan(0);
    for (const text of texts) expect((await client.query(text, [2])).rows).toHaveLength(1);
  });

  it('plans a statement marked planned per run at each run, unkept, with the same answers', async () => {
    await client.exec('deallocate all');
    const marked = `select id from items where ${PLANNED_PER_RUN_TEXT} name like $1 order by id`;
    const unmarked = 'select id from items where name like $1 order by id';
    for (let run = 0; run < 7; run++) {
      expect((await client.query(marked, ['%o%'])).rows).toEqual([{ id: 2 }]);
      expect((await client.query(unmarked, ['%o%'])).rows).toEqual([{ id: 2 }]);
    }
    const { rows } = await client.query<{ statement: string }>(
      `select statement from pg_prepared_statements where name like 'k%'`,
    );
    const statements = rows.map((row) => row.statement);
    expect(statements).toContain(unmarked);
    expect(statements.some((statement) => statement.includes(PLANNED_PER_RUN_TEXT))).toBe(false);
  });

  it('stores bytes as they are (a binary parameter), as PGlite itself stores them', async () => {
    const bytes = Buffer.from([0x00, 0x01, 0x5c, 0x78, 0x7f, 0x80, 0xff, 0x27]);
    const plain = await PGlite.create();
    // Never written as hex text by PGlite's bytea serializer (a byte at a time in JavaScript).
    const hexWriter = vi.spyOn(client.serializers, types.BYTEA);
    for (const database of [client, plain]) {
      await database.exec('create table blobs (id int primary key, data bytea not null)');
      for (let id = 1; id <= 3; id++) {
        await database.query('insert into blobs (id, data) values ($1, $2)', [id, bytes.subarray(0, id * 2)]);
      }
    }
    expect(hexWriter).not.toHaveBeenCalled();
    hexWriter.mockRestore();
    const text = `select id, encode(data, 'hex') as hex, data from blobs order by id`;
    const expected = await plain.query(text);
    expect((await client.query(text)).rows).toEqual(expected.rows);
    expect((await client.query<{ hex: string }>(text)).rows.map((row) => row.hex)).toEqual([
      '0001',
      '00015c78',
      '00015c787f80',
    ]);
    await plain.close();
  });

  it('reports a failing statement with its code and constraint, and the transaction rolls back', async () => {
    const insert = 'insert into items (id, name) values ($1, $2)';
    const failure = await client.query(insert, [1, 'otra']).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: '23505', constraint: 'items_pkey', query: insert });
    await expect(
      client.transaction(async (tx) => {
        await tx.query(insert, [3, 'tres']);
        await tx.query(insert, [1, 'repetida']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await client.query('select id from items where id = $1', [3])).rows).toEqual([]);
    // The statement is still kept and usable after the failures.
    await client.query(insert, [4, 'cuatro']);
    expect((await client.query('select name from items where id = $1', [4])).rows).toEqual([
      { name: 'cuatro' },
    ]);
  });

  it('forgets its statements when the schema changes, so a `select *` shows the new column', async () => {
    const text = 'select * from items where id = $1';
    expect(Object.keys((await client.query<object>(text, [2])).rows[0]!)).toEqual([
      'id',
      'name',
      'price',
      'at',
    ]);
    await client.query('alter table items add column floor int');
    expect(Object.keys((await client.query<object>(text, [2])).rows[0]!)).toEqual([
      'id',
      'name',
      'price',
      'at',
      'floor',
    ]);
    await client.exec('alter table items drop column floor');
    expect(Object.keys((await client.query<object>(text, [2])).rows[0]!)).toEqual([
      'id',
      'name',
      'price',
      'at',
    ]);
  });

  it('prepares a statement again after an ANALYZE, and once it is older than ten minutes', async () => {
    const text = 'select name from items where id = $1 and name is not null';
    const nameOf = async () =>
      (
        await client.query<{ name: string }>(`select name from pg_prepared_statements where statement = $1`, [
          text,
        ])
      ).rows[0]?.name;
    await client.query(text, [2]);
    const first = await nameOf();
    await client.query(text, [2]);
    expect(await nameOf()).toBe(first);
    await client.exec('analyze items');
    await client.query(text, [2]);
    const afterAnalyze = await nameOf();
    expect(afterAnalyze).toBeDefined();
    expect(afterAnalyze).not.toBe(first);
    now += 9 * 60_000;
    await client.query(text, [2]);
    expect(await nameOf()).toBe(afterAnalyze);
    now += 2 * 60_000;
    await client.query(text, [2]);
    expect(await nameOf()).not.toBe(afterAnalyze);
  });
});
