import type { PGlite } from '@electric-sql/pglite';

/**
 * A migrated embedded database put back, between tests, to the state its migrations left — instead of
 * a new instance per test (≈2 s each on this machine: the WASM start and loading the data directory).
 * What a test may leave behind, and how it goes:
 * - rows in any table (the seeded workflows too, and the append-only audit log): every table is
 *   truncated with triggers off (`session_replication_role = replica`, so the log's refusals and the
 *   foreign keys do not fire), then the rows the migrations wrote are inserted again, ids included;
 * - sequences and identities: set back to their values;
 * - functions and triggers a test made to inject a failure: dropped.
 * Anything else a test would change (a table, an index, a setting) is not put back: `verify` says so,
 * and the test helper fails the next test instead of letting it run on a different database.
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

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

async function rowsOf<T>(client: PGlite, text: string): Promise<T[]> {
  return (await client.query<T>(text)).rows;
}

async function userFunctions(client: PGlite): Promise<Set<string>> {
  const rows = await rowsOf<{ signature: string }>(
    client,
    `select p.oid::regprocedure::text as signature
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
  );
  return new Set(rows.map((row) => row.signature));
}

async function userTriggers(client: PGlite): Promise<Set<string>> {
  const rows = await rowsOf<{ name: string }>(
    client,
    `select quote_ident(t.tgname) || ' on ' || t.tgrelid::regclass::text as name
       from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and not t.tgisinternal`,
  );
  return new Set(rows.map((row) => row.name));
}

async function shapeOf(client: PGlite): Promise<string> {
  const rows = await rowsOf<{ shape: string }>(
    client,
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

export async function captureBaseline(client: PGlite): Promise<Baseline> {
  const tables = (
    await rowsOf<{ name: string }>(
      client,
      `select quote_ident(tablename) as name from pg_tables where schemaname = 'public' order by tablename`,
    )
  ).map((row) => row.name);
  const rows: Baseline['rows'] = [];
  for (const table of tables) {
    const [count] = await rowsOf<{ n: number }>(client, `select count(*)::int as n from ${table}`);
    if (!count || count.n === 0) continue;
    const columns = await rowsOf<{ name: string; identity: string }>(
      client,
      `select a.attname as name, a.attidentity as identity
         from pg_attribute a
        where a.attrelid = '${table}'::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        order by a.attnum`,
    );
    const names = columns.map((column) => quote(column.name));
    const [data] = await rowsOf<{ json: string }>(
      client,
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
  const sequences = await rowsOf<{ name: string; value: string; isCalled: boolean }>(
    client,
    `select quote_ident(sequencename) as name, coalesce(last_value, start_value)::text as value,
            last_value is not null as "isCalled"
       from pg_sequences where schemaname = 'public'`,
  );
  return {
    tables,
    rows,
    sequences,
    functions: await userFunctions(client),
    triggers: await userTriggers(client),
    shape: await shapeOf(client),
  };
}

/** Puts the database back as `captureBaseline` found it (see `Baseline`); one transaction. */
export async function restoreBaseline(client: PGlite, baseline: Baseline): Promise<void> {
  const extraTriggers = [...(await userTriggers(client))].filter((name) => !baseline.triggers.has(name));
  const extraFunctions = [...(await userFunctions(client))].filter((name) => !baseline.functions.has(name));
  await client.transaction(async (tx) => {
    for (const trigger of extraTriggers) await tx.exec(`drop trigger if exists ${trigger}`);
    for (const fn of extraFunctions) await tx.exec(`drop function if exists ${fn} cascade`);
    await tx.exec('set local session_replication_role = replica');
    await tx.exec(`truncate table ${baseline.tables.join(', ')} restart identity`);
    for (const { table, columns, json, hasIdentityAlways } of baseline.rows) {
      await tx.query(
        `insert into ${table} (${columns.join(', ')}) ${hasIdentityAlways ? 'overriding system value' : ''}
         select ${columns.join(', ')} from json_populate_recordset(null::${table}, $1::json)`,
        [json],
      );
    }
    for (const sequence of baseline.sequences) {
      await tx.query(`select setval($1, $2::bigint, $3)`, [sequence.name, sequence.value, sequence.isCalled]);
    }
  });
}

/** Null when the schema's shape is the baseline's; otherwise what a test changed that a reset cannot undo. */
export async function shapeChange(client: PGlite, baseline: Baseline): Promise<string | null> {
  const shape = await shapeOf(client);
  if (shape === baseline.shape) return null;
  const before = new Set(baseline.shape.split('\n'));
  const after = new Set(shape.split('\n'));
  const added = [...after].filter((item) => !before.has(item));
  const removed = [...before].filter((item) => !after.has(item));
  return [...added.map((item) => `+ ${item}`), ...removed.map((item) => `- ${item}`)].join('\n');
}
