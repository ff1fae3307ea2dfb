import { join } from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type AnyColumn, is, type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePgDriver } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite, PgliteSession } from 'drizzle-orm/pglite';
import { migrate as migratePgliteDriver } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { z } from 'zod';
import { migrationsFolder } from '../paths';
import { type DataDirLock, lockDataDir } from './data-dir-lock';
import { keepStatements, STATEMENT_MAX_AGE_MS } from './pglite-statements';
import { nameStatements } from './postgres-statements';
import * as schema from './schema';

export type Schema = typeof schema;
/** The Drizzle database, whichever engine is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema>;
/** Either the database or an open transaction: queries accept both. */
export type Executor = Database | Transaction;

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** The embedded database itself (its backups copy its directory); absent on PostgreSQL. */
  pglite?: PGlite;
  /** Applies the committed migrations in ./drizzle (idempotent). */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

// DATE columns stay 'YYYY-MM-DD' strings (no driver turns them into a UTC midnight that shows as
// the day before in Chile); numerics stay exact strings; bigint counts become numbers on both engines.
// Drizzle's node-postgres session sets its own per-query parsers for dates and timestamps and falls
// back to pg's global ones, so the INT8 rule is global. Raw SQL that returns a timestamp must format
// it with `isoInstant()` (the two drivers return raw timestamps differently).
const identity = (value: string) => value;
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

const pgliteParsers = {
  [pgliteTypes.DATE]: identity,
  [pgliteTypes.NUMERIC]: identity,
  [pgliteTypes.INT8]: (value: string) => Number(value),
};

const pgliteExtensions = { pg_trgm };

/**
 * Planner settings for every session on both engines. The default random_page_cost (4) models
 * spinning disks; our data is in memory (PGlite) or on SSD (production PostgreSQL), where random and
 * sequential reads cost about the same. With the default, a LIMITed count over a partial match looked
 * cheaper as a full-table scan than through its trigram index (decision 0006).
 *
 * No JIT compilation and no parallel plans (PostgreSQL; the embedded database has neither): both
 * start on the planner's cost estimate, and a statement whose estimate is far above what it reads
 * (the broker payments report: estimated 150,000 rows, read 6,400) spent 40 ms compiling to run
 * 26 ms, or ran in parallel over a whole index in 200 ms (decision 0023). Every statement here reads
 * an index's few rows, none long enough to repay a compilation or workers; and PostgreSQL then plans
 * as the embedded database, where the plan tests and the benchmark's targets are checked.
 */
const SESSION_SETTINGS = {
  random_page_cost: '1.1',
  jit: 'off',
  max_parallel_workers_per_gather: '0',
} as const;

export function postgresPool(connectionString: string, max = 10): pg.Pool {
  const options = Object.entries(SESSION_SETTINGS)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  // A connection lasts at most 10 minutes, and with it the statements it keeps by name (decision 0047):
  // their plans follow the tables' growth, as the embedded database's do (STATEMENT_MAX_AGE_MS).
  const pool = new pg.Pool({
    connectionString,
    max,
    options,
    maxLifetimeSeconds: STATEMENT_MAX_AGE_MS / 1000,
  });
  pool.on('connect', (client) => nameStatements(client));
  // An idle connection the server ends (a PostgreSQL restart or failover, a dropped database) is
  // discarded by the pool and the next query opens a new one; unheard, the error would end the process.
  pool.on('error', () => {});
  return pool;
}

/** An embedded database with our extensions, type parsers and session settings. */
export async function createPglite(
  options: { dataDir?: string; loadDataDir?: Blob | File } = {},
): Promise<PGlite> {
  const client = await PGlite.create({ ...options, extensions: pgliteExtensions, parsers: pgliteParsers });
  for (const [name, value] of Object.entries(SESSION_SETTINGS)) await client.exec(`set ${name} = ${value}`);
  keepStatements(client);
  return client;
}

export function drizzleFor(client: PGlite | pg.Pool | pg.PoolClient): Database {
  if (client instanceof PGlite) return drizzlePglite(client, { schema }) as unknown as Database;
  return drizzlePg(client, { schema }) as unknown as Database;
}

// Any constant shared by every instance: servers starting together on one PostgreSQL migrate in turn.
const MIGRATION_LOCK_KEY = 724_113_905;

// Migrations change data as 'sistema' in the audit trail (decision 0024): declared on the migrating
// connection for the migration's length only.
const DECLARE_SYSTEM_ACTOR = "select set_config('inmoflujo.actor', 'sistema', false)";
const FORGET_ACTOR = "select set_config('inmoflujo.actor', '', false)";

export async function migratePglite(client: PGlite): Promise<void> {
  await client.exec(DECLARE_SYSTEM_ACTOR);
  try {
    await migratePgliteDriver(drizzlePglite(client), { migrationsFolder });
  } finally {
    await client.exec(FORGET_ACTOR);
  }
}

export async function migratePostgres(pool: pg.Pool): Promise<void> {
  // The advisory lock belongs to one connection, so the whole migration runs on that connection.
  const connection = await pool.connect();
  try {
    await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await connection.query(DECLARE_SYSTEM_ACTOR);
      await migratePgDriver(drizzlePg(connection), { migrationsFolder });
    } finally {
      await connection.query(FORGET_ACTOR);
      await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    connection.release();
  }
}

export function postgresHandle(pool: pg.Pool): DatabaseHandle {
  return {
    db: drizzleFor(pool),
    kind: 'postgres',
    migrate: () => migratePostgres(pool),
    close: () => pool.end(),
  };
}

export function pgliteHandle(client: PGlite, onClose: () => void = () => {}): DatabaseHandle {
  return {
    db: drizzleFor(client),
    kind: 'pglite',
    pglite: client,
    migrate: () => migratePglite(client),
    async close() {
      try {
        if (!client.closed) await client.close();
      } finally {
        onClose();
      }
    },
  };
}

/** Opens PostgreSQL when a URL is given, otherwise the embedded database in `<dataDir>/db`. */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) return postgresHandle(postgresPool(options.databaseUrl));
  const lock: DataDirLock = await lockDataDir(options.dataDir);
  try {
    const client = await createPglite({ dataDir: join(options.dataDir, 'db') });
    return pgliteHandle(client, () => lock.release());
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * True when `executor` is the embedded database (PGlite): one process, one connection, every
 * answer a turn of the server's own event loop. What is sized or skipped by engine asks this.
 */
export function isEmbedded(executor: Executor): boolean {
  return is(executor._.session, PgliteSession);
}

/** A timestamptz as an ISO-8601 UTC string ('2026-03-01T12:00:00.000Z') in raw SQL, identical on both engines. */
export function isoInstant(column: SQL | AnyColumn): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * Rows of raw SQL are checked against their zod schema everywhere but in production (decision
 * 0036): a renamed or mistyped column fails a test instead of reaching a rule as `undefined`.
 * Production trusts the statements the tests checked.
 */
const checksRows = process.env.NODE_ENV !== 'production';

/** A row that does not match its schema: names the columns that differ. */
export class RowShapeError extends Error {
  constructor(issues: z.core.$ZodIssue[]) {
    super(
      `a raw SQL row does not match its schema: ${issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join('.') || '(row)'}: ${issue.message}`)
        .join('; ')}`,
    );
    this.name = 'RowShapeError';
  }
}

/**
 * Runs a raw SQL statement and returns its rows, on either engine. With `rowSchema` (rows a rule
 * decides on, decision 0036) each row is checked against it outside production; rows that leave as
 * an answer are checked by the route's answer schema instead.
 */
export async function queryRows<T>(executor: Executor, query: SQL, rowSchema?: z.ZodType<T>): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  if (rowSchema && checksRows) for (const row of result.rows) checkRow(rowSchema, row);
  return result.rows;
}

function checkRow<T>(rowSchema: z.ZodType<T>, row: unknown): void {
  const checked = rowSchema.safeParse(row);
  if (!checked.success) throw new RowShapeError(checked.error.issues);
}

/**
 * `queryRows` for many rows or columns. `query` orders its rows itself; `orderBy` says the same
 * order in the query's output columns (`q."alias"`). On the embedded database the rows come back as
 * ONE JSON text (`json_agg(q order by …)`) decoded once: PGlite decodes every column of every row on
 * its own in JavaScript (about 1 µs each: a 2,000-row export chunk of 13 columns cost ~25 ms there,
 * 80 inbox cards of 25 ~2 ms), one text costs one `JSON.parse`. On PostgreSQL the driver decodes rows
 * faster than the server builds JSON (the same chunk: 13 ms as rows, 24 ms as JSON), so `query` runs
 * as it is. The values are the same either way as long as money is selected as text (`::text`: in
 * JSON a numeric would become a float) and instants through `isoInstant()`; integers are numbers,
 * dates 'YYYY-MM-DD', booleans booleans.
 */
export async function queryJsonRows<T>(
  executor: Executor,
  query: SQL,
  orderBy: SQL,
  rowSchema?: z.ZodType<T>,
): Promise<T[]> {
  if (!isEmbedded(executor)) return queryRows<T>(executor, query, rowSchema);
  const [result] = await queryRows(
    executor,
    sql`select json_agg(q order by ${orderBy})::text as rows from (${query}) as q`,
    jsonRowsSchema,
  );
  const rows = result?.rows ? (JSON.parse(result.rows) as T[]) : [];
  if (rowSchema && checksRows) for (const row of rows) checkRow(rowSchema, row);
  return rows;
}

const jsonRowsSchema = z.object({ rows: z.string().nullable() });
