import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { UserType } from '../../shared/permissions';
import { buildApp } from '../app';
import type { Database, DatabaseHandle } from '../db/client';
import type { Env } from '../env';
import { createUser, TEST_PASSWORD, type TestUser } from './builders';
import { openTestDatabaseSource, type TestDatabaseSource } from './database';
import { systemDatabase } from './system-database';

export const TEST_ORIGIN = 'http://localhost';

export interface TestContext {
  app: FastifyInstance;
  /** The test's own set-up and reads: its writes are 'sistema' in the audit trail. */
  db: Database;
  /** The database as the app sees it: a write must declare its actor (decision 0024). */
  appDb: Database;
}

/**
 * The real app in-process on a real, freshly migrated database for every test.
 * Use inside a describe block or at file level: `const ctx = useTestApp();` then `ctx.app`.
 */
export function useTestApp(
  options: {
    env?: Partial<Env> | (() => Partial<Env>);
    now?: () => Date;
    /** Routes a test plants in the API scope (a heavy route that works long, say). */
    plantRoutes?: (api: FastifyInstance) => Promise<void>;
  } = {},
): TestContext {
  const ctx = {} as TestContext;
  let source: TestDatabaseSource;
  let handle: DatabaseHandle | undefined;

  beforeAll(async () => {
    source = await openTestDatabaseSource();
  });
  afterAll(async () => {
    await source?.close();
  });
  beforeEach(async () => {
    handle = await source.create();
    // The test's own writes are set-up, 'sistema' in the audit trail; the app gets the plain database.
    ctx.db = systemDatabase(handle.db);
    ctx.appDb = handle.db;
    ctx.app = await buildApp({
      db: handle.db,
      serveClient: false,
      now: options.now,
      plantRoutes: options.plantRoutes,
      // TEST_LOG_LEVEL=error shows the server's own log of a failing test (a 500's cause).
      env: {
        LOG_LEVEL: (process.env.TEST_LOG_LEVEL as Env['LOG_LEVEL']) ?? 'silent',
        NODE_ENV: 'test',
        // A function: settings known only once the file's set-up ran (a test SMTP server's port).
        ...(typeof options.env === 'function' ? options.env() : options.env),
      },
    });
    await ctx.app.ready();
  });
  afterEach(async () => {
    await ctx.app?.close();
    await handle?.close();
    handle = undefined;
  });
  return ctx;
}

/** A log stream for an app a test builds itself (`buildApp({ logStream })`), and the lines it got. */
export function collectedLog(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}

type Body = InjectOptions['payload'];

/** A browser: sends the app's Origin on every request and keeps the session cookie it is given. */
export class Agent {
  cookie: string | undefined;

  constructor(
    readonly app: FastifyInstance,
    readonly user?: TestUser,
  ) {}

  async request(
    method: InjectOptions['method'],
    url: string,
    payload?: Body,
    headers: Record<string, string> = {},
  ) {
    const response = await this.app.inject({
      method,
      url,
      payload,
      headers: { origin: TEST_ORIGIN, ...(this.cookie ? { cookie: this.cookie } : {}), ...headers },
    });
    this.remember(response);
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request('GET', url, undefined, headers);
  }
  post(url: string, payload?: Body, headers?: Record<string, string>) {
    return this.request('POST', url, payload, headers);
  }
  put(url: string, payload?: Body, headers?: Record<string, string>) {
    return this.request('PUT', url, payload, headers);
  }
  patch(url: string, payload?: Body, headers?: Record<string, string>) {
    return this.request('PATCH', url, payload, headers);
  }
  delete(url: string, payload?: Body, headers?: Record<string, string>) {
    return this.request('DELETE', url, payload, headers);
  }

  private remember(response: LightMyRequestResponse) {
    // The staff's session or the brokers' portal's (decision 0069): an agent is one or the other.
    const session = response.cookies.find((cookie) => /inmoflujo_(session|portal)$/.test(cookie.name));
    if (!session) return;
    this.cookie = session.value ? `${session.name}=${session.value}` : undefined;
  }
}

/** Creates a user (Administrador unless told otherwise) and signs in as them. */
export async function loginAs(
  ctx: TestContext,
  overrides: Partial<{
    userType: UserType;
    email: string;
    firstName: string;
    lastName: string;
    isSeller: boolean;
  }> = {},
): Promise<Agent> {
  const user = await createUser(ctx.db, overrides);
  const agent = new Agent(ctx.app, user);
  const response = await agent.post('/api/auth/login', { email: user.email, password: TEST_PASSWORD });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return agent;
}

/** The parsed JSON error of a response: `{ code, message, fields }`. */
export function errorOf(response: LightMyRequestResponse) {
  return (response.json() as { error: { code: string; message: string; fields?: Record<string, string> } })
    .error;
}
