import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH } from '../../shared/text-safety';
import type { RegisteredRoute } from '../app';
import { buildApp } from '../app';
import { queryRows } from '../db/client';
import {
  Agent,
  collectedLog,
  errorOf,
  loginAs,
  TEST_ORIGIN,
  type TestContext,
  useTestApp,
} from '../test/app';
import { createBroker, createClient, createReservation, createUser, TEST_PASSWORD } from '../test/builders';
import { createSaleFlow } from '../test/flow-builders';

/**
 * Issue 8: probed as an attacker would. Every test walks the routes the app registered (its
 * `onRoute` inventory), so a route added later is covered without editing this file.
 */

const SENTINEL = 'Centinela';
const PUBLIC_ROUTES = [
  'GET /api/health',
  'POST /api/auth/login',
  'POST /api/auth/register',
  'GET /api/auth/registration',
  // The brokers' portal (issue 58, decision 0069): its sign-in and the invitation's password.
  'POST /api/portal/auth/login',
  'POST /api/portal/auth/password',
].sort();
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function apiRoutes(ctx: TestContext): RegisteredRoute[] {
  return ctx.app.registeredRoutes.filter(
    (route) => route.url.startsWith('/api/') && route.method !== 'HEAD' && route.method !== 'OPTIONS',
  );
}

/** A concrete path for a route pattern: every parameter an existing id (or a random one). */
function pathOf(route: RegisteredRoute, ids: Record<string, string>): string {
  return route.url
    .replace(/:([A-Za-z]+)/g, (_, name: string) => ids[name] ?? '00000000-0000-4000-8000-000000000000')
    .replace('*', 'x');
}

/** The ways an attacker spells one path: the router may decode them to the same route. */
function spellingsOf(path: string, host: string): string[] {
  const rest = path.slice('/api'.length);
  return [
    path,
    `/%61pi${rest}`,
    `/ap%69${rest}`,
    `/api${rest.replace('/', '//')}`,
    `//api${rest}`,
    `${path}/`,
    `/API${rest}`,
    `/api/x/..${rest}`,
    `/api/.${rest}`,
    `http://${host}${path}`,
    `http://evil.example${path}`,
  ];
}

/** Everything a write could change, in one figure: row counts and the latest update. */
async function fingerprint(ctx: TestContext): Promise<string> {
  const [row] = await queryRows<{ value: string }>(
    ctx.db,
    sql`select concat_ws('|',
      (select count(*) from clients), (select max(updated_at) from clients),
      (select count(*) from brokers), (select max(updated_at) from brokers),
      (select count(*) from reservations), (select max(updated_at) from reservations),
      (select count(*) from broker_commissions), (select count(*) from promotions),
      (select count(*) from flows), (select max(updated_at) from flow_tasks),
      (select count(*) from flow_task_assignees), (select count(*) from flow_task_comments),
      (select count(*) from profiles), (select count(*) from sessions)) as value`,
  );
  return row!.value;
}

interface RawAnswer {
  status: number;
  body: string;
}

/** Sends the request target exactly as given (absolute form, dot segments, doubled slashes). */
function rawRequest(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        // A fresh connection per probe: an answer may close it before reading the body.
        agent: false,
        method,
        path: target,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function seed(ctx: TestContext) {
  const client = await createClient(ctx.db, { firstName: SENTINEL, email: 'centinela@example.cl' });
  const broker = await createBroker(ctx.db, { name: `${SENTINEL} Propiedades` });
  const reservation = await createReservation(ctx.db, {
    clientId: client.id,
    brokerId: broker.id,
    isWithBroker: true,
  });
  const flow = await createSaleFlow(ctx.db, { reservationId: reservation.id });
  return {
    id: reservation.id,
    flowId: flow.id,
    taskId: flow.task(flow.taskNames()[0]!),
    clientId: client.id,
  };
}

describe('access is decided by the matched route, whatever the spelling of its path', () => {
  const ctx = useTestApp();

  it('lists exactly the public routes (a new public route must be added here on purpose)', () => {
    const publicRoutes = apiRoutes(ctx)
      .filter((route) => route.public)
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    expect(publicRoutes).toEqual(PUBLIC_ROUTES);
  });

  it('gives no data and writes nothing without a session, for every route and spelling', async () => {
    const ids = await seed(ctx);
    const params = { id: ids.id, flowId: ids.flowId, taskId: ids.taskId, clientId: ids.clientId };
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const host = `127.0.0.1:${port}`;
    const before = await fingerprint(ctx);
    let probes = 0;
    for (const route of apiRoutes(ctx).filter((candidate) => !candidate.public)) {
      for (const target of spellingsOf(pathOf(route, params), host)) {
        const body = WRITE_METHODS.has(route.method) ? '{}' : undefined;
        const answer = await rawRequest(
          port,
          route.method,
          target,
          { origin: TEST_ORIGIN, host },
          body,
        ).catch((error: Error) => {
          throw new Error(`${route.method} ${target}: ${error.message}`);
        });
        const where = `${route.method} ${target}`;
        expect([400, 401, 404], where).toContain(answer.status);
        expect(answer.body, where).not.toContain(SENTINEL);
        expect(answer.body, where).not.toContain('centinela@');
        probes += 1;
      }
    }
    expect(probes).toBeGreaterThan(200);
    expect(await fingerprint(ctx)).toBe(before);
    // The OpenAPI document lists every route: it is for signed-in users only.
    expect((await rawRequest(port, 'GET', '/%61pi/docs/json', { host })).status).toBe(401);
  });

  it('answers every route and spelling without a server error, signed in or not, admin or not', async () => {
    const ids = await seed(ctx);
    const params = { id: ids.id, flowId: ids.flowId, taskId: ids.taskId, clientId: ids.clientId };
    const admin = await loginAs(ctx, { userType: 'Administrador' });
    const kam = await loginAs(ctx, { userType: 'KAM' });
    for (const agent of [admin, kam]) {
      for (const route of apiRoutes(ctx)) {
        for (const target of spellingsOf(pathOf(route, params), 'localhost').filter((t) =>
          t.startsWith('/'),
        )) {
          const body = WRITE_METHODS.has(route.method) ? {} : undefined;
          const response = await agent.request(route.method as 'GET', target, body);
          expect(response.statusCode, `${agent.user?.userType} ${route.method} ${target}`).toBeLessThan(500);
        }
      }
    }
  }, 120_000);

  it('refuses a state-changing request whose origin is the request’s own foreign host (DNS rebinding)', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { host: 'rebind.evil.example:3000', origin: 'http://rebind.evil.example:3000' },
      payload: {
        email: 'nuevo@example.cl',
        password: 'una-clave-larga-1',
        firstName: 'A',
        lastName: 'B',
        position: 'C',
      },
    });
    expect(response.statusCode).toBe(403);
    expect(errorOf(response).code).toBe('CROSS_ORIGIN');
    const [row] = await queryRows<{ n: number }>(ctx.db, sql`select count(*)::int as n from profiles`);
    expect(row!.n).toBe(0);
  });

  it('documents the error answers of every route in the OpenAPI document', async () => {
    const admin = await loginAs(ctx);
    const document = (await admin.get('/api/docs/json')).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    };
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    expect(operations.length).toBeGreaterThan(20);
    for (const operation of operations) {
      for (const status of ['400', '401', '403', '404', '409', '413', '429']) {
        expect(operation.responses[status], status).toBeDefined();
      }
    }
  });

  it('marks every API answer no-store', async () => {
    const admin = await loginAs(ctx);
    expect((await admin.get('/api/clients')).headers['cache-control']).toBe('no-store');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/clients' })).headers['cache-control']).toBe(
      'no-store',
    );
  });
});

describe('every input that passes validation is safe', () => {
  const ctx = useTestApp();

  it('refuses a NUL byte or a lone surrogate in any text with a Spanish 400, and stores nothing', async () => {
    const admin = await loginAs(ctx);
    const before = await fingerprint(ctx);
    for (const bad of ['Ana\u0000', '\uD800x', 'x\uDC00']) {
      const create = await admin.post('/api/clients', {
        rut: '11.111.111-1',
        firstName: bad,
        lastName: 'Pérez',
        birthDate: '1980-01-01',
      });
      expect(create.statusCode).toBe(400);
      expect(errorOf(create).fields?.firstName).toBe('El texto contiene caracteres no permitidos');
    }
    const search = await admin.get('/api/clients?search=Ana%00');
    expect(search.statusCode).toBe(400);
    expect(errorOf(search).fields?.search).toBe('El texto contiene caracteres no permitidos');
    expect(await fingerprint(ctx)).toBe(before);
  });

  it('refuses a body nested thousands of levels deep with a Spanish 400, signed in or not, and logs no error', async () => {
    const { lines, stream } = collectedLog();
    // The test's app logs nothing: this one logs at the production level, into `lines`.
    const app = await buildApp({
      db: ctx.appDb,
      serveClient: false,
      env: { NODE_ENV: 'test' },
      logStream: stream,
    });
    await app.ready();
    try {
      const user = await createUser(ctx.db, { userType: 'Administrador' });
      const admin = new Agent(app, user);
      expect(
        (await admin.post('/api/auth/login', { email: user.email, password: TEST_PASSWORD })).statusCode,
      ).toBe(200);
      const before = await fingerprint(ctx);
      // 8,000 levels overflowed the recursive input guard; 100,000 is about the most 1 MB holds.
      for (const levels of [8_000, 100_000]) {
        const bodies = [
          `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`,
          `${'['.repeat(levels)}1${']'.repeat(levels)}`,
        ];
        for (const body of bodies) {
          for (const [agent, url] of [
            [new Agent(app), '/api/auth/login'],
            [admin, '/api/clients'],
          ] as const) {
            const response = await agent.post(url, body, { 'content-type': 'application/json' });
            const where = `${url} ${body.slice(0, 5)} × ${levels}`;
            expect(response.statusCode, where).toBe(400);
            expect(errorOf(response), where).toEqual({
              code: 'NESTING_TOO_DEEP',
              message: 'La solicitud tiene demasiados niveles de anidación.',
            });
          }
        }
      }
      expect(await fingerprint(ctx)).toBe(before);
    } finally {
      await app.close();
    }
    const entries = lines.map(
      (line) => JSON.parse(line) as { level: number; msg: string; res?: { statusCode?: number } },
    );
    // The capture works: every refused request was logged, at the info level.
    const refused = entries.filter(
      (entry) => entry.msg === 'request completed' && entry.res?.statusCode === 400,
    );
    expect(refused.length).toBe(8);
    expect(refused.every((entry) => entry.level === 30)).toBe(true);
    expect(entries.filter((entry) => entry.level >= 50)).toEqual([]);
  });

  it('still takes a body nested as deep as the limit to its schema', async () => {
    const admin = await loginAs(ctx);
    const levels = MAX_NESTING_DEPTH - 1;
    const response = await admin.post('/api/clients', {
      rut: '11.111.111-1',
      firstName: 'Ana',
      lastName: 'Pérez',
      birthDate: '1980-01-01',
      extra: JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`),
    });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toBe('Campo no permitido: extra');
  });

  it('bounds amounts so every derived figure fits, and dates to real years', async () => {
    const admin = await loginAs(ctx);
    const huge = await admin.post('/api/reservations', {
      reservationNumber: 'R-ENORME',
      reservationDate: '2026-10-01',
      apartmentPrice: '999999999999.99',
    });
    expect(huge.statusCode).toBe(400);
    expect(errorOf(huge).fields?.apartmentPrice).toBe('El monto no puede superar 999.999.999,99');
    const yearZero = await admin.post('/api/clients', {
      rut: '11.111.111-1',
      firstName: 'Ana',
      lastName: 'Pérez',
      birthDate: '0000-01-01',
    });
    expect(yearZero.statusCode).toBe(400);
  });

  it('survives arbitrary and hostile bodies and queries on every route: never a 5xx', async () => {
    const ids = await seed(ctx);
    const params = { id: ids.id, flowId: ids.flowId, taskId: ids.taskId, clientId: ids.clientId };
    const admin = await loginAs(ctx, { userType: 'Administrador' });
    const hostileString = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '\u0000',
        '\uD800',
        '\uDFFF',
        'a\u0000b',
        "'; drop table clients; --",
        '%00',
        '../../etc',
      ),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constant('x'.repeat(5000)),
    );
    const hostileNumber = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.constantFrom(1e308, -1e308, 5e-324, 2 ** 53 + 1, -0, 999999999999.99, 1e15),
    );
    const hostileDate = fc.constantFrom(
      '0000-01-01',
      '9999-12-31',
      '2026-02-30',
      '-001-01-01',
      '275760-09-13',
    );
    const leaf = fc.oneof(hostileString, hostileNumber, hostileDate, fc.boolean(), fc.constant(null));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 12 }), tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    // Bodies shaped like the routes' own (their field names) with hostile values, and arbitrary ones.
    const fieldNames = fc.constantFrom(
      'rut',
      'firstName',
      'lastName',
      'birthDate',
      'email',
      'phone',
      'name',
      'businessName',
      'search',
      'reservationNumber',
      'reservationDate',
      'apartmentPrice',
      'parkingPrice',
      'commissionAmount',
      'status',
      'userId',
      'content',
      'startedAt',
      'completedAt',
      'version',
      'page',
      'pageSize',
      'sort',
      'amount',
      'promiseDate',
      'deedDate',
      'projectId',
      'clientId',
      'brokerId',
      'password',
    );
    const body = fc.oneof(fc.dictionary(fieldNames, value, { maxKeys: 8 }), value);
    const query = fc.dictionary(fieldNames, fc.oneof(hostileString, hostileDate, fc.integer().map(String)), {
      maxKeys: 4,
    });
    let requests = 0;
    for (const route of apiRoutes(ctx).filter((candidate) => candidate.url !== '/api/auth/logout')) {
      await fc.assert(
        fc.asyncProperty(body, query, async (payload, search) => {
          const qs = new URLSearchParams(search as Record<string, string>).toString();
          const url = `${pathOf(route, params)}${qs ? `?${qs}` : ''}`;
          const response = await admin.request(
            route.method as 'GET',
            url,
            WRITE_METHODS.has(route.method) ? JSON.stringify(payload) : undefined,
            WRITE_METHODS.has(route.method) ? { 'content-type': 'application/json' } : {},
          );
          requests += 1;
          return response.statusCode < 500;
        }),
        { numRuns: 12, seed: 8 },
      );
    }
    expect(requests).toBeGreaterThan(200);
  }, 300_000);
});

describe('the log carries no personal data', () => {
  const ctx = useTestApp({ env: { REGISTRATION: 'open' } });

  it('logs a failing register without the e-mail, the password hash or the query parameters', async () => {
    const { lines, stream } = collectedLog();
    const app = await buildApp({
      db: ctx.db,
      serveClient: false,
      env: { NODE_ENV: 'test' },
      logStream: stream,
    });
    await app.ready();
    try {
      // Any unexpected failure of the insert: the statement's parameters are the e-mail and the hash.
      await ctx.db.execute(sql`create function refuse_profiles() returns trigger language plpgsql as
        $$ begin raise exception 'rechazado por la prueba'; end $$`);
      await ctx.db.execute(sql`create trigger refuse_profiles before insert on profiles
        for each row execute function refuse_profiles()`);
      const response = await new Agent(app).post('/api/auth/register?ref=ana.secreta%40example.cl', {
        email: 'ana.secreta@example.cl',
        password: 'una-clave-muy-secreta-1',
        firstName: 'Ana',
        lastName: 'Secreta',
        position: 'Analista',
      });
      expect(response.statusCode).toBe(500);
    } finally {
      await app.close();
    }
    const log = lines.join('');
    expect(log).toContain('rechazado por la prueba');
    expect(log).not.toContain('ana.secreta');
    expect(log).not.toContain('$argon2id');
    expect(log).not.toContain('una-clave-muy-secreta-1');
    expect(log).not.toContain('Secreta');
  });
});
