import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from './paths';

// The real server process on the embedded database, as `npm start` runs it (from the sources).
const dataDir = mkdtempSync(join(tmpdir(), 'inmoflujo-main-'));
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const running: ChildProcess[] = [];

function startServer(): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: projectRoot,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: '', LOG_LEVEL: 'warn' },
  });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForHealth(): Promise<void> {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('server did not start');
}

const post = (path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(body),
  });

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the server process on the embedded database', () => {
  it('keeps accounts across a restart, refuses a second server on the same directory, closes cleanly', async () => {
    const first = startServer();
    await waitForHealth();
    const account = {
      firstName: 'Rosa',
      lastName: 'Pérez',
      position: 'Gerenta',
      email: 'rosa@inmoflujo.test',
      password: 'clave-de-rosa',
    };
    expect((await post('/api/auth/register', account)).status).toBe(201);

    const second = startServer();
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/already in use by another Inmoflujo server/);
    // The first one is untouched.
    expect((await fetch(`${base}/api/health`)).status).toBe(200);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, 'inmoflujo.lock'))).toBe(false);

    const restarted = startServer();
    await waitForHealth();
    const login = await post('/api/auth/login', { email: account.email, password: account.password });
    expect(login.status).toBe(200);
    expect((await login.json()).user.firstName).toBe('Rosa');
    restarted.child.kill('SIGINT');
    expect(await restarted.exited).toBe(0);
  }, 120_000);
});
