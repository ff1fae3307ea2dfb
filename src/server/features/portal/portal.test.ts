import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  auditLog,
  brokerSessions,
  brokers,
  brokerUsers,
  brokerUserTokens,
  mailMessages,
} from '../../db/schema';
import { Agent, errorOf, loginAs, useTestApp } from '../../test/app';
import { createBroker, createClient, createReservation } from '../../test/builders';
import { invitationToken, PORTAL_PASSWORD, portalAgent } from '../../test/portal';

/** Issue 58, decision 0069: the portal's accounts, their link, their sessions (both engines). */
describe('the brokers portal: invitation, sign-in and sessions', () => {
  const ctx = useTestApp();

  it('an administrator invites, the link sets the password once, the person signs in to their broker', async () => {
    const broker = await createBroker(ctx.db);
    const admin = await loginAs(ctx, { userType: 'Administrador' });
    const invited = await admin.post(`/api/brokers/${broker.id}/portal-users`, {
      name: 'Paula Rojas',
      email: 'Paula@Corredora.cl',
    });
    expect(invited.statusCode).toBe(201);
    expect(invited.json().user).toMatchObject({ name: 'Paula Rojas', isPending: true, isActive: true });

    // Only the hash of the link's token is kept.
    const token = await invitationToken(ctx, 'paula@corredora.cl');
    const stored = await ctx.db.select({ id: brokerUserTokens.id }).from(brokerUserTokens);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.id).not.toContain(token);

    const person = new Agent(ctx.app);
    expect(
      (
        await person.post('/api/portal/auth/login', {
          email: 'paula@corredora.cl',
          password: PORTAL_PASSWORD,
        })
      ).statusCode,
    ).toBe(401);
    const weak = await person.post('/api/portal/auth/password', { token, password: 'corta' });
    expect(weak.statusCode).toBe(400);
    expect(
      (await person.post('/api/portal/auth/password', { token, password: PORTAL_PASSWORD })).statusCode,
    ).toBe(204);
    const again = await person.post('/api/portal/auth/password', { token, password: 'otra-clave-larga' });
    expect(again.statusCode).toBe(400);
    expect(errorOf(again).message).toBe(
      'El enlace no es válido, ya se usó o expiró. Pida a su KAM una nueva invitación.',
    );

    const signedIn = await person.post('/api/portal/auth/login', {
      email: 'paula@corredora.cl',
      password: PORTAL_PASSWORD,
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user).toMatchObject({ brokerId: broker.id, brokerName: broker.name });
    expect((await person.get('/api/portal/me')).json().user.email).toBe('paula@corredora.cl');

    // Staff routes refuse the portal's session (403); the portal refuses a staff session (401).
    expect((await person.get('/api/brokers')).statusCode).toBe(403);
    expect((await person.get('/api/auth/me')).statusCode).toBe(403);
    expect((await admin.get('/api/portal/me')).statusCode).toBe(401);

    // The sign-in is in the audit trail, under the portal's sessions.
    const [event] = await ctx.db
      .select({ action: auditLog.action, actorId: auditLog.actorId })
      .from(auditLog)
      .where(eq(auditLog.tableName, 'broker_sessions'));
    expect(event).toEqual({ action: 'sign_in', actorId: invited.json().user.id });
  });

  it('an expired link sets nothing', async () => {
    const broker = await createBroker(ctx.db);
    const admin = await loginAs(ctx, { userType: 'Administrador' });
    await admin.post(`/api/brokers/${broker.id}/portal-users`, { name: 'Ana', email: 'ana@corredora.cl' });
    const token = await invitationToken(ctx, 'ana@corredora.cl');
    const [link] = await ctx.db.select({ expiresAt: brokerUserTokens.expiresAt }).from(brokerUserTokens);
    const [created] = await ctx.db.select({ at: brokerUsers.createdAt }).from(brokerUsers);
    // Valid 72 hours from the invitation.
    expect(Math.round((link!.expiresAt.getTime() - created!.at.getTime()) / 3_600_000)).toBe(72);
    await ctx.db.update(brokerUserTokens).set({ expiresAt: new Date(Date.now() - 60_000) });
    const person = new Agent(ctx.app);
    const refused = await person.post('/api/portal/auth/password', { token, password: PORTAL_PASSWORD });
    expect(refused.statusCode).toBe(400);
    const [account] = await ctx.db.select({ hash: brokerUsers.passwordHash }).from(brokerUsers);
    expect(account?.hash).toBeNull();
  });

  it("the broker's KAM may invite; another staff user may not; an address is used once", async () => {
    const broker = await createBroker(ctx.db, { kamEmail: 'kam.propio@inmoflujo.cl' });
    const kam = await loginAs(ctx, { userType: 'KAM', email: 'kam.propio@inmoflujo.cl' });
    const otherKam = await loginAs(ctx, { userType: 'KAM' });
    const operations = await loginAs(ctx, { userType: 'Operaciones' });
    const body = { name: 'Luis Soto', email: 'luis@corredora.cl' };
    const refused = await otherKam.post(`/api/brokers/${broker.id}/portal-users`, body);
    expect(refused.statusCode).toBe(403);
    expect((await operations.post(`/api/brokers/${broker.id}/portal-users`, body)).statusCode).toBe(403);
    expect(await ctx.db.select().from(brokerUsers)).toEqual([]);

    expect((await kam.post(`/api/brokers/${broker.id}/portal-users`, body)).statusCode).toBe(201);
    const twice = await kam.post(`/api/brokers/${broker.id}/portal-users`, {
      ...body,
      email: 'LUIS@corredora.cl',
    });
    expect(twice.statusCode).toBe(409);
    expect(errorOf(twice).fields?.email).toBe('Ya existe una cuenta del portal con este correo electrónico');

    const list = await operations.get(`/api/brokers/${broker.id}/portal-users`);
    expect(list.json()).toMatchObject({ canManage: false, users: [{ name: 'Luis Soto', isPending: true }] });
    expect((await kam.get(`/api/brokers/${broker.id}/portal-users`)).json().canManage).toBe(true);
    // The outbox holds the invitation to the address, nothing else.
    const mail = await ctx.db
      .select({ kind: mailMessages.kind, to: mailMessages.toAddress })
      .from(mailMessages);
    expect(mail).toEqual([{ kind: 'portalInvitation', to: 'luis@corredora.cl' }]);
  });

  it('deactivating the account or deleting the broker ends its sessions; a wrong password is refused alike', async () => {
    const broker = await createBroker(ctx.db);
    const admin = await loginAs(ctx, { userType: 'Administrador' });
    const person = await portalAgent(ctx, broker.id, 'rosa@corredora.cl', admin);
    expect((await person.get('/api/portal/me')).statusCode).toBe(200);

    const wrong = await new Agent(ctx.app).post('/api/portal/auth/login', {
      email: 'rosa@corredora.cl',
      password: 'no-es-la-clave',
    });
    expect(wrong.statusCode).toBe(401);
    expect(errorOf(wrong).message).toBe('Correo electrónico o contraseña incorrectos.');

    const off = await admin.post(`/api/brokers/${broker.id}/portal-users/${person.brokerUserId}/deactivate`);
    expect(off.statusCode).toBe(200);
    expect(await ctx.db.select().from(brokerSessions)).toEqual([]);
    expect((await person.get('/api/portal/me')).statusCode).toBe(401);
    const again = await new Agent(ctx.app).post('/api/portal/auth/login', {
      email: 'rosa@corredora.cl',
      password: PORTAL_PASSWORD,
    });
    expect(again.statusCode).toBe(401);

    // Another broker's account through this broker's address: 404, nothing changes.
    const other = await createBroker(ctx.db);
    const foreign = await admin.post(
      `/api/brokers/${other.id}/portal-users/${person.brokerUserId}/reactivate`,
    );
    expect(foreign.statusCode).toBe(404);

    expect(
      (await admin.post(`/api/brokers/${broker.id}/portal-users/${person.brokerUserId}/reactivate`))
        .statusCode,
    ).toBe(200);
    const back = await new Agent(ctx.app).post('/api/portal/auth/login', {
      email: 'rosa@corredora.cl',
      password: PORTAL_PASSWORD,
    });
    expect(back.statusCode).toBe(200);
    await ctx.db.delete(brokers).where(eq(brokers.id, broker.id));
    expect(await ctx.db.select().from(brokerSessions)).toEqual([]);
  });

  it('sign-ins to the portal are throttled like the staff ones', async () => {
    const broker = await createBroker(ctx.db);
    await portalAgent(ctx, broker.id, 'tito@corredora.cl');
    const stranger = new Agent(ctx.app);
    let last = 0;
    for (let attempt = 0; attempt < 12; attempt += 1) {
      last = (
        await stranger.post('/api/portal/auth/login', { email: 'tito@corredora.cl', password: 'mala-clave' })
      ).statusCode;
    }
    expect(last).toBe(429);
  });

  it("'Mis operaciones': the session's broker's reservations, the buyer by name only, never another broker's", async () => {
    const broker = await createBroker(ctx.db);
    const other = await createBroker(ctx.db);
    const buyer = await createClient(ctx.db, { firstName: 'Camila', lastName: 'Muñoz' });
    const own = await createReservation(ctx.db, {
      clientId: buyer.id,
      isWithBroker: true,
      brokerId: broker.id,
      reservationDate: '2026-11-02',
    });
    const rescinded = await createReservation(ctx.db, {
      isWithBroker: true,
      brokerId: broker.id,
      reservationDate: '2026-10-01',
      isRescinded: true,
    });
    const foreign = await createReservation(ctx.db, { isWithBroker: true, brokerId: other.id });
    const person = await portalAgent(ctx, broker.id);

    const answer = await person.get('/api/portal/operations');
    expect(answer.statusCode).toBe(200);
    const page = answer.json();
    expect(page.total).toBe(2);
    expect(page.rows.map((row: { reservationNumber: string }) => row.reservationNumber)).toEqual([
      own.reservationNumber,
      rescinded.reservationNumber,
    ]);
    expect(page.rows[0]).toEqual({
      reservationNumber: own.reservationNumber,
      projectName: expect.any(String),
      apartmentNumber: own.apartmentNumber,
      reservationDate: '2026-11-02',
      stage: 'Reserva',
      buyerName: 'Camila Muñoz',
    });
    expect(page.rows[1].stage).toBe('Resciliada');
    // Nothing of the buyer beyond the name, and nothing of the other broker's.
    expect(answer.body).not.toContain(buyer.rut);
    expect(answer.body).not.toContain(foreign.reservationNumber);
    // A broker cannot be chosen by the request.
    expect((await person.get(`/api/portal/operations?brokerId=${other.id}`)).statusCode).toBe(400);
    expect((await person.get('/api/portal/operations?pageSize=500')).statusCode).toBe(400);
  });
});
