import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { santiagoDateOf } from '../../../shared/format';
import { buildApp } from '../../app';
import { createPglite, type Database, drizzleFor, postgresPool, queryRows } from '../../db/client';
import { Agent } from '../../test/app';
import { createClient, createUser, TEST_PASSWORD } from '../../test/builders';
import { createPostgresTestDatabase, preparePgliteTemplate, testDatabaseUrl } from '../../test/database';
import { systemDatabase } from '../../test/system-database';
import { LEDGER_FILE } from './data-requests.service';

/**
 * `npm run suppressions-ledger -- --write DIR | --replay FILE` (decision 0054): the operator's tool for
 * databases whose backups are not the product's (pg_dump, a provider's snapshots). Run as the operator
 * runs it, on the engine under test: a suppression written out of one database, replayed into another
 * that still holds the person (a restored dump), printed, and not replayed twice.
 */

const projectRoot = join(import.meta.dirname, '..', '..', '..', '..');
const HOLDER = {
  rut: '19.347.286-9',
  firstName: 'Eulaliaqz',
  lastName: 'Brzezinskova',
  birthDate: '1984-06-11',
  phone: '+56 9 6314 2785',
  email: 'eulaliaqz.b@buzon-unico.cl',
};

/** A fresh migrated database of the engine under test, and how the script reaches it. */
interface Copy {
  db: Database;
  env: Record<string, string>;
  close(): Promise<void>;
}

const scratch: string[] = [];
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
  for (const path of scratch) rmSync(path, { recursive: true, force: true });
});

async function freshCopy(): Promise<Copy> {
  const url = testDatabaseUrl();
  if (url) {
    const database = await createPostgresTestDatabase(url);
    drops.push(database.drop);
    const pool = postgresPool(database.url, 2);
    return {
      db: drizzleFor(pool),
      env: { DATABASE_URL: database.url },
      close: () => pool.end(),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'inmoflujo-ledger-'));
  scratch.push(dir);
  const template = new Blob([readFileSync(await preparePgliteTemplate())]);
  const client = await createPglite({ dataDir: join(dir, 'db'), loadDataDir: template });
  return { db: drizzleFor(client), env: { DATA_DIR: dir, DATABASE_URL: '' }, close: () => client.close() };
}

/** Runs the script as `npm run suppressions-ledger -- …` would, with the database's settings. */
function runScript(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(projectRoot, 'scripts', 'suppressions-ledger.ts'), ...args],
      { cwd: projectRoot, env: { ...process.env, LOG_LEVEL: 'silent', ...env } },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

async function holderRow(db: Database, id: string) {
  return queryRows<{ firstName: string; rut: string; suppressed: boolean }>(
    db,
    sql`select first_name as "firstName", rut, suppressed_at is not null as suppressed from clients where id = ${id}`,
  );
}

describe('npm run suppressions-ledger (issue 54, decision 0054)', () => {
  it('writes the ledger of one database beside its dumps, and replays it into a restored copy that still holds the person, once', async () => {
    // The live database: the holder suppressed through the screens' API.
    const live = await freshCopy();
    // The restored dump: the same person, from before the suppression.
    const restored = await freshCopy();
    let requestId: string;
    let holderId: string;
    try {
      const app = await buildApp({
        db: live.db,
        serveClient: false,
        env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
      });
      try {
        await app.ready();
        const { email } = await createUser(systemDatabase(live.db), { userType: 'Administrador' });
        const admin = new Agent(app);
        expect((await admin.post('/api/auth/login', { email, password: TEST_PASSWORD })).statusCode).toBe(
          200,
        );
        expect((await admin.post('/api/clients', HOLDER)).statusCode).toBe(201);
        const request = await admin.post('/api/data-requests', {
          kind: 'suppression',
          holderRut: HOLDER.rut,
          receivedDate: santiagoDateOf(new Date()),
        });
        expect(request.statusCode, request.body).toBe(201);
        requestId = request.json().request.id;
        const done = await admin.post(`/api/data-requests/${requestId}/suppress`, {
          confirmation: 'SUPRIMIR',
        });
        expect(done.statusCode, done.body).toBe(200);
      } finally {
        await app.close();
      }
      const { rut: _rut, ...values } = HOLDER;
      holderId = (await createClient(systemDatabase(restored.db), { ...values, rut: HOLDER.rut })).id;
      expect(await holderRow(restored.db, holderId)).toEqual([
        { firstName: HOLDER.firstName, rut: HOLDER.rut, suppressed: false },
      ]);
    } finally {
      await live.close();
      await restored.close();
    }

    // --write: the ledger beside the dumps, with no personal data in it.
    const dumps = mkdtempSync(join(tmpdir(), 'inmoflujo-dumps-'));
    scratch.push(dumps);
    const written = await runScript(['--write', dumps], live.env);
    expect(written.code, written.err).toBe(0);
    const ledgerPath = join(dumps, LEDGER_FILE);
    expect(written.out).toContain(`Registro de supresiones (1) escrito en ${ledgerPath}.`);
    const ledger = readFileSync(ledgerPath, 'utf8');
    expect(ledger).toContain(requestId!);
    for (const value of [HOLDER.rut, '19347286', HOLDER.firstName, HOLDER.lastName, HOLDER.email])
      expect(ledger).not.toContain(value);

    // --replay into the restored copy: the person suppressed again, and said so.
    const replayed = await runScript(['--replay', ledgerPath], restored.env);
    expect(replayed.code, replayed.err).toBe(0);
    expect(replayed.out).toContain('Supresiones repetidas (1):');
    expect(replayed.out).toMatch(new RegExp(`solicitud ${requestId!} del .+: suppressed`));
    // Once: the copy now records it.
    const again = await runScript(['--replay', ledgerPath], restored.env);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('Supresiones repetidas: ninguna (la base de datos ya las tenía todas).');

    const reopened = await reopen(restored.env);
    try {
      const [row] = await holderRow(reopened.db, holderId!);
      expect(row?.suppressed).toBe(true);
      expect(row?.firstName).not.toBe(HOLDER.firstName);
      expect(row?.rut).not.toBe(HOLDER.rut);
    } finally {
      await reopened.close();
    }
  }, 240_000);

  it('refuses a file that is not a ledger, and says how to use it without arguments', async () => {
    const copy = await freshCopy();
    await copy.close();
    const notLedger = join(mkdtempSync(join(tmpdir(), 'inmoflujo-ledger-')), 'otro.json');
    scratch.push(join(notLedger, '..'));
    writeFileSync(notLedger, '{"hola": 1}');
    const refused = await runScript(['--replay', notLedger], copy.env);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`El registro de supresiones ${notLedger} no tiene el formato esperado.`);
    expect(refused.out).not.toContain('Supresiones repetidas');
    const usage = await runScript([], copy.env);
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('npm run suppressions-ledger -- --write CARPETA | --replay ARCHIVO');
  }, 120_000);
});

/** The copy opened again after the script (which held it meanwhile). */
async function reopen(env: Record<string, string>): Promise<{ db: Database; close(): Promise<void> }> {
  if (env.DATABASE_URL) {
    const pool = postgresPool(env.DATABASE_URL, 1);
    return { db: drizzleFor(pool), close: () => pool.end() };
  }
  const client = await createPglite({ dataDir: join(env.DATA_DIR!, 'db') });
  return { db: drizzleFor(client), close: () => client.close() };
}
