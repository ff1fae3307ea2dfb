import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv, readDotEnv } from '../env';
import { projectRoot } from '../paths';
import { pgliteTemplate } from '../test/database';
import { createPglite } from './client';
import { NoDatabaseError, requireDataDirectory, requireEmbeddedDatabase } from './existing-database';

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'inmoflujo-nodb-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * One of the command-line tools, run as `npm run …` runs it but from `cwd` (where its `.env` is read):
 * its exit code and what it printed.
 */
async function tool(script: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const loader = join(projectRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs');
  const outcome = await run(
    process.execPath,
    ['--import', loader, join(projectRoot, 'scripts', script), ...args],
    {
      cwd,
      // Nothing of this process's own settings: what the tool reads is `.env` and `env`.
      env: { PATH: process.env.PATH ?? '', ...env },
    },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  );
  return outcome;
}

describe('the tools that need an existing embedded database', () => {
  it('refuse a data directory without one, creating nothing, and accept one that holds it', async () => {
    const missing = join(scratch, 'no-existe');
    expect(() => requireEmbeddedDatabase(missing)).toThrow(NoDatabaseError);
    expect(() => requireEmbeddedDatabase(missing)).toThrow(`No hay una base de datos en ${missing}`);
    expect(() => requireDataDirectory(missing)).toThrow(`No hay una base de datos en ${missing}`);
    expect(existsSync(missing)).toBe(false);
    // An empty directory is a place to restore into, not a database to back up.
    const empty = mkdtempSync(join(scratch, 'vacio-'));
    expect(() => requireEmbeddedDatabase(empty)).toThrow(NoDatabaseError);
    expect(() => requireDataDirectory(empty)).not.toThrow();
    const holding = mkdtempSync(join(scratch, 'con-base-'));
    const client = await createPglite({ dataDir: join(holding, 'db'), loadDataDir: await pgliteTemplate() });
    await client.close();
    expect(() => requireEmbeddedDatabase(holding)).not.toThrow();
  }, 60_000);

  it('npm run backup, import and restore say so and exit 1, with DATA_DIR read from .env', async () => {
    const project = mkdtempSync(join(scratch, 'proyecto-'));
    writeFileSync(join(project, '.env'), '# a mistyped directory\nDATA_DIR=./dato\n');
    const csv = join(project, 'clientes.csv');
    writeFileSync(csv, 'RUT,Nombre\n');
    const [backup, imported, restored] = await Promise.all([
      tool('backup.ts', [], project),
      tool('import.ts', ['clientes', csv], project),
      tool('restore.ts', [join(project, 'respaldo.backup')], project),
    ]);
    const where = join(project, 'dato');
    for (const outcome of [backup, imported, restored]) {
      expect(outcome.code, outcome.output).toBe(1);
      expect(outcome.output).toContain(`No hay una base de datos en ${where}`);
    }
    expect(existsSync(where)).toBe(false);
  }, 120_000);
});

describe('.env', () => {
  it('is read into the environment when present; what the environment sets wins, even empty', () => {
    const file = join(scratch, 'ajustes.env');
    writeFileSync(
      file,
      'INMOFLUJO_TEST_FROM_FILE=archivo\nINMOFLUJO_TEST_SET=archivo\nINMOFLUJO_TEST_EMPTY=archivo\n',
    );
    process.env.INMOFLUJO_TEST_SET = 'entorno';
    process.env.INMOFLUJO_TEST_EMPTY = '';
    try {
      expect(readDotEnv(join(scratch, 'no-hay.env'))).toBe(false);
      expect(readDotEnv(file)).toBe(true);
      expect(process.env.INMOFLUJO_TEST_FROM_FILE).toBe('archivo');
      expect(process.env.INMOFLUJO_TEST_SET).toBe('entorno');
      expect(process.env.INMOFLUJO_TEST_EMPTY).toBe('');
    } finally {
      delete process.env.INMOFLUJO_TEST_FROM_FILE;
      delete process.env.INMOFLUJO_TEST_SET;
      delete process.env.INMOFLUJO_TEST_EMPTY;
    }
    // A record given to loadEnv is taken as it is (the app's defaults, a test's settings).
    expect(loadEnv({ DATA_DIR: '/srv/inmoflujo' }).DATA_DIR).toBe('/srv/inmoflujo');
  });
});
