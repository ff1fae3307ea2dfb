import { count, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, actionsOf } from '../../../shared/permissions';
import { profiles, roles, sessions, userRoles } from '../../db/schema';
import { Agent, errorOf, loginAs, TEST_ORIGIN, useTestApp } from '../../test/app';
import { createUser, TEST_PASSWORD } from '../../test/builders';

const newcomer = {
  firstName: 'Carla',
  lastName: 'Muñoz',
  position: 'Jefa de Ventas',
  email: 'Carla.Munoz@Inmoflujo.test',
  password: 'una-clave-larga',
};

async function rowCount(
  ctx: { db: import('../../db/client').Database },
  table: typeof profiles | typeof roles,
) {
  const [row] = await ctx.db.select({ n: count() }).from(table);
  return row!.n;
}

describe('registration', () => {
  const ctx = useTestApp({ env: { REGISTRATION: 'open' } });

  it('creates an Administrador profile; the first one creates the admin role and gets it', async () => {
    const browser = new Agent(ctx.app);
    const first = await browser.post('/api/auth/register', newcomer);
    expect(first.statusCode).toBe(201);
    const user = first.json().user;
    expect(user).toMatchObject({
      email: 'carla.munoz@inmoflujo.test',
      userType: 'Administrador',
      actions: ACTION_NAMES,
    });
    expect(user).not.toHaveProperty('passwordHash');

    const second = await browser.post('/api/auth/register', { ...newcomer, email: 'otro@inmoflujo.test' });
    expect(second.statusCode).toBe(201);
    // Open stays open whoever has an account: the login page keeps offering 'Registrarse'.
    expect((await new Agent(ctx.app).get('/api/auth/registration')).json()).toEqual({ isOpen: true });

    const roleRows = await ctx.db.select().from(roles);
    expect(roleRows.map((role) => role.name)).toEqual(['admin']);
    const assignments = await ctx.db.select().from(userRoles);
    expect(assignments).toEqual([expect.objectContaining({ userId: user.id, roleId: roleRows[0]!.id })]);
  });

  it('stores the password as an argon2id hash with the design parameters', async () => {
    await new Agent(ctx.app).post('/api/auth/register', newcomer);
    const [row] = await ctx.db.select({ hash: profiles.passwordHash }).from(profiles);
    expect(row!.hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row!.hash).not.toContain(newcomer.password);
  });

  it.each([
    [{ ...newcomer, firstName: '  ' }, 'firstName', 'Los nombres son obligatorios'],
    [{ ...newcomer, lastName: '' }, 'lastName', 'Los apellidos son obligatorios'],
    [{ ...newcomer, position: '' }, 'position', 'El cargo es obligatorio'],
    [{ ...newcomer, email: 'no-es-correo' }, 'email', 'Ingrese un correo electrónico válido'],
    [{ ...newcomer, password: 'corta' }, 'password', 'La contraseña debe tener al menos 8 caracteres'],
    [
      { ...newcomer, password: 'x'.repeat(129) },
      'password',
      'La contraseña no puede superar los 128 caracteres',
    ],
  ])('refuses bad input with a Spanish message and creates nothing (%#)', async (body, field, message) => {
    const response = await new Agent(ctx.app).post('/api/auth/register', body);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).fields?.[field]).toBe(message);
    expect(errorOf(response).message).toBe(message);
    expect(await rowCount(ctx, profiles)).toBe(0);
    expect(await rowCount(ctx, roles)).toBe(0);
  });

  it('refuses a missing field and an unknown field', async () => {
    const { position: _omitted, ...withoutPosition } = newcomer;
    const missing = await new Agent(ctx.app).post('/api/auth/register', withoutPosition);
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).fields?.position).toBe('El cargo es obligatorio');

    const extra = await new Agent(ctx.app).post('/api/auth/register', { ...newcomer, userType: 'KAM' });
    expect(extra.statusCode).toBe(400);
    expect(errorOf(extra).message).toBe('Campo no permitido: userType');
    expect(errorOf(extra).fields).toEqual({ userType: 'Campo no permitido: userType' });
    expect(await rowCount(ctx, profiles)).toBe(0);
  });

  it('refuses an e-mail already registered, whatever its case, and keeps the first account', async () => {
    await new Agent(ctx.app).post('/api/auth/register', newcomer);
    const again = await new Agent(ctx.app).post('/api/auth/register', {
      ...newcomer,
      email: 'CARLA.MUNOZ@inmoflujo.test',
      firstName: 'Otra',
    });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(
      'Este correo electrónico ya está registrado. Por favor, use un correo diferente.',
    );
    const rows = await ctx.db.select({ firstName: profiles.firstName }).from(profiles);
    expect(rows).toEqual([{ firstName: 'Carla' }]);
  });
});

describe('registration settings', () => {
  describe('REGISTRATION=closed', () => {
    const ctx = useTestApp({ env: { REGISTRATION: 'closed' } });
    it('refuses every self-registration, and says so before a form is filled', async () => {
      expect((await new Agent(ctx.app).get('/api/auth/registration')).json()).toEqual({ isOpen: false });
      const response = await new Agent(ctx.app).post('/api/auth/register', newcomer);
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).code).toBe('REGISTRATION_CLOSED');
      expect(await rowCount(ctx, profiles)).toBe(0);
    });
  });

  describe('REGISTRATION=first-user, the default', () => {
    const ctx = useTestApp();
    it('lets only the very first user register, and says so before a form is filled', async () => {
      const anonymous = new Agent(ctx.app);
      expect((await anonymous.get('/api/auth/registration')).json()).toEqual({ isOpen: true });
      expect((await new Agent(ctx.app).post('/api/auth/register', newcomer)).statusCode).toBe(201);
      expect((await anonymous.get('/api/auth/registration')).json()).toEqual({ isOpen: false });
      const second = await new Agent(ctx.app).post('/api/auth/register', {
        ...newcomer,
        email: 'b@inmoflujo.test',
      });
      expect(second.statusCode).toBe(403);
      expect(errorOf(second).message).toBe(
        'El registro de nuevos usuarios está deshabilitado. Solicite una cuenta a un administrador.',
      );
      expect(await rowCount(ctx, profiles)).toBe(1);
    });
  });
});

describe('sign-in and sessions', () => {
  const ctx = useTestApp({ env: { REGISTRATION: 'open' } });

  it('signs in, sets an HttpOnly SameSite=Lax cookie holding a token the database only knows hashed', async () => {
    const user = await createUser(ctx.db, { firstName: 'Pedro', lastName: 'Soto' });
    const browser = new Agent(ctx.app);
    const response = await browser.post('/api/auth/login', {
      email: user.email.toUpperCase(),
      password: TEST_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ id: user.id, firstName: 'Pedro', lastName: 'Soto' });

    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    const token = response.cookies[0]!.value;
    expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url

    const stored = await ctx.db.select({ id: sessions.id }).from(sessions);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.id).not.toBe(token);
    expect(stored[0]!.id).toMatch(/^[0-9a-f]{64}$/);

    const me = await browser.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().user.id).toBe(user.id);
  });

  it('answers an unknown e-mail and a wrong password identically', async () => {
    const user = await createUser(ctx.db);
    const unknown = await new Agent(ctx.app).post('/api/auth/login', {
      email: 'nadie@inmoflujo.test',
      password: TEST_PASSWORD,
    });
    const wrong = await new Agent(ctx.app).post('/api/auth/login', {
      email: user.email,
      password: 'otra-clave-123',
    });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    expect(errorOf(wrong).message).toBe('Correo electrónico o contraseña incorrectos.');
    expect(unknown.headers['set-cookie']).toBeUndefined();
  });

  it('refuses bad login input with a Spanish message and creates no session', async () => {
    const badEmail = await new Agent(ctx.app).post('/api/auth/login', { email: 'x', password: 'algo' });
    expect(badEmail.statusCode).toBe(400);
    expect(errorOf(badEmail).fields?.email).toBe('Ingrese un correo electrónico válido');
    const noPassword = await new Agent(ctx.app).post('/api/auth/login', { email: 'a@b.cl', password: '' });
    expect(noPassword.statusCode).toBe(400);
    expect(errorOf(noPassword).fields?.password).toBe('La contraseña es obligatoria');
    const [row] = await ctx.db.select({ n: count() }).from(sessions);
    expect(row!.n).toBe(0);
  });

  it('stops a client after 10 wrong passwords, while the owner still signs in from another', async () => {
    const user = await createUser(ctx.db);
    const tryFrom = (address: string, password: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: address,
        headers: { origin: TEST_ORIGIN },
        payload: { email: user.email, password },
      });
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await tryFrom('203.0.113.9', `mala-clave-${attempt}`)).statusCode).toBe(401);
    }
    const eleventh = await tryFrom('203.0.113.9', TEST_PASSWORD);
    expect(eleventh.statusCode).toBe(429);
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
    expect(errorOf(eleventh).message).toMatch(/Demasiados intentos/);
    // The owner, from their own machine, is not locked out by the stranger.
    expect((await tryFrom('198.51.100.7', TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('never counts successful sign-ins toward the limit', async () => {
    const user = await createUser(ctx.db);
    for (let attempt = 1; attempt <= 15; attempt++) {
      const response = await new Agent(ctx.app).post('/api/auth/login', {
        email: user.email,
        password: TEST_PASSWORD,
      });
      expect(response.statusCode).toBe(200);
    }
  });

  it('throttles self-registration per client address', async () => {
    const register = (n: number) =>
      new Agent(ctx.app).post('/api/auth/register', {
        email: `registro${n}@example.cl`,
        password: 'una-clave-larga-1',
        firstName: 'Ana',
        lastName: 'Pérez',
        position: 'Analista',
      });
    for (let n = 1; n <= 10; n++) expect((await register(n)).statusCode).toBe(201);
    const eleventh = await register(11);
    expect(eleventh.statusCode).toBe(429);
    expect(errorOf(eleventh).code).toBe('REGISTRATION_THROTTLED');
  });

  it('logout ends the session: the old cookie no longer works', async () => {
    const browser = await loginAs(ctx);
    const oldCookie = browser.cookie!;
    const logout = await browser.post('/api/auth/logout');
    expect(logout.statusCode).toBe(204);
    const replay = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: oldCookie },
    });
    expect(replay.statusCode).toBe(401);
    const [row] = await ctx.db.select({ n: count() }).from(sessions);
    expect(row!.n).toBe(0);
  });

  it('a new login replaces the browser’s previous session', async () => {
    const user = await createUser(ctx.db);
    const browser = new Agent(ctx.app);
    await browser.post('/api/auth/login', { email: user.email, password: TEST_PASSWORD });
    const firstCookie = browser.cookie!;
    await browser.post('/api/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(browser.cookie).not.toBe(firstCookie);
    const replay = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: firstCookie },
    });
    expect(replay.statusCode).toBe(401);
    expect((await browser.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('ends a session idle for longer than the idle timeout, and one past its absolute limit', async () => {
    const idle = await loginAs(ctx);
    await ctx.db.update(sessions).set({ lastSeenAt: sql`now() - interval '9 hours'` });
    expect((await idle.get('/api/auth/me')).statusCode).toBe(401);

    const expired = await loginAs(ctx);
    await ctx.db.update(sessions).set({ expiresAt: sql`now() - interval '1 minute'` });
    expect((await expired.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('ends the session of a deactivated user', async () => {
    const browser = await loginAs(ctx);
    await ctx.db.update(profiles).set({ isActive: false }).where(eq(profiles.id, browser.user!.id));
    expect((await browser.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('carries the actions the user holds', async () => {
    const admin = await loginAs(ctx, { userType: 'Administrador' });
    const kam = await loginAs(ctx, { userType: 'KAM' });
    expect((await admin.get('/api/auth/me')).json().user.actions).toEqual(ACTION_NAMES);
    const kamUser = (await kam.get('/api/auth/me')).json().user;
    expect(kamUser).toMatchObject({ userType: 'KAM', actions: actionsOf('KAM') });
    expect(kamUser.actions).not.toContain('users.manage');
  });
});

describe('deny by default and origin check', () => {
  const ctx = useTestApp();

  it('answers 401 on every API route but login, register and health without a session', async () => {
    const apiRoutes = ctx.app.registeredRoutes.filter(
      (route) => route.url.startsWith('/api/') && route.method !== 'HEAD' && route.method !== 'OPTIONS',
    );
    expect(apiRoutes.length).toBeGreaterThan(4);
    const publicRoutes = apiRoutes
      .filter((route) => route.public)
      .map((route) => `${route.method} ${route.url}`);
    expect(publicRoutes.sort()).toEqual([
      'GET /api/auth/registration',
      'GET /api/health',
      'POST /api/auth/login',
      'POST /api/auth/register',
      'POST /api/portal/auth/login',
      'POST /api/portal/auth/password',
    ]);

    for (const route of apiRoutes.filter((candidate) => !candidate.public)) {
      const url = route.url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000').replace('*', 'x');
      const response = await ctx.app.inject({
        method: route.method as 'GET',
        url,
        headers: { origin: TEST_ORIGIN },
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('answers 401 to an unknown API path without a session, and 404 with one', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/nada' })).statusCode).toBe(401);
    const browser = await loginAs(ctx);
    expect((await browser.get('/api/nada')).statusCode).toBe(404);
  });

  it('refuses a state-changing request from another origin, or with no origin at all', async () => {
    const browser = await loginAs(ctx);
    const crossSite = await browser.post('/api/auth/logout', undefined, { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
    expect(errorOf(crossSite).code).toBe('CROSS_ORIGIN');
    const noOrigin = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: browser.cookie! },
    });
    expect(noOrigin.statusCode).toBe(403);
    // Still signed in: nothing was done.
    expect((await browser.get('/api/auth/me')).statusCode).toBe(200);
    // A same-origin Referer is accepted when the browser sends no Origin.
    const viaReferer = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: browser.cookie!, referer: `${TEST_ORIGIN}/dashboard` },
    });
    expect(viaReferer.statusCode).toBe(204);
  });

  it('serves health without a session and proves the database answers', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});
