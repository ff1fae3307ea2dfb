import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { profiles, sessions } from '../../db/schema';
import { Agent, errorOf, loginAs, useTestApp } from '../../test/app';
import { createUser, TEST_PASSWORD } from '../../test/builders';

const newUser = {
  email: 'Paula.Gestora@Inmoflujo.test',
  password: 'clave-de-paula-2026',
  firstName: 'Paula',
  lastName: 'Gestora',
  position: 'Gestora de Pagos',
  userType: 'Gestor de Pagos',
  isSeller: false,
};

async function hasAdminRole(ctx: { db: Parameters<typeof queryRows>[0] }, userId: string) {
  const rows = await queryRows<{ n: number }>(
    ctx.db,
    sql`select count(*)::int as n from user_roles ur join roles r on r.id = ur.role_id
        where ur.user_id = ${userId} and r.name = 'admin'`,
  );
  return rows[0]!.n === 1;
}

async function signIn(ctx: { app: Agent['app'] }, email: string, password: string) {
  const agent = new Agent(ctx.app);
  const response = await agent.post('/api/auth/login', { email, password });
  return { agent, status: response.statusCode };
}

describe('settings: usuarios', () => {
  const ctx = useTestApp();

  it('creates a staff account that can sign in; an Administrador gets the admin role in the same go', async () => {
    const admin = await loginAs(ctx);
    const created = await admin.post('/api/settings/users', newUser);
    expect(created.statusCode).toBe(201);
    const user = created.json().user;
    expect(user).toMatchObject({
      email: 'paula.gestora@inmoflujo.test',
      userType: 'Gestor de Pagos',
      isActive: true,
      avatarUrl: null,
      version: 1,
    });
    expect(Object.keys(user)).not.toContain('passwordHash');
    expect(await hasAdminRole(ctx, user.id)).toBe(false);
    expect((await signIn(ctx, newUser.email, newUser.password)).status).toBe(200);

    const boss = await admin.post('/api/settings/users', {
      ...newUser,
      email: 'jefa@inmoflujo.test',
      userType: 'Administrador',
    });
    expect(await hasAdminRole(ctx, boss.json().user.id)).toBe(true);

    // Searching over names, position and e-mail, accents and case ignored.
    const found = (await admin.get('/api/settings/users?search=gestora%20PAULA')).json();
    expect(found.rows.map((row: { email: string }) => row.email).sort()).toEqual([
      'jefa@inmoflujo.test',
      'paula.gestora@inmoflujo.test',
    ]);
  });

  it('refuses a repeated e-mail with the spec message, and a short password', async () => {
    const admin = await loginAs(ctx, { email: 'ana@inmoflujo.test' });
    const repeated = await admin.post('/api/settings/users', { ...newUser, email: 'ANA@inmoflujo.test' });
    expect(repeated.statusCode).toBe(409);
    expect(errorOf(repeated)).toMatchObject({
      message: 'Ya existe un usuario con este correo electrónico',
      fields: { email: 'Ya existe un usuario con este correo electrónico' },
    });
    const short = await admin.post('/api/settings/users', { ...newUser, password: 'corta' });
    expect(errorOf(short).fields?.password).toBe('La contraseña debe tener al menos 8 caracteres');
    const rows = await ctx.db.select({ id: profiles.id }).from(profiles);
    expect(rows).toHaveLength(1);
  });

  it('edits everything but the e-mail, keeping the admin role in step with the type', async () => {
    const admin = await loginAs(ctx);
    const user = (await admin.post('/api/settings/users', newUser)).json().user;
    const edit = {
      firstName: 'Paula A.',
      lastName: 'Gestora',
      position: 'Jefa',
      userType: 'Administrador',
      isSeller: true,
    };
    const withEmail = await admin.put(`/api/settings/users/${user.id}`, {
      ...edit,
      email: 'otra@x.cl',
      version: 1,
    });
    expect(withEmail.statusCode).toBe(400);
    const promoted = await admin.put(`/api/settings/users/${user.id}`, { ...edit, version: 1 });
    expect(promoted.json().user).toMatchObject({
      firstName: 'Paula A.',
      userType: 'Administrador',
      isSeller: true,
      version: 2,
    });
    expect(await hasAdminRole(ctx, user.id)).toBe(true);
    const demoted = await admin.put(`/api/settings/users/${user.id}`, {
      ...edit,
      userType: 'KAM',
      version: 2,
    });
    expect(demoted.statusCode).toBe(200);
    expect(await hasAdminRole(ctx, user.id)).toBe(false);
    expect((await admin.put(`/api/settings/users/${user.id}`, { ...edit, version: 2 })).statusCode).toBe(409);
  });

  it('deactivates a user: their open session is refused at once and they cannot sign in; reactivation restores it', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM', email: 'kam@inmoflujo.test' });
    expect((await kam.get('/api/clients')).statusCode).toBe(200);

    const deactivated = await admin.post(`/api/settings/users/${kam.user!.id}/deactivate`);
    expect(deactivated.json().user).toMatchObject({ isActive: false });
    expect(await ctx.db.select().from(sessions).where(eq(sessions.userId, kam.user!.id))).toHaveLength(0);
    expect((await kam.get('/api/clients')).statusCode).toBe(401);
    expect((await signIn(ctx, 'kam@inmoflujo.test', TEST_PASSWORD)).status).toBe(401);
    // Still listed (history and assignments stay), marked inactive.
    const listed = (await admin.get('/api/settings/users?search=kam@inmoflujo')).json().rows;
    expect(listed).toMatchObject([{ id: kam.user!.id, isActive: false }]);

    await admin.post(`/api/settings/users/${kam.user!.id}/reactivate`);
    expect((await signIn(ctx, 'kam@inmoflujo.test', TEST_PASSWORD)).status).toBe(200);
  });

  it('sets a new password for a user, ending their sessions', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM', email: 'kam2@inmoflujo.test' });
    const changed = await admin.put(`/api/settings/users/${kam.user!.id}/password`, {
      password: 'nueva-clave-2026',
    });
    expect(changed.statusCode).toBe(204);
    expect((await kam.get('/api/clients')).statusCode).toBe(401);
    expect((await signIn(ctx, 'kam2@inmoflujo.test', TEST_PASSWORD)).status).toBe(401);
    expect((await signIn(ctx, 'kam2@inmoflujo.test', 'nueva-clave-2026')).status).toBe(200);
  });

  it('keeps the asking browser signed in when an administrator sets their own password, ending their others', async () => {
    const admin = await loginAs(ctx, { email: 'jefa@inmoflujo.test' });
    const elsewhere = await signIn(ctx, 'jefa@inmoflujo.test', TEST_PASSWORD);
    expect(
      (await admin.put(`/api/settings/users/${admin.user!.id}/password`, { password: 'otra-clave-2026' }))
        .statusCode,
    ).toBe(204);
    expect((await admin.get('/api/clients')).statusCode).toBe(200);
    expect((await elsewhere.agent.get('/api/clients')).statusCode).toBe(401);
  });

  it('never leaves the office without an active administrator, and no one deactivates themselves', async () => {
    const admin = await loginAs(ctx);
    const self = await admin.post(`/api/settings/users/${admin.user!.id}/deactivate`);
    expect(self.statusCode).toBe(400);
    expect(errorOf(self).message).toBe('No puede desactivar su propia cuenta');
    const demoteSelf = await admin.put(`/api/settings/users/${admin.user!.id}`, {
      firstName: 'Ana',
      lastName: 'Rojas',
      position: 'Analista',
      userType: 'KAM',
      isSeller: false,
      version: 1,
    });
    expect(demoteSelf.statusCode).toBe(409);
    expect(errorOf(demoteSelf).message).toBe('Debe quedar al menos un administrador activo');

    // With a second administrator, each may change the other — but not both away.
    const second = await createUser(ctx.db, { userType: 'Administrador' });
    expect((await admin.post(`/api/settings/users/${second.id}/deactivate`)).statusCode).toBe(200);
    const [row] = await ctx.db.select().from(profiles).where(eq(profiles.id, admin.user!.id));
    expect(row!.userType).toBe('Administrador');
    expect(
      (
        await admin.put(`/api/settings/users/${admin.user!.id}`, {
          firstName: 'Ana',
          lastName: 'Rojas',
          position: 'Analista',
          userType: 'KAM',
          isSeller: false,
          version: 1,
        })
      ).statusCode,
    ).toBe(409);
  });

  it('answers 404 for an unknown user', async () => {
    const admin = await loginAs(ctx);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await admin.get(`/api/settings/users/${unknown}`)).statusCode).toBe(404);
    expect((await admin.post(`/api/settings/users/${unknown}/deactivate`)).statusCode).toBe(404);
  });
});
