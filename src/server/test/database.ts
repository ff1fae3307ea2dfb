import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import {
  createPglite,
  type DatabaseHandle,
  migratePglite,
  migratePostgres,
  pgliteHandle,
  postgresHandle,
  postgresPool,
} from '../db/client';
import { migrationsFolder, projectRoot } from '../paths';
import {
  type Baseline,
  type CatalogMark,
  captureBaseline,
  catalogMark,
  catalogsTouchedSince,
  pgliteConnection,
  postgresConnection,
  type ResetConnection,
  restoreBaseline,
  shapeChange,
} from './baseline';

/**
 * Test databases, one per test file, put back to the migrations' state before each test
 * (`baseline.ts`): tests never share rows. On PGlite: an instance from the run's migrated template
 * (a data-directory dump). On PostgreSQL (TEST_DATABASE_URL): a copy of the run's migrated template
 * database (CREATE DATABASE ... TEMPLATE), dropped when the file ends.
 */
// One template per checkout: two worktrees running the PostgreSQL suite at once never drop each
// other's template.
export const TEMPLATE_DATABASE = `inmoflujo_tpl_${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 10)}`;

export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * Copies the template. Two workers copying at the same instant can meet PostgreSQL's
 * "source database is being accessed by other users" (55006): wait a moment and try again.
 */
async function createFromTemplate(url: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(url, `create database ${name} template ${TEMPLATE_DATABASE}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/** Vitest global setup for PostgreSQL runs: (re)creates and migrates the template database. */
export async function prepareTemplateDatabase(url: string): Promise<void> {
  await adminQuery(url, `drop database if exists ${TEMPLATE_DATABASE} with (force)`);
  await adminQuery(url, `create database ${TEMPLATE_DATABASE}`);
  const pool = postgresPool(withDatabase(url, TEMPLATE_DATABASE), 1);
  try {
    await migratePostgres(pool);
  } finally {
    await pool.end();
  }
}

/**
 * Drops the PostgreSQL databases the workers of this checkout's runs left (the global set-up's
 * teardown; and at its start, for a run that was killed before its teardown).
 */
export async function dropWorkerDatabases(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select datname as name from pg_database where starts_with(datname, $1)`,
      [WORKER_DATABASE_PREFIX],
    );
    for (const { name } of rows) await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}

export interface TestDatabaseSource {
  /** A fresh, migrated, empty database for one test. */
  create(): Promise<DatabaseHandle>;
  close(): Promise<void>;
}

/**
 * A fresh migrated PostgreSQL database of its own (a copy of the run's template) and its URL, for a
 * test that opens several connections to one database (two server instances); `drop` removes it.
 */
export async function createPostgresTestDatabase(
  url: string,
  name = `inmoflujo_t_${randomBytes(6).toString('hex')}`,
): Promise<{ url: string; drop(): Promise<void> }> {
  await createFromTemplate(url, name);
  return {
    url: withDatabase(url, name),
    drop: () => adminQuery(url, `drop database if exists ${name} with (force)`),
  };
}

/**
 * The worker's database, shared by the test files it runs (the API project runs with `isolate: false`,
 * so this module's state outlives a file): opening one per file cost ~4 s of CPU on PGlite (the WASM
 * started, the template's data directory loaded, the baseline read) and a CREATE DATABASE … TEMPLATE
 * on PostgreSQL, ~50 times a run per engine (decision 0038). It is put back before every test as before, so a file
 * sees what a new database would show; a reset that fails (a test changed the schema) retires it, and
 * the next file opens a new one. A file's `close` leaves it open for the next file; the worker's exit
 * ends it (PostgreSQL's is dropped by the global set-up's teardown, `dropWorkerDatabases`).
 */
let workerSource: Promise<TestDatabaseSource> | null = null;

export async function openTestDatabaseSource(): Promise<TestDatabaseSource> {
  workerSource ??= openWorkerSource();
  const opening = workerSource;
  const source = await opening;
  return {
    async create() {
      try {
        return await source.create();
      } catch (error) {
        // Not shared any more: the file that met the failure keeps it; the next file starts afresh.
        if (workerSource === opening) workerSource = null;
        throw error;
      }
    },
    async close() {
      if (workerSource !== opening) await source.close();
    },
  };
}

/** The worker's databases on PostgreSQL are named after the run's template and the worker's process. */
const WORKER_DATABASE_PREFIX = `${TEMPLATE_DATABASE}_w`;

async function openWorkerSource(): Promise<TestDatabaseSource> {
  const url = testDatabaseUrl();
  if (url) {
    const database = await createPostgresTestDatabase(
      url,
      `${WORKER_DATABASE_PREFIX}${process.pid}_${randomBytes(3).toString('hex')}`,
    );
    const pool = postgresPool(database.url, 4);
    // The reset's own connection: the tests' pool may be busy closing what a test left.
    const resetClient = new pg.Client({ connectionString: database.url });
    await resetClient.connect();
    const reset = resettable(
      postgresConnection(resetClient),
      await captureBaseline(postgresConnection(resetClient)),
    );
    return {
      async create() {
        await reset();
        // A new Drizzle object per test: caches keyed by the database (the builders' admin) start empty.
        return { ...postgresHandle(pool), close: async () => {} };
      },
      async close() {
        await resetClient.end();
        await pool.end();
        await database.drop();
      },
    };
  }
  // PGlite's own clone() forgets the type parsers, so the instance is made from the template's data
  // directory with the same options as the server's.
  const instance = await createPglite({ loadDataDir: await pgliteTemplate() });
  const connection = pgliteConnection(instance);
  const reset = resettable(connection, await captureBaseline(connection));
  return {
    async create() {
      await reset();
      return { ...pgliteHandle(instance), close: async () => {} };
    },
    close: () => instance.close(),
  };
}

/** Nothing before the first test; before each later one, the database put back (or a clear failure). */
function resettable(connection: ResetConnection, baseline: Baseline): () => Promise<void> {
  // The catalogs as last checked: while no DDL ran since, the shape is the baseline's (baseline.ts).
  let mark: CatalogMark | null = null;
  return async () => {
    if (mark) {
      const untouched = !(await catalogsTouchedSince(connection, mark));
      if (!untouched) {
        const changed = await shapeChange(connection, baseline);
        if (changed)
          throw new Error(
            `a test changed the schema, which the reset between tests cannot undo:\n${changed}`,
          );
      }
      await restoreBaseline(connection, baseline, untouched);
      if (untouched) return;
    }
    mark = await catalogMark(connection);
  };
}

/**
 * The migrated embedded database as a data-directory dump, made once and kept under .tmp by the hash
 * of the migrations: test files load it instead of migrating (the global setup makes it before they
 * start; a file run on its own makes it when missing).
 */
export async function preparePgliteTemplate(): Promise<string> {
  const path = pgliteTemplatePath();
  if (existsSync(path)) return path;
  const template = await createPglite();
  await migratePglite(template);
  const dump = await template.dumpDataDir('none');
  await template.close();
  mkdirSync(dirname(path), { recursive: true });
  // Written aside, then renamed: two runs starting together never read half a file.
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, path);
  return path;
}

/** The migrated template's data directory, as `createPglite({ loadDataDir })` takes it. */
export async function pgliteTemplate(): Promise<Blob> {
  return new Blob([readFileSync(await preparePgliteTemplate())]);
}

function pgliteTemplatePath(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const path = join(migrationsFolder, name);
    if (statSync(path).isFile()) hash.update(name).update(readFileSync(path));
  }
  return join(projectRoot, '.tmp', 'test-templates', `pglite-${hash.digest('hex').slice(0, 16)}.tar`);
}
