// The production server as a child process, for the measuring scripts (`npm run bench`,
// `npm run lighthouse`): a free port, start and wait for /api/health, stop, sign in over the API.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * The Node options of the production server, as `npm start` passes them (package.json; a test checks
 * the two agree). A 1.5 GB heap ceiling is ~15 times the server's live heap; below 2 GB, V8 also
 * collects its garbage long before the ceiling: with its default ceiling (4 GB on this machine), an
 * import of 100,000 clients grew the server by 340–390 MB, almost all of it garbage no collection
 * had yet taken back; with this one, by 150–160 MB (decision 0043).
 */
export const SERVER_NODE_OPTIONS = ['--max-old-space-size=1536'];

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Runs the built server (`dist/server/main.js`, or `entry`) on 127.0.0.1:port and resolves once
 * /api/health answers. `SERVER_NODE_ARGS` adds Node options for a measurement (e.g. `--cpu-prof
 * --cpu-prof-dir=.tmp/prof`: the profile is written when the server stops).
 */
export async function startServer(
  port: number,
  options: { dataDir: string; databaseUrl?: string; entry?: string; readyWithinMs?: number },
): Promise<ChildProcess> {
  const nodeArgs = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_OPTIONS, ...nodeArgs, options.entry ?? 'dist/server/main.js'],
    {
      env: {
        ...process.env,
        DATA_DIR: options.dataDir,
        DATABASE_URL: options.databaseUrl ?? '',
        HOST: '127.0.0.1',
        PORT: String(port),
        NODE_ENV: 'production',
        COOKIE_SECURE: 'false',
        LOG_LEVEL: 'warn',
        LOGIN_MAX_ATTEMPTS: '1000000',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`The server exited early (code ${code})`))),
  );
  const readyWithinMs = options.readyWithinMs ?? 180_000;
  const deadline = Date.now() + readyWithinMs;
  const ready = (async () => {
    while (Date.now() < deadline) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`The server did not answer /api/health within ${readyWithinMs / 1000} s`);
  })();
  exited.catch(() => {});
  try {
    await Promise.race([ready, exited]);
  } catch (error) {
    // A server that never became ready is not left behind holding its port and data.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    throw error;
  }
  return child;
}

/**
 * A copy of the build (dist/, drizzle/, package.json) in `folder`, so that a rebuild by someone else
 * in the same checkout cannot take the files away from a server that is being measured. The copy
 * finds its packages in the checkout's node_modules (Node looks up the parent folders); returns the
 * copy's server entry.
 */
export function snapshotBuild(folder: string): string {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  for (const path of ['dist', 'drizzle', 'package.json'])
    cpSync(path, join(folder, path), { recursive: true });
  return join(folder, 'dist/server/main.js');
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timeout = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timeout);
}

/** Signs in through the API and returns the session cookie as `name=value`. */
export async function login(origin: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`Login as ${email} failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((value) => value.includes('inmoflujo_session='));
  if (!cookie) throw new Error('Login answered without a session cookie');
  return cookie.split(';')[0]!;
}
