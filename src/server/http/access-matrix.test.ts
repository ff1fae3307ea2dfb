import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import Fastify, { type InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { actionsOf, USER_TYPES } from '../../shared/permissions';
import type { RegisteredRoute } from '../app';
import { buildApp } from '../app';
import { brokerUsers, profiles } from '../db/schema';
import { type Principal, walkMatrix } from '../test/access-matrix';
import { loginAs, useTestApp } from '../test/app';
import { createBroker } from '../test/builders';
import { openTestDatabaseSource } from '../test/database';
import { portalAgent } from '../test/portal';
import { registerAccessGate, requireAccessDeclarations } from './access';
import { AppError } from './app-error';
import { registerErrorHandling } from './error-handler';

/**
 * Issue 56: every route × every principal × its declared rule (src/server/test/access-matrix.ts), on
 * the engine the suite runs on (PGlite; PostgreSQL with TEST_DATABASE_URL). One app, sessions made once.
 */
describe('who may call every route, as declared', () => {
  const ctx = useTestApp();

  it('holds for every route and every principal', async () => {
    const principals: Principal[] = [];
    for (const userType of USER_TYPES) {
      const agent = await loginAs(ctx, { userType });
      principals.push({ name: userType, kind: 'staff', cookie: agent.cookie, actions: actionsOf(userType) });
    }
    const leaver = await loginAs(ctx, { userType: 'Administrador' });
    await ctx.db.update(profiles).set({ isActive: false }).where(eq(profiles.id, leaver.user!.id));
    principals.push({ name: 'usuario desactivado', kind: 'deactivated', cookie: leaver.cookie, actions: [] });
    principals.push({ name: 'sin sesión', kind: 'anonymous', actions: [] });
    // The brokers' portal (issue 58, decision 0069): a broker user of one broker, one of another,
    // and a deactivated one's old session.
    const brokerA = await createBroker(ctx.db);
    const brokerB = await createBroker(ctx.db);
    const admin = await loginAs(ctx, { userType: 'Administrador' });
    const own = await portalAgent(ctx, brokerA.id, undefined, admin);
    const other = await portalAgent(ctx, brokerB.id, undefined, admin);
    const gone = await portalAgent(ctx, brokerA.id, undefined, admin);
    await ctx.db.update(brokerUsers).set({ isActive: false }).where(eq(brokerUsers.id, gone.brokerUserId));
    principals.push({ name: 'broker (propio)', kind: 'broker', cookie: own.cookie, actions: [] });
    principals.push({ name: 'broker (otro)', kind: 'broker', cookie: other.cookie, actions: [] });
    principals.push({
      name: 'broker desactivado',
      kind: 'broker-deactivated',
      cookie: gone.cookie,
      actions: [],
    });
    // A portal cookie nobody issued: refused everywhere but the public routes.
    principals.push({
      name: 'broker sin sesión',
      kind: 'broker-deactivated',
      cookie: `inmoflujo_portal=${randomBytes(32).toString('base64url')}`,
      actions: [],
    });

    const { problems, requests } = await walkMatrix(ctx.app, ctx.app.registeredRoutes, principals);
    expect(problems).toEqual([]);
    expect(requests).toBeGreaterThan(180 * principals.length);
  }, 600_000);
});

describe('the matrix and the declarations fail where they should', () => {
  it('refuses to start with a route that declares nobody', async () => {
    const source = await openTestDatabaseSource();
    const handle = await source.create();
    try {
      await expect(
        buildApp({
          db: handle.db,
          serveClient: false,
          env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
          plantRoutes: async (api) => {
            api.get('/planted', async () => ({ ok: true }));
          },
        }),
      ).rejects.toThrow('GET /api/planted declares no access');
    } finally {
      await handle.close();
      await source.close();
    }
  });

  it('reports a staff route that refuses a user type it declares allowed', async () => {
    const source = await openTestDatabaseSource();
    const handle = await source.create();
    const app = await buildApp({
      db: handle.db,
      serveClient: false,
      env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
      plantRoutes: async (api) => {
        // Declared for every staff user, yet its handler refuses all but user managers: a wrong allowance.
        api.get('/planted', { config: { access: 'staff' } }, async (request) => {
          if (!request.user?.actions.includes('users.manage')) throw new AppError('FORBIDDEN');
          return { ok: true };
        });
      },
    });
    try {
      await app.ready();
      const ctx = { app, db: handle.db, appDb: handle.db };
      const kam = await loginAs(ctx, { userType: 'KAM' });
      const admin = await loginAs(ctx, { userType: 'Administrador' });
      const routes = app.registeredRoutes.filter((route) => route.url === '/api/planted');
      const { problems } = await walkMatrix(app, routes, [
        { name: 'KAM', kind: 'staff', cookie: kam.cookie, actions: actionsOf('KAM') },
        { name: 'Administrador', kind: 'staff', cookie: admin.cookie, actions: actionsOf('Administrador') },
      ]);
      expect(problems).toEqual(['GET /api/planted: KAM refused (403) but the declaration allows it']);
    } finally {
      await app.close();
      await handle.close();
      await source.close();
    }
  });

  it('reports a route that lets through a user who lacks its action, and one with no declaration', async () => {
    // A scope where someone forgot the gate: the declaration says 'users.manage', the KAM passes.
    const app = Fastify();
    registerErrorHandling(app);
    app.decorateRequest('user', null);
    app.addHook('onRequest', async (request) => {
      const userType = request.headers['x-user-type'];
      request.user = typeof userType === 'string' ? ({ actions: actionsOf(userType) } as never) : null;
    });
    const routes: RegisteredRoute[] = [];
    app.addHook('onRoute', (route) => {
      routes.push({
        method: String(route.method),
        url: route.url,
        public: false,
        access: route.config?.access,
        answerSchemas: [],
        requestSchemas: {},
      });
    });
    await app.register(
      async (api) => {
        api.get('/users-only', { config: { access: { action: 'users.manage' } } }, async () => ({
          ok: true,
        }));
        api.get('/forgotten', async () => ({ ok: true }));
      },
      { prefix: '/api' },
    );
    await app.ready();
    const principals: Principal[] = [{ name: 'KAM', kind: 'staff', actions: actionsOf('KAM') }];
    const inject = (options: InjectOptions) =>
      app.inject({ ...options, headers: { ...options.headers, 'x-user-type': 'KAM' } });
    const { problems } = await walkMatrix({ inject }, routes, principals);
    expect(problems).toEqual([
      'GET /api/users-only: KAM let through (200) but the declaration refuses it',
      'GET /api/forgotten declares no access',
      'GET /api/forgotten: KAM let through (200) but the declaration refuses it',
    ]);

    // With the gate and the declarations required, the same app refuses the KAM and will not take the route.
    const gated = Fastify();
    registerErrorHandling(gated);
    gated.decorateRequest('user', null);
    gated.addHook('onRequest', async (request) => {
      request.user = { actions: actionsOf('KAM') } as never;
    });
    registerAccessGate(gated);
    requireAccessDeclarations(gated);
    gated.get('/api/users-only', { config: { access: { action: 'users.manage' } } }, async () => ({
      ok: true,
    }));
    const refused = await gated.inject({ method: 'GET', url: '/api/users-only' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('No tiene permisos para realizar esta acción.');
    await app.close();
    await gated.close();
  });
});
