import { count } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { type Database, type DatabaseHandle, postgresHandle, postgresPool } from '../../db/client';
import { loginFailures } from '../../db/schema';
import { errorOf, TEST_ORIGIN } from '../../test/app';
import { createUser, TEST_PASSWORD } from '../../test/builders';
import {
  createPostgresTestDatabase,
  openTestDatabaseSource,
  type TestDatabaseSource,
  testDatabaseUrl,
} from '../../test/database';
import { systemDatabase } from '../../test/system-database';
import { failureRetentionMs, loginCounters, loginThrottleLimits, waitSeconds } from './login-throttle';

describe('the wait a full counter imposes', () => {
  const now = new Date('2026-11-20T15:00:00.000Z');
  const windowMs = 15 * 60_000;

  it('is none while the counter holds fewer failures than its limit', () => {
    expect(waitSeconds(null, windowMs, now)).toBe(0);
  });

  it('lasts until the limiting failure leaves the window, rounded up, and at least a second', () => {
    expect(waitSeconds(now, windowMs, now)).toBe(900);
    expect(waitSeconds(new Date(now.getTime() - 60_000), windowMs, now)).toBe(840);
    expect(waitSeconds(new Date(now.getTime() - 60_500), windowMs, now)).toBe(840);
    expect(waitSeconds(new Date(now.getTime() - 899_999), windowMs, now)).toBe(1);
  });
});

describe('the counters of an attempt', () => {
  const limits = loginThrottleLimits({ maxAttempts: 10, windowMs: 15 * 60_000 });

  it('are e-mail + client, client and account, with the limits of the settings', () => {
    const counters = loginCounters(limits, 'Ana@Inmoflujo.test', '203.0.113.9');
    expect(counters.client).toMatchObject({ max: 10, windowMs: 900_000 });
    expect(counters.address).toMatchObject({ max: 100, windowMs: 900_000 });
    expect(counters.account).toMatchObject({ max: 100, windowMs: 3_600_000 });
    expect(failureRetentionMs(limits)).toBe(3_600_000);
    expect(failureRetentionMs({ ...limits, windowMs: 2 * 3_600_000 })).toBe(2 * 3_600_000);
  });

  it('are keyed by hashes: the same account whatever its case, never the e-mail or address in clear', () => {
    const counters = loginCounters(limits, 'Ana@Inmoflujo.test', '203.0.113.9');
    const same = loginCounters(limits, ' ana@inmoflujo.TEST', '203.0.113.9');
    const elsewhere = loginCounters(limits, 'ana@inmoflujo.test', '198.51.100.7');
    expect(same).toEqual(counters);
    expect(elsewhere.account.key).toBe(counters.account.key);
    expect(elsewhere.client.key).not.toBe(counters.client.key);
    expect(elsewhere.address.key).not.toBe(counters.address.key);
    const keys = Object.values(counters).map((counter) => counter.key);
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{64}$/);
  });
});

// Two server instances over ONE database, as behind a load balancer. On PostgreSQL each has its own
// connection pool on a database of its own; the embedded database belongs to one process, so there
// the two apps share its one instance — either way, nothing an instance counts is kept in it.
describe('failed sign-ins counted across server instances on one database', () => {
  const url = testDatabaseUrl();
  let source: TestDatabaseSource | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];
  /** The clock of both instances: each test sets it. */
  const clock = { now: new Date('2026-11-20T15:00:00.000Z') };

  beforeAll(async () => {
    if (!url) source = await openTestDatabaseSource();
  });
  afterAll(async () => {
    await source?.close();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function twoInstances(): Promise<{ one: FastifyInstance; other: FastifyInstance; db: Database }> {
    clock.now = new Date('2026-11-20T15:00:00.000Z');
    let handles: [DatabaseHandle, DatabaseHandle];
    if (url) {
      const database = await createPostgresTestDatabase(url);
      cleanups.push(() => database.drop());
      handles = [
        postgresHandle(postgresPool(database.url, 2)),
        postgresHandle(postgresPool(database.url, 2)),
      ];
      for (const handle of handles) cleanups.push(() => handle.close());
    } else {
      const handle = await source!.create();
      cleanups.push(() => handle.close());
      handles = [handle, handle];
    }
    const apps: FastifyInstance[] = [];
    for (const handle of handles) {
      const app = await buildApp({
        db: handle.db,
        serveClient: false,
        now: () => clock.now,
        env: {
          LOG_LEVEL: 'silent',
          NODE_ENV: 'test',
          LOGIN_MAX_ATTEMPTS: 3,
          LOGIN_WINDOW_MINUTES: 15,
          REGISTRATION: 'open',
          REGISTER_MAX_PER_HOUR: 2,
        },
      });
      cleanups.push(() => app.close());
      await app.ready();
      apps.push(app);
    }
    return { one: apps[0]!, other: apps[1]!, db: systemDatabase(handles[0].db) };
  }

  const signIn = (app: FastifyInstance, address: string, email: string, password: string) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: address,
      headers: { origin: TEST_ORIGIN },
      payload: { email, password },
    });

  const stranger = '203.0.113.9';
  const owner = '198.51.100.7';

  it('counts failures on either instance together, and both refuse the next attempt with the wait', async () => {
    const { one, other, db } = await twoInstances();
    const user = await createUser(db);
    expect((await signIn(one, stranger, user.email, 'mala-clave-1')).statusCode).toBe(401);
    expect((await signIn(one, stranger, user.email, 'mala-clave-2')).statusCode).toBe(401);
    expect((await signIn(other, stranger, user.email, 'mala-clave-3')).statusCode).toBe(401);

    for (const app of [one, other]) {
      const refused = await signIn(app, stranger, user.email, TEST_PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('900');
      expect(errorOf(refused).message).toMatch(/Demasiados intentos/);
    }
    // The owner, from their own machine, is not locked out by the stranger, on either instance.
    expect((await signIn(other, owner, user.email, TEST_PASSWORD)).statusCode).toBe(200);

    // The wait counts down on the shared clock, and ends when the first failure leaves the window.
    clock.now = new Date(clock.now.getTime() + 899_000);
    expect((await signIn(other, stranger, user.email, TEST_PASSWORD)).headers['retry-after']).toBe('1');
    clock.now = new Date(clock.now.getTime() + 1_000);
    expect((await signIn(one, stranger, user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('a success on one instance clears the e-mail + client count for both', async () => {
    const { one, other, db } = await twoInstances();
    const user = await createUser(db);
    expect((await signIn(one, stranger, user.email, 'mala-clave-1')).statusCode).toBe(401);
    expect((await signIn(one, stranger, user.email, 'mala-clave-2')).statusCode).toBe(401);
    expect((await signIn(other, stranger, user.email, TEST_PASSWORD)).statusCode).toBe(200);
    // Without the clearing these would be the 3rd and 4th failures, and the next attempt refused.
    expect((await signIn(one, stranger, user.email, 'mala-clave-3')).statusCode).toBe(401);
    expect((await signIn(other, stranger, user.email, 'mala-clave-4')).statusCode).toBe(401);
    expect((await signIn(one, stranger, user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('shares the per-address budget over every e-mail, and the per-account ceiling', async () => {
    const { one, other, db } = await twoInstances();
    const user = await createUser(db);
    // Password spraying from one address, spread over both instances: 3 × 10 failures, then refused.
    for (let attempt = 1; attempt <= 30; attempt++) {
      const app = attempt % 2 === 0 ? one : other;
      const response = await signIn(app, stranger, `nadie${attempt}@inmoflujo.test`, 'mala-clave');
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    const sprayed = await signIn(one, stranger, user.email, TEST_PASSWORD);
    expect(sprayed.statusCode).toBe(429);
    expect(sprayed.headers['retry-after']).toBe('900');
    expect((await signIn(other, owner, user.email, TEST_PASSWORD)).statusCode).toBe(200);

    // A distributed guess: 100 failures an hour on one account, from many addresses, then refused
    // from anywhere — an hour after the first.
    for (let attempt = 1; attempt <= 100; attempt++) {
      const app = attempt % 2 === 0 ? one : other;
      const response = await signIn(app, `192.0.2.${attempt}`, user.email, 'mala-clave');
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    const guessed = await signIn(one, owner, user.email, TEST_PASSWORD);
    expect(guessed.statusCode).toBe(429);
    expect(guessed.headers['retry-after']).toBe('3600');
  }, 60_000);

  it('shares one self-registration budget per address across instances, and says how long to wait', async () => {
    const { one, other } = await twoInstances();
    const register = (app: FastifyInstance, address: string, n: number) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: address,
        headers: { origin: TEST_ORIGIN },
        payload: {
          email: `registro${n}@example.cl`,
          password: 'una-clave-larga-1',
          firstName: 'Ana',
          lastName: 'Pérez',
          position: 'Analista',
        },
      });
    // REGISTER_MAX_PER_HOUR is 2 here: one attempt on each instance, then both refuse.
    expect((await register(one, stranger, 1)).statusCode).toBe(201);
    expect((await register(other, stranger, 2)).statusCode).toBe(201);
    for (const app of [one, other]) {
      const refused = await register(app, stranger, 3);
      expect(refused.statusCode).toBe(429);
      expect(errorOf(refused).code).toBe('REGISTRATION_THROTTLED');
      expect(refused.headers['retry-after']).toBe('3600');
    }
    // Another address has its own budget; the first one's ends an hour after its first attempt.
    expect((await register(one, owner, 4)).statusCode).toBe(201);
    clock.now = new Date(clock.now.getTime() + 3_600_000);
    expect((await register(other, stranger, 5)).statusCode).toBe(201);
  });

  it('keeps the table bounded: every sign-in deletes the failures no window counts any more', async () => {
    const { one, other, db } = await twoInstances();
    const user = await createUser(db);
    const rows = async () => (await db.select({ n: count() }).from(loginFailures))[0]!.n;
    for (let attempt = 1; attempt <= 4; attempt++) {
      await signIn(attempt % 2 === 0 ? one : other, `192.0.2.${attempt}`, `nadie${attempt}@x.cl`, 'mala');
    }
    // Three counters per failure: e-mail + client, client, account.
    expect(await rows()).toBe(12);

    // Still within the hour of the account ceiling: nothing goes.
    clock.now = new Date(clock.now.getTime() + 3_599_000);
    expect((await signIn(one, owner, user.email, 'mala')).statusCode).toBe(401);
    expect(await rows()).toBe(15);

    // An hour after the first four, the next failure leaves only its own rows and the one above.
    clock.now = new Date(clock.now.getTime() + 2_000);
    expect((await signIn(other, owner, 'otro@x.cl', 'mala')).statusCode).toBe(401);
    expect(await rows()).toBe(6);

    // A success deletes its own e-mail + client count and, an hour on, everything older.
    clock.now = new Date(clock.now.getTime() + 3_601_000);
    expect((await signIn(one, stranger, user.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect(await rows()).toBe(0);
  });
});
