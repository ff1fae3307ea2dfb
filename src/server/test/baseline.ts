import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * A migrated database put back, between tests, to the state its migrations left — instead of a new
 * database per test (PGlite: ≈2 s to start the WASM and load the data directory; PostgreSQL: a
 * CREATE DATABASE … TEMPLATE and a DROP, ≈0.3-1 s each on this machine). Both engines, one file's
 * database for all its tests. What a test may leave behind, and how it goes:
 * - rows in any table (the seeded workflows too, and the append-only audit log): the tables that
 *   hold rows are emptied with DELETE, triggers off (`session_replication_role = replica`, so the
 *   log's refusals and the foreign keys do not fire) — DELETE, not TRUNCATE: truncating every table
 *   made new files for each table and index and was most of a reset — then the rows the migrations
 *   wrote are inserted again, ids included; a table that held many rows is vacuumed after;
 * - sequences and identities: set back to their values;
 * - functions and triggers a test made to inject a failure: dropped.
 * Anything else a test would change (a table, an index, a setting) is not put back: `shapeChange`
 * says so, and the test helper fails the next test instead of letting it run on a different database.
 */
export interface Baseline {
  tables: string[];
  /** Seeded rows per table, as JSON, with the columns that can be written back (not generated). */
  rows: { table: string; columns: string[]; json: string; hasIdentityAlways: boolean }[];
  sequences: { name: string; value: string; isCalled: boolean }[];
  functions: Set<string>;
  triggers: Set<string>;
  /** The schema's shape (tables, columns, indexes, views): what a reset cannot undo. */
  shape: string;
}

/** One connection of either engine, as a reset uses it. */
export interface ResetConnection {
  rows<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** The statements in order, in one transaction. */
  inTransaction(statements: readonly { text: string; params?: unknown[] }[]): Promise<void>;
  /** A statement outside any transaction (VACUUM). */
  exec(text: string): Promise<void>;
}

export function pgliteConnection(client: PGlite): ResetConnection {
  return {
    rows: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
    inTransaction: (statements) =>
      client.transaction(async (tx) => {
        for (const { text, params } of statements) await tx.query(text, params);
      }),
    exec: async (text) => {
      await client.exec(text);
    },
  };
}

export function postgresConnection(client: pg.Client): ResetConnection {
  return {
    rows: async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[],
    async inTransaction(statements) {
      await client.query('begin');
      try {
        for (const { text, params } of statements) await client.query(text, params);
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw error;
      }
    },
    exec: async (text) => {
      await client.query(text);
    },
  };
}

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/** Rows past which an emptied table is vacuumed: its dead rows would slow the file's later tests. */
const MANY_ROWS = 1_000;

async function userFunctions(connection: ResetConnection): Promise<Set<string>> {
  const rows = await connection.rows<{ signature: string }>(
    `select p.oid::regprocedure::text as signature
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
  );
  return new Set(rows.map((row) => row.signature));
}

async function userTriggers(connection: ResetConnection): Promise<Set<string>> {
  const rows = await connection.rows<{ name: string }>(
    `select quote_ident(t.tgname) || ' on ' || t.tgrelid::regclass::text as name
       from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and not t.tgisinternal`,
  );
  return new Set(rows.map((row) => row.name));
}

async function shapeOf(connection: ResetConnection): Promise<string> {
  const rows = await connection.rows<{ shape: string }>(
    `select coalesce(string_agg(item, E'\\n' order by item), '') as shape from (
       select 'column ' || table_name || '.' || column_name || ' ' || data_type as item
         from information_schema.columns where table_schema = 'public'
       union all
       select 'index ' || indexname || ' ' || indexdef from pg_indexes where schemaname = 'public'
       union all
       select 'view ' || table_name from information_schema.views where table_schema = 'public') items`,
  );
  return rows[0]?.shape ?? '';
}

export async function captureBaseline(connection: ResetConnection): Promise<Baseline> {
  const tables = (
    await connection.rows<{ name: string }>(
      `select quote_ident(tablename) as name from pg_tables where schemaname = 'public' order by tablename`,
    )
  ).map((row) => row.name);
  const rows: Baseline['rows'] = [];
  for (const table of tables) {
    const [count] = await connection.rows<{ n: number }>(`select count(*)::int as n from ${table}`);
    if (!count || count.n === 0) continue;
    const columns = await connection.rows<{ name: string; identity: string }>(
      `select a.attname as name, a.attidentity as identity
         from pg_attribute a
        where a.attrelid = '${table}'::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        order by a.attnum`,
    );
    const names = columns.map((column) => quote(column.name));
    const [data] = await connection.rows<{ json: string }>(
      `select json_agg(json_build_object(${columns.map((c) => `'${c.name}', t.${quote(c.name)}`).join(', ')}))::text as json
         from ${table} t`,
    );
    rows.push({
      table,
      columns: names,
      json: data!.json,
      hasIdentityAlways: columns.some((column) => column.identity === 'a'),
    });
  }
  const sequences = await connection.rows<{ name: string; value: string; isCalled: boolean }>(
    `select quote_ident(sequencename) as name, coalesce(last_value, start_value)::text as value,
            last_value is not null as "isCalled"
       from pg_sequences where schemaname = 'public'`,
  );
  return {
    tables,
    rows,
    sequences,
    functions: await userFunctions(connection),
    triggers: await userTriggers(connection),
    shape: await shapeOf(connection),
  };
}

/**
 * The tables holding rows now, and whether many (one statement: each table read up to MANY_ROWS + 1
 * rows, most tests leave a handful of tables with a few rows).
 */
async function tablesWithRows(
  connection: ResetConnection,
  baseline: Baseline,
): Promise<{ name: string; many: boolean }[]> {
  const counts = baseline.tables
    .map(
      (table) =>
        `select '${table.replaceAll("'", "''")}'::text as name, (select count(*) from (select 1 from ${table} limit ${MANY_ROWS + 1}) r)::int as n`,
    )
    .join(' union all ');
  const rows = await connection.rows<{ name: string; n: number }>(
    `select name, n from (${counts}) t where n > 0`,
  );
  return rows.map((row) => ({ name: row.name, many: row.n > MANY_ROWS }));
}

/**
 * Where the catalogs stood at a check: the next transaction id, and how many relations, columns,
 * indexes, triggers and functions there were. Any DDL either writes catalog rows stamped with its
 * transaction (`xmin`: a new index, a changed column, a replaced function) or removes some (a count
 * goes down), so catalogs that show neither since the mark hold the same schema, triggers and
 * functions. Reading the counts and stamps is a few ms; the shape's comparison and the trigger and
 * function scans it spares were ~40 % of a reset's CPU on PGlite.
 */
export interface CatalogMark {
  nextXid: string;
  counts: string;
}

const CATALOGS = ['pg_class', 'pg_attribute', 'pg_index', 'pg_trigger', 'pg_proc'];

const catalogCounts = CATALOGS.map((catalog) => `(select count(*) from ${catalog})`).join(` || '/' || `);

export async function catalogMark(connection: ResetConnection): Promise<CatalogMark> {
  const [mark] = await connection.rows<CatalogMark>(
    `select pg_snapshot_xmax(pg_current_snapshot())::text as "nextXid", ${catalogCounts} as counts`,
  );
  return mark!;
}

/** True when some DDL may have run since `mark` (then the full checks run). */
export async function catalogsTouchedSince(connection: ResetConnection, mark: CatalogMark): Promise<boolean> {
  const nextXid = BigInt(mark.nextXid);
  const stamped = CATALOGS.map(
    (catalog) => `exists (select 1 from ${catalog} where xmin::text::bigint >= ${nextXid})`,
  ).join(' or ');
  const [now] = await connection.rows<{ counts: string; stamped: boolean }>(
    `select ${catalogCounts} as counts, ${stamped} as stamped`,
  );
  return now!.stamped || now!.counts !== mark.counts;
}

/**
 * Puts the database back as `captureBaseline` found it (see `Baseline`); one transaction.
 * `catalogsUntouched`: no DDL ran since the last check (`catalogsTouchedSince`), so there is no
 * injected trigger or function to look for.
 */
export async function restoreBaseline(
  connection: ResetConnection,
  baseline: Baseline,
  catalogsUntouched = false,
): Promise<void> {
  const extraTriggers = catalogsUntouched
    ? []
    : [...(await userTriggers(connection))].filter((name) => !baseline.triggers.has(name));
  const extraFunctions = catalogsUntouched
    ? []
    : [...(await userFunctions(connection))].filter((name) => !baseline.functions.has(name));
  const filled = await tablesWithRows(connection, baseline);
  const seeded = new Set(baseline.rows.map((row) => row.table));
  const emptied = new Set([...filled.map((table) => table.name), ...seeded]);
  await connection.inTransaction([
    ...extraTriggers.map((trigger) => ({ text: `drop trigger if exists ${trigger}` })),
    ...extraFunctions.map((fn) => ({ text: `drop function if exists ${fn} cascade` })),
    { text: 'set local session_replication_role = replica' },
    ...[...emptied].map((table) => ({ text: `delete from ${table}` })),
    ...baseline.rows.map(({ table, columns, json, hasIdentityAlways }) => ({
      text: `insert into ${table} (${columns.join(', ')}) ${hasIdentityAlways ? 'overriding system value' : ''}
             select ${columns.join(', ')} from json_populate_recordset(null::${table}, $1::json)`,
      params: [json],
    })),
    ...baseline.sequences.map((sequence) => ({
      text: 'select setval($1, $2::bigint, $3)',
      params: [sequence.name, sequence.value, sequence.isCalled],
    })),
  ]);
  for (const table of filled) if (table.many) await connection.exec(`vacuum ${table.name}`);
}

/** Null when the schema's shape is the baseline's; otherwise what a test changed that a reset cannot undo. */
export async function shapeChange(connection: ResetConnection, baseline: Baseline): Promise<string | null> {
  const shape = await shapeOf(connection);
  if (shape === baseline.shape) return null;
  const before = new Set(baseline.shape.split('\n'));
  const after = new Set(shape.split('\n'));
  const added = [...after].filter((item) => !before.has(item));
  const removed = [...before].filter((item) => !after.has(item));
  return [...added.map((item) => `+ ${item}`), ...removed.map((item) => `- ${item}`)].join('\n');
}
