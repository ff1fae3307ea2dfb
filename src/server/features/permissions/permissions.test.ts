import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { type DatabaseHandle, postgresHandle, postgresPool, queryRows } from '../../db/client';
import type { EventBus } from '../../events/event-bus';
import { postgresEventBus } from '../../events/postgres-event-bus';
import { Agent, errorOf, loginAs, useTestApp } from '../../test/app';
import { createPostgresTestDatabase, testDatabaseUrl } from '../../test/database';
import { describeOnPostgres } from '../../test/engine';
import { systemDatabase } from '../../test/system-database';

async function actionsOf(agent: Agent): Promise<string[]> {
  const response = await agent.get('/api/auth/me');
  expect(response.statusCode).toBe(200);
  return response.json().user.actions;
}

async function grantRows(db: Parameters<typeof queryRows>[0]) {
  return queryRows<{ action: string; user_type: string; granted: boolean }>(
    db,
    sql`select action, user_type, granted from permission_grants order by action, user_type`,
  );
}

describe('Configuración → Permisos: roles as data (decision 0061)', () => {
  const ctx = useTestApp();

  it('lists every action with its words, whether it is fixed, and its default and current holders', async () => {
    const admin = await loginAs(ctx);
    const response = await admin.get('/api/settings/permissions');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.userTypes).toEqual(['Administrador', 'KAM', 'Gestor de Pagos', 'Supervisor', 'Operaciones']);
    const audit = body.actions.find((row: { action: string }) => row.action === 'audit.read');
    expect(audit).toMatchObject({
      fixed: false,
      defaultHolders: ['Administrador'],
      holders: ['Administrador'],
    });
    expect(audit.label).toContain('auditoría');
    const manage = body.actions.find((row: { action: string }) => row.action === 'permissions.manage');
    expect(manage).toMatchObject({ fixed: true, holders: ['Administrador'] });
  });

  it('a grant takes effect on the next request without a restart, and so does its withdrawal; both audited', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM', email: 'kam@inmoflujo.test' });
    expect((await kam.get('/api/audit')).statusCode).toBe(403);
    expect(await actionsOf(kam)).not.toContain('audit.read');

    const granted = await admin.put('/api/settings/permissions/audit.read/KAM', { granted: true });
    expect(granted.statusCode).toBe(200);
    const row = granted.json().actions.find((entry: { action: string }) => entry.action === 'audit.read');
    expect(row.holders).toEqual(['Administrador', 'KAM']);
    expect(await grantRows(ctx.db)).toEqual([{ action: 'audit.read', user_type: 'KAM', granted: true }]);
    expect((await kam.get('/api/audit')).statusCode).toBe(200);
    expect(await actionsOf(kam)).toContain('audit.read');

    const withdrawn = await admin.put('/api/settings/permissions/audit.read/KAM', { granted: false });
    expect(withdrawn.statusCode).toBe(200);
    // Back to the default: the office's table keeps only differences.
    expect(await grantRows(ctx.db)).toEqual([]);
    expect((await kam.get('/api/audit')).statusCode).toBe(403);
    expect(await actionsOf(kam)).not.toContain('audit.read');

    const trail = await queryRows<{ action: string; actor_id: string }>(
      ctx.db,
      sql`select action, actor_id::text from audit_log where table_name = 'permission_grants' order by id`,
    );
    expect(trail.map((entry) => entry.action)).toEqual(['insert', 'delete']);
    expect(trail.every((entry) => entry.actor_id === admin.user!.id)).toBe(true);
  });

  it('withdraws a default: a Gestor de Pagos loses bank data changes, a new sign-in carries it too', async () => {
    const admin = await loginAs(ctx);
    const response = await admin.put('/api/settings/permissions/bankAccounts.change/Gestor%20de%20Pagos', {
      granted: false,
    });
    expect(response.statusCode).toBe(200);
    expect(await grantRows(ctx.db)).toEqual([
      { action: 'bankAccounts.change', user_type: 'Gestor de Pagos', granted: false },
    ]);
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos', email: 'pagos@inmoflujo.test' });
    expect(await actionsOf(payments)).not.toContain('bankAccounts.change');
    expect(await actionsOf(payments)).toContain('bankAccounts.verify');
  });

  it('refuses fixed actions, the administrators’ own hold, unknown actions and user types; nothing changes', async () => {
    const admin = await loginAs(ctx);
    const fixed = await admin.put('/api/settings/permissions/reservations.rescind/KAM', { granted: true });
    expect(fixed.statusCode).toBe(409);
    expect(errorOf(fixed).message).toBe(
      'Esta acción está fija por la especificación: no se otorga ni se retira.',
    );
    const keeps = await admin.put('/api/settings/permissions/permissions.manage/Administrador', {
      granted: false,
    });
    expect(keeps.statusCode).toBe(409);
    expect(errorOf(keeps).code).toBe('PERMISSION_ADMIN_KEEPS');
    const usersKeeps = await admin.put('/api/settings/permissions/users.manage/Administrador', {
      granted: false,
    });
    expect(errorOf(usersKeeps).code).toBe('PERMISSION_ADMIN_KEEPS');
    const unknown = await admin.put('/api/settings/permissions/nothing.here/KAM', { granted: true });
    expect(unknown.statusCode).toBe(404);
    const badType = await admin.put('/api/settings/permissions/audit.read/Broker', { granted: true });
    expect(badType.statusCode).toBe(400);
    const badBody = await admin.put('/api/settings/permissions/audit.read/KAM', { granted: 'sí' });
    expect(badBody.statusCode).toBe(400);
    expect(await grantRows(ctx.db)).toEqual([]);
  });

  it('refuses a user who does not manage permissions, even one granted every grantable action', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM', email: 'kam@inmoflujo.test' });
    expect((await kam.get('/api/settings/permissions')).statusCode).toBe(403);
    const put = await kam.put('/api/settings/permissions/audit.read/KAM', { granted: true });
    expect(put.statusCode).toBe(403);
    expect(await grantRows(ctx.db)).toEqual([]);
    expect((await new Agent(ctx.app).get('/api/settings/permissions')).statusCode).toBe(401);
  });
});

// Several instances share one database only on PostgreSQL: this journey runs in the PostgreSQL run.
const url = testDatabaseUrl();
describeOnPostgres('a grant reaches every instance (decision 0061)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('granted and withdrawn on one instance, the same session sees it on the other without a restart', async () => {
    const database = await createPostgresTestDatabase(url!);
    cleanups.push(() => database.drop());
    const instances: { app: FastifyInstance; db: DatabaseHandle['db']; events: EventBus }[] = [];
    for (let index = 0; index < 2; index++) {
      const handle = postgresHandle(postgresPool(database.url, 4));
      cleanups.push(() => handle.close());
      const events = await postgresEventBus({
        connectionString: database.url,
        notify: async (channel, payload) => {
          await handle.db.execute(sql`select pg_notify(${channel}, ${payload})`);
        },
        log: { warn() {}, info() {} },
      });
      cleanups.push(() => events.close!());
      const app = await buildApp({
        db: handle.db,
        events,
        serveClient: false,
        env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
      });
      cleanups.push(() => app.close());
      await app.ready();
      instances.push({ app, db: systemDatabase(handle.db), events });
    }
    const [one, other] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const admin = await loginAs({ ...one, appDb: one.db }, { email: 'admin@inmoflujo.test' });
    const kamOnOne = await loginAs(
      { ...one, appDb: one.db },
      { userType: 'KAM', email: 'kam@inmoflujo.test' },
    );
    // The KAM's browser, sent to the other instance by the load balancer.
    const kamOnOther = new Agent(other.app);
    kamOnOther.cookie = kamOnOne.cookie;
    expect((await kamOnOther.get('/api/audit')).statusCode).toBe(403);

    expect((await admin.put('/api/settings/permissions/audit.read/KAM', { granted: true })).statusCode).toBe(
      200,
    );
    await expect.poll(async () => (await kamOnOther.get('/api/audit')).statusCode).toBe(200);
    expect(await actionsOf(kamOnOther)).toContain('audit.read');

    expect((await admin.put('/api/settings/permissions/audit.read/KAM', { granted: false })).statusCode).toBe(
      200,
    );
    await expect.poll(async () => (await kamOnOther.get('/api/audit')).statusCode).toBe(403);
    expect(await actionsOf(kamOnOther)).not.toContain('audit.read');
  });
});
