import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildIsFresh } from '../../scripts/build-if-needed.mjs';
import { SERVER_NODE_OPTIONS } from '../../scripts/server-process';
import { projectRoot } from './paths';

// `npm start`'s supervisor (scripts/supervise.mjs, decision 0051): Node's cluster primary and one
// worker. The supervisor runs in a child process of its own, never in this test's process.
const folder = mkdtempSync(join(tmpdir(), 'inmoflujo-supervisor-'));
const running: ChildProcess[] = [];
const cleanups: (() => void)[] = [];
const SUPERVISE = join(projectRoot, 'scripts/supervise.mjs');

/** Runs `supervise(options)` as a primary process of its own; options are JSON. */
function supervisor(options: Record<string, unknown>, env: Record<string, string> = {}) {
  const code = `import { supervise } from ${JSON.stringify(SUPERVISE)};
process.exit(await supervise(${JSON.stringify(options)}));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
  });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
  return { child, output: () => output, exited };
}

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

afterAll(() => {
  for (const cleanup of cleanups) cleanup();
  rmSync(folder, { recursive: true, force: true });
});

describe('npm start’s supervisor', () => {
  it('starts a worker that dies at once again with back-off, a bounded number of times, then gives up', async () => {
    const starts = join(folder, 'starts.txt');
    const worker = join(folder, 'dies-at-once.mjs');
    writeFileSync(
      worker,
      `import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(starts)}, 'x');
throw new Error('la base de datos no abre');
`,
    );
    const run = supervisor({ exec: worker, execArgv: [], minBackoffMs: 20, maxRestarts: 3 });
    expect(await run.exited).toBe(1);
    // The first start and three restarts: never more, and never a worker starting workers.
    expect(readFileSync(starts, 'utf8')).toBe('xxxx');
    expect(run.output().match(/Error: la base de datos no abre/g)).toHaveLength(4);
    expect(run.output().match(/starting it again in/g)).toHaveLength(3);
    expect(run.output()).toMatch(/giving up/);
  }, 60_000);

  it('refuses to run inside a worker', async () => {
    const worker = join(folder, 'supervises-again.mjs');
    writeFileSync(
      worker,
      `import { supervise } from ${JSON.stringify(SUPERVISE)};
try { supervise({ exec: ${JSON.stringify(worker)} }); } catch (error) { console.error(error.message); process.exit(0); }
`,
    );
    const run = supervisor({ exec: worker, execArgv: [] });
    expect(await run.exited).toBe(0);
    expect(run.output()).toMatch(/runs only in the primary process/);
    expect(run.output()).toMatch(/stopped by itself/);
  }, 60_000);

  it('speaks the words the server says when a restart would not help', () => {
    const words = /DO_NOT_RESTART = '([^']+)'/;
    const server = words.exec(readFileSync(join(projectRoot, 'src/server/main.ts'), 'utf8'))?.[1];
    const own = words.exec(readFileSync(SUPERVISE, 'utf8'))?.[1];
    expect(server).toBe('inmoflujo:do-not-restart');
    expect(own).toBe(server);
  });

  it('serves again after the server dies of a fatal error, with the error logged; stops cleanly', async () => {
    const dataDir = join(folder, 'data');
    const pidFile = join(folder, 'worker.pid');
    // Loaded in each worker only (execArgv): SIGUSR2 makes the server throw an error nobody catches.
    const hook = join(folder, 'fatal-on-signal.mjs');
    writeFileSync(
      hook,
      `import { writeFileSync } from 'node:fs';
writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
process.on('SIGUSR2', () => setImmediate(() => { throw new Error('fallo fatal de prueba'); }));
`,
    );
    // The built server, as `npm start` runs it (through tsx a restart alone takes over 10 s here):
    // the build when it is newer than the sources, else the server's bundle built for this test.
    let entry = 'dist/server/main.js';
    if (!buildIsFresh()) {
      // Inside the checkout: the bundle finds its packages in node_modules (.tmp is ignored).
      const outDir = join(projectRoot, '.tmp', `supervisor-build-${process.pid}`);
      cleanups.push(() => rmSync(outDir, { recursive: true, force: true }));
      entry = join(outDir, 'main.js');
      const built = spawnSync(
        process.execPath,
        [
          'node_modules/vite/bin/vite.js',
          'build',
          '--config',
          'vite.server.config.ts',
          '--outDir',
          outDir,
          '--logLevel',
          'warn',
        ],
        { cwd: projectRoot, encoding: 'utf8', timeout: 240_000 },
      );
      expect(built.status, built.stderr).toBe(0);
    }
    const port = 4000 + Math.floor(Math.random() * 900);
    const base = `http://127.0.0.1:${port}`;
    const run = supervisor(
      {
        exec: entry,
        execArgv: [...SERVER_NODE_OPTIONS, '--import', hook],
      },
      { DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: '', LOG_LEVEL: 'warn', NODE_ENV: 'production' },
    );
    const serving = async (withinMs: number) => {
      const deadline = Date.now() + withinMs;
      while (Date.now() < deadline) {
        const answer = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(1000) }).catch(
          () => null,
        );
        if (answer?.ok) return true;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return false;
    };
    // A fresh directory is migrated first: a generous bound for the first start on a busy machine.
    expect(await serving(180_000), run.output()).toBe(true);
    const first = Number(readFileSync(pidFile, 'utf8'));

    process.kill(first, 'SIGUSR2');
    const alive = () => {
      try {
        process.kill(first, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && alive(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive()).toBe(false);
    // Serving again, by a new process. The 10 s is a target measured on a quiet machine (the
    // time is printed here and in decision 0051), not asserted: no timing assertion in a test, and
    // under the suite's two lanes the restart's module load and database open take longer.
    const killedAt = performance.now();
    expect(await serving(60_000), run.output()).toBe(true);
    console.log(
      `supervisor: serving again ${((performance.now() - killedAt) / 1000).toFixed(1)} s after the fatal error`,
    );
    expect(Number(readFileSync(pidFile, 'utf8'))).not.toBe(first);
    expect(run.output()).toMatch(/fallo fatal de prueba/);
    expect(run.output()).toMatch(/the server died \(code 1; its error is logged above\)/);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.output()).toMatch(/SIGTERM: stopping the server/);
    // The embedded database's lock was given back.
    expect(existsSync(join(dataDir, 'inmoflujo.lock'))).toBe(false);
  }, 300_000);
});
