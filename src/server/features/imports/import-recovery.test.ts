import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { buildIsFresh } from '../../../../scripts/build-if-needed.mjs';
import { SERVER_NODE_OPTIONS } from '../../../../scripts/server-process';
import { rutCheckDigit } from '../../../shared/domain/rut';
import { projectRoot } from '../../paths';
import { createPostgresTestDatabase, testDatabaseUrl } from '../../test/database';
import { describeOnPostgres } from '../../test/engine';
import { IMPORT_BODY_TYPE } from './imports.routes';

// Issue 57: after a `kill -9` of the instance applying an import, the instance that survives rolls the
// abandoned import back by itself (its recovery timer, main.ts), neither waiting for a restart nor for
// the next import. Two real server processes on one PostgreSQL database (the embedded database belongs
// to one process), so this runs in the PostgreSQL run of the suite (TEST_DATABASE_URL).

const ROWS = 30_000;

interface Instance {
  child: ChildProcess;
  base: string;
  exited: Promise<number | null>;
}

const url = testDatabaseUrl();
describeOnPostgres('an import abandoned by a killed instance (two instances)', () => {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** `npm start`'s server process: the build when it is fresh, else the sources through tsx. */
  function startInstance(databaseUrl: string, port: number): Instance {
    const entry = buildIsFresh() ? ['dist/server/main.js'] : ['--import', 'tsx', 'src/server/main.ts'];
    // Each instance its own files directory, as two machines would have.
    const dataDir = mkdtempSync(join(tmpdir(), 'inmoflujo-instance-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, ...entry], {
      cwd: projectRoot,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    cleanups.push(() => child.kill('SIGKILL'));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, base: `http://127.0.0.1:${port}`, exited };
  }

  async function until<T>(what: string, probe: () => Promise<T | undefined>, ceilingMs: number): Promise<T> {
    const deadline = Date.now() + ceilingMs;
    for (;;) {
      const value = await probe().catch(() => undefined);
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ceilingMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const healthy = (instance: Instance) =>
    until(
      `${instance.base} listening`,
      async () => ((await fetch(`${instance.base}/api/health`)).ok ? true : undefined),
      180_000,
    );

  it('is rolled back by the surviving instance on its own, within a minute of the kill', async () => {
    const database = await createPostgresTestDatabase(url!);
    cleanups.push(() => database.drop());
    const port = 4300 + Math.floor(Math.random() * 400);
    const doomed = startInstance(database.url, port);
    const survivor = startInstance(database.url, port + 1);
    await Promise.all([healthy(doomed), healthy(survivor)]);

    // The administrator (the first registration) signs in on the instance that will be killed.
    const send = (instance: Instance, path: string, body: unknown, cookie?: string) =>
      fetch(`${instance.base}${path}`, {
        method: 'POST',
        headers: {
          origin: instance.base,
          ...(cookie ? { cookie } : {}),
          ...(Buffer.isBuffer(body)
            ? { 'content-type': IMPORT_BODY_TYPE }
            : { 'content-type': 'application/json' }),
        },
        body: Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
      });
    const account = {
      firstName: 'Rosa',
      lastName: 'Pérez',
      position: 'Gerenta',
      email: 'rosa@inmoflujo.test',
      password: 'clave-de-rosa',
    };
    expect((await send(doomed, '/api/auth/register', account)).status).toBe(201);
    const login = await send(doomed, '/api/auth/login', {
      email: account.email,
      password: account.password,
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;

    const lines = ['RUT;Nombres;Apellidos;Fecha de nacimiento'];
    for (let n = 0; n < ROWS; n++) {
      const body = String(19_000_000 + n);
      lines.push(`${body}-${rutCheckDigit(body)};Ana;Soto ${n};01/02/1980`);
    }
    const uploaded = await send(
      doomed,
      '/api/imports/files?kind=clients&name=grande.csv',
      Buffer.from(lines.join('\n')),
      cookie,
    );
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const file = (await uploaded.json()) as { runId: string; mapping: unknown; sheetName: string | null };
    const dry = await send(
      doomed,
      `/api/imports/runs/${file.runId}/dry-run`,
      { mapping: file.mapping, sheetName: file.sheetName },
      cookie,
    );
    expect(dry.status).toBe(200);
    const applying = await send(
      doomed,
      `/api/imports/runs/${file.runId}/apply`,
      { mapping: file.mapping },
      cookie,
    );
    expect(applying.status, await applying.clone().text()).toBe(202);

    const runOn = async (instance: Instance) => {
      const answer = await fetch(`${instance.base}/api/imports/runs/${file.runId}`, {
        headers: { cookie },
      });
      return (
        (await answer.json()) as { run: { status: string; processedRows: number; failure: string | null } }
      ).run;
    };
    // Killed mid-apply: some chunks committed, the run 'Aplicando'.
    await until(
      'the apply under way',
      async () => {
        const run = await runOn(doomed);
        return run.status === 'applying' && run.processedRows > 0 ? run : undefined;
      },
      120_000,
    );
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const killedAt = Date.now();

    const direct = new pg.Client({ connectionString: database.url });
    await direct.connect();
    cleanups.push(() => direct.end());
    const imported = async () =>
      Number(
        (await direct.query<{ n: string }>(`select count(*) as n from clients where rut like '19%'`)).rows[0]!
          .n,
      );
    const left = await imported();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(ROWS);
    expect((await runOn(survivor)).status).toBe('applying');

    // The survivor, with no restart and no other import, rolls it back: its timer runs every 60 s.
    const rolledBack = await until(
      'the abandoned import rolled back by the survivor',
      async () => {
        const run = await runOn(survivor);
        return run.status === 'failed' ? run : undefined;
      },
      // The survivor's recovery interval (a minute), plus the rollback itself.
      75_000,
    );
    const waitedMs = Date.now() - killedAt;
    expect(rolledBack.failure).toBe('IMPORT_INTERRUPTED');
    expect(await imported()).toBe(0);
    console.info(`rolled back ${left} imported clients ${waitedMs} ms after the kill`);
  }, 420_000);
});
