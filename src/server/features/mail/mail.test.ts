import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { actingAs, asSystem } from '../../db/actor';
import { type Database, type DatabaseHandle, postgresHandle, postgresPool, queryRows } from '../../db/client';
import { loadEnv } from '../../env';
import { Agent, errorOf, loginAs, TEST_ORIGIN, type TestContext, useTestApp } from '../../test/app';
import { createBroker, createReservation, createUser } from '../../test/builders';
import {
  createPostgresTestDatabase,
  openTestDatabaseSource,
  type TestDatabaseSource,
  testDatabaseUrl,
} from '../../test/database';
import { createCommission, createPaymentFlow, createSaleFlow } from '../../test/flow-builders';
import { startTestSmtp, type TestSmtp } from '../../test/smtp';
import { systemDatabase } from '../../test/system-database';
import * as workflows from '../workflows/workflows.service';
import { MAX_GROUP_NOTICES, recordFlowNoticesIn, runDailyJobs } from './mail.service';
import { MAX_ATTEMPTS } from './mail-sender';

/** The app's clock: 11:00 on Thursday 17 September 2026 in Santiago (Friday 18 is a holiday). */
const START = new Date('2026-09-17T14:00:00Z');
const clock = { now: START };
const minutes = (n: number) => new Date(START.getTime() + n * 60_000);

let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp?.close();
});
beforeEach(() => {
  clock.now = START;
  smtp.received.length = 0;
  smtp.mode = 'accept';
});

interface MessageRow {
  id: string;
  kind: string;
  user_id: string | null;
  status: string;
  notice_count: number;
  attempts: number;
  last_error: string | null;
  to_address: string | null;
}

const messages = (db: Database) =>
  queryRows<MessageRow>(
    db,
    sql`select id, kind, user_id, status, notice_count, attempts, last_error, to_address
          from mail_messages order by created_at, id`,
  );

/** A first payment flow (commission UF 1.234,56) started, its first request completed by `requester`. */
async function paymentFlowAt(
  ctx: TestContext,
  requester: { id: string; actions: readonly string[] },
  kamEmail?: string | null,
) {
  const broker = await createBroker(ctx.db, {
    kamName: 'Karen Muñoz',
    kamEmail: kamEmail ?? 'kam@corredora.test',
  });
  const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
  const commission = await createCommission(ctx.db, reservation, { commissionAmount: '1234.56' });
  const flow = await createPaymentFlow(ctx.db, { brokerCommissionId: commission.id, at: minutes(-60) });
  await flow.start({ at: minutes(-60) });
  await flow.completeAll(['Solicitud Liquidación'], { at: minutes(-60) });
  await flow.assign('Solicitud a Jefe Inversiones', requester.id, { at: minutes(-60) });
  await flow.complete('Solicitud a Jefe Inversiones', { as: requester, at: minutes(-60) });
  return { flow, reservation };
}

describe('e-mail notices over a real SMTP server', () => {
  const ctx = useTestApp({
    env: () => ({ SMTP_URL: smtp.url, APP_URL: 'https://inmoflujo.example.cl' }),
    now: () => clock.now,
  });

  async function clearOutbox() {
    await asSystem(ctx.db, (tx) => tx.execute(sql`delete from mail_messages`));
  }

  it('sends one message at once to the user a comment mentions, with the link to the task', async () => {
    const author = await loginAs(ctx, { firstName: 'Pedro', lastName: 'Soto' });
    const mentioned = await createUser(ctx.db, { firstName: 'Catalina', lastName: 'Núñez', userType: 'KAM' });
    const reservation = await createReservation(ctx.db);
    const flow = await createSaleFlow(ctx.db, { reservationId: reservation.id, at: minutes(-60) });
    await clearOutbox();
    const taskId = flow.task(flow.taskNames()[0]!);
    const response = await author.post(`/api/sale-flows/${flow.id}/tasks/${taskId}/comments`, {
      content: '@Catalina Núñez revise <b>esto</b> & confirme',
      mentionedUserIds: [mentioned.id, author.user!.id],
    });
    expect(response.statusCode, response.body).toBe(201);

    const result = await ctx.app.mail.deliverDue();
    expect(result).toEqual({ sent: 1, retrying: 0, failed: 0, discarded: 0 });
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.envelopeTo).toEqual([mentioned.email]);
    expect(mail!.subject).toContain('Pedro Soto mencionó a Catalina en');
    expect(mail!.subject).toContain(`Reserva N° ${reservation.reservationNumber}`);
    expect(mail!.text).toContain('@Catalina Núñez revise <b>esto</b> & confirme');
    expect(mail!.text).toContain(
      `https://inmoflujo.example.cl/flujo-reservas/${flow.id}?comentarios=${taskId}`,
    );
    // The user's words are escaped in the HTML.
    expect(mail!.html).toContain('revise &#60;b&#62;esto&#60;/b&#62; &#38; confirme');
    expect(mail!.html).not.toContain('<b>esto</b>');
    // Delivered once: a second pass finds nothing due.
    expect(await ctx.app.mail.deliverDue()).toEqual({ sent: 0, retrying: 0, failed: 0, discarded: 0 });
    const [row] = await messages(ctx.db);
    expect(row).toMatchObject({ kind: 'mention', status: 'sent', to_address: mentioned.email });
  });

  it('tells an approver at once, the requester of a rejection within the group, and the KAM of a completed payment', async () => {
    const admin = await loginAs(ctx);
    const requester = await createUser(ctx.db, { userType: 'Gestor de Pagos', firstName: 'Rosa' });
    const approver = await createUser(ctx.db, { userType: 'KAM', firstName: 'Víctor' });
    const { flow, reservation } = await paymentFlowAt(ctx, requester);
    await clearOutbox();

    // The approval waits for Víctor: one message, at once, with the amount in UF.
    const assigned = await admin.post(
      `/api/payment-flows/${flow.id}/tasks/${flow.task('VB Jefe Inversiones')}/assignees`,
      {
        userId: approver.id,
      },
    );
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(await ctx.app.mail.deliverDue()).toMatchObject({ sent: 1 });
    expect(smtp.received[0]!.envelopeTo).toEqual([approver.email]);
    expect(smtp.received[0]!.subject).toBe(
      `Aprobación pendiente: VB Jefe Inversiones · Reserva N° ${reservation.reservationNumber}`,
    );
    expect(smtp.received[0]!.text).toContain('Comisión');
    expect(smtp.received[0]!.text).toContain('UF 1.234,56');

    // Víctor rejects: Rosa, who requested it, hears why — grouped, so after 15 minutes.
    const approverAgent = new Agent(ctx.app, approver);
    await approverAgent.post('/api/auth/login', { email: approver.email, password: 'clave-segura-123' });
    const rejected = await approverAgent.post(`/api/approvals/${flow.task('VB Jefe Inversiones')}/reject`, {
      reason: 'Falta la factura',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await ctx.app.mail.deliverDue()).toMatchObject({ sent: 0 });
    clock.now = minutes(15);
    expect(await ctx.app.mail.deliverDue()).toMatchObject({ sent: 1 });
    const rejection = smtp.received[1]!;
    expect(rejection.envelopeTo).toEqual([requester.email]);
    expect(rejection.subject).toContain('rechazó VB Jefe Inversiones');
    expect(rejection.text).toContain('Motivo: Falta la factura');

    // The flow completes: the broker's KAM is told (an outside address).
    await flow.run({ type: 'reopen', taskRowId: flow.task('VB Jefe Inversiones') }, { at: minutes(16) });
    const remaining = flow.taskNames().slice(flow.taskNames().indexOf('VB Jefe Inversiones'));
    await clearOutbox();
    await flow.completeAll(remaining, { at: minutes(16) });
    const kamRows = (await messages(ctx.db)).filter((row) => row.kind === 'paymentCompleted');
    expect(kamRows).toHaveLength(1);
    clock.now = minutes(40);
    await ctx.app.mail.deliverDue();
    const kam = smtp.received.find((mail) => mail.envelopeTo.includes('kam@corredora.test'));
    expect(kam?.subject).toContain(`Pago completado · Reserva N° ${reservation.reservationNumber}`);
    expect(kam?.text).toContain('Hola Karen Muñoz:');
  });

  it('writes nothing when the change rolls back', async () => {
    const approver = await createUser(ctx.db, { userType: 'KAM' });
    const requester = await createUser(ctx.db, { userType: 'Gestor de Pagos' });
    const { flow } = await paymentFlowAt(ctx, requester);
    await clearOutbox();
    const admin = await createUser(ctx.db);
    await expect(
      actingAs(ctx.db, { userId: admin.id }).transaction(async (tx) => {
        await workflows.runCommandIn(tx, admin, clock.now, flow.id, {
          type: 'assign',
          taskRowId: flow.task('VB Jefe Inversiones'),
          userId: approver.id,
        });
        expect((await queryRows(tx, sql`select id from mail_messages`)).length).toBe(1);
        throw new Error('the change fails after the command');
      }),
    ).rejects.toThrow('the change fails');
    expect(await messages(ctx.db)).toEqual([]);
    expect(await ctx.app.mail.deliverDue()).toMatchObject({ sent: 0 });
    expect(smtp.received).toEqual([]);
  });

  it('writes nothing for a bulk load that says so (imports, set-up)', async () => {
    const approver = await createUser(ctx.db, { userType: 'KAM' });
    const requester = await createUser(ctx.db, { userType: 'Gestor de Pagos' });
    const { flow } = await paymentFlowAt(ctx, requester);
    await clearOutbox();
    const admin = await createUser(ctx.db);
    await actingAs(ctx.db, { userId: admin.id }).transaction((tx) =>
      workflows.runCommandIn(
        tx,
        admin,
        clock.now,
        flow.id,
        { type: 'assign', taskRowId: flow.task('VB Jefe Inversiones'), userId: approver.id },
        { notices: false },
      ),
    );
    expect(await messages(ctx.db)).toEqual([]);
  });

  it('keeps a message pending and retries it after the SMTP server refused it for now', async () => {
    const admin = await loginAs(ctx);
    smtp.mode = 'temporary-failure';
    const sent = await admin.post('/api/mail/test');
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await ctx.app.mail.deliverDue()).toEqual({ sent: 0, retrying: 1, failed: 0, discarded: 0 });
    let [row] = await messages(ctx.db);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row!.last_error).toContain('451');
    // Not due again before its back-off…
    smtp.mode = 'accept';
    expect(await ctx.app.mail.deliverDue()).toMatchObject({ sent: 0 });
    // …and delivered once it is.
    clock.now = minutes(2);
    expect(await ctx.app.mail.deliverDue()).toMatchObject({ sent: 1 });
    [row] = await messages(ctx.db);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.subject).toBe('Correo de prueba de Inmoflujo');
  });

  it('records a permanent refusal as failed with the answer, and "Reintentar" sends it', async () => {
    const admin = await loginAs(ctx);
    smtp.mode = 'permanent-failure';
    await admin.post('/api/mail/test');
    expect(await ctx.app.mail.deliverDue()).toMatchObject({ failed: 1 });
    const page = (await admin.get('/api/mail/messages?status=failed')).json();
    expect(page.total).toBe(1);
    expect(page.transport).toBe('smtp');
    expect(page.rows[0]).toMatchObject({ status: 'failed', kind: 'test', recipient: admin.user!.email });
    expect(page.rows[0].lastError).toContain('550');
    smtp.mode = 'accept';
    const retried = await admin.post(`/api/mail/messages/${page.rows[0].id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toEqual({ id: page.rows[0].id, status: 'pending' });
    expect(await ctx.app.mail.deliverDue()).toMatchObject({ sent: 1 });
    // A sent message is not retried.
    const again = await admin.post(`/api/mail/messages/${page.rows[0].id}/retry`);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('MAIL_ALREADY_SENT');
  });

  it('gives up after the last attempt', async () => {
    const admin = await loginAs(ctx);
    smtp.mode = 'temporary-failure';
    await admin.post('/api/mail/test');
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      clock.now = new Date(clock.now.getTime() + 61 * 60_000);
      await ctx.app.mail.deliverDue();
    }
    const [row] = await messages(ctx.db);
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
  });

  it('groups the notices of one user within 15 minutes into one message', async () => {
    const seller = await createUser(ctx.db, { userType: 'KAM', isSeller: true, firstName: 'Sara' });
    const reservation = await createReservation(ctx.db);
    const flow = await createSaleFlow(ctx.db, { reservationId: reservation.id, at: minutes(-60) });
    await clearOutbox();
    const [first, second, third, fourth] = flow.taskNames();
    await flow.assign(first!, seller.id, { at: minutes(0) });
    await flow.assign(second!, seller.id, { at: minutes(5) });
    await flow.assign(third!, seller.id, { at: minutes(14) });
    clock.now = minutes(14);
    expect(await ctx.app.mail.deliverDue()).toMatchObject({ sent: 0 });
    clock.now = minutes(15);
    expect(await ctx.app.mail.deliverDue()).toMatchObject({ sent: 1 });
    expect(smtp.received[0]!.subject).toBe('3 avisos de Inmoflujo');
    for (const name of [first, second, third])
      expect(smtp.received[0]!.text).toContain(`Se le asignó la tarea ${name}`);
    // The group was sent: a later notice opens a new one.
    await flow.assign(fourth!, seller.id, { at: minutes(16) });
    const rows = await messages(ctx.db);
    expect(rows.map((row) => [row.kind, row.status, row.notice_count])).toEqual([
      ['notices', 'sent', 3],
      ['notices', 'pending', 1],
    ]);
  });

  it('sends a full group at once: the next notice opens another group', async () => {
    const seller = await createUser(ctx.db, { userType: 'KAM', isSeller: true, firstName: 'Sara' });
    const reservation = await createReservation(ctx.db);
    const flow = await createSaleFlow(ctx.db, { reservationId: reservation.id, at: minutes(-60) });
    await clearOutbox();
    const [task] = await queryRows<{ id: string }>(
      ctx.db,
      sql`select id from flow_tasks where flow_id = ${flow.id} order by id limit 1`,
    );
    const assigned = (count: number) =>
      Array.from({ length: count }, () => ({
        kind: 'assigned' as const,
        userId: seller.id,
        taskRowId: task!.id,
      }));
    const record = (count: number, at: Date) =>
      asSystem(ctx.db, (tx) => recordFlowNoticesIn(tx, assigned(count), at));
    await record(MAX_GROUP_NOTICES - 1, minutes(0));
    await record(1, minutes(1));
    // Full: it goes at the next notice, which opens the next group, not after its 15 minutes.
    await record(1, minutes(2));
    expect((await messages(ctx.db)).map((row) => [row.status, row.notice_count])).toEqual([
      ['pending', MAX_GROUP_NOTICES],
      ['pending', 1],
    ]);
    clock.now = minutes(2);
    expect(await ctx.app.mail.deliverDue()).toMatchObject({ sent: 1 });
    expect(smtp.received[0]!.subject).toBe(`${MAX_GROUP_NOTICES} avisos de Inmoflujo`);
    clock.now = minutes(17);
    expect(await ctx.app.mail.deliverDue()).toMatchObject({ sent: 1 });
    expect(smtp.received[1]!.subject).not.toContain('avisos');
  });

  it('honours the user’s choices: no assignment notices when turned off, mentions still', async () => {
    const user = await loginAs(ctx, { userType: 'KAM' });
    const initial = await user.get('/api/mail/preferences');
    expect(initial.json().preferences).toEqual({
      assigned: true,
      approvals: true,
      mentions: true,
      rejections: true,
      reminders: true,
      digest: true,
    });
    const choice = {
      assigned: false,
      approvals: true,
      mentions: true,
      rejections: true,
      reminders: true,
      digest: false,
    };
    const saved = await user.put('/api/mail/preferences', choice);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await user.get('/api/mail/preferences')).json().preferences).toEqual(choice);

    const reservation = await createReservation(ctx.db);
    const flow = await createSaleFlow(ctx.db, { reservationId: reservation.id, at: minutes(-60) });
    await clearOutbox();
    await flow.assign(flow.taskNames()[0]!, user.user!.id, { at: minutes(0) });
    expect(await messages(ctx.db)).toEqual([]);
    const author = await loginAs(ctx);
    await author.post(`/api/sale-flows/${flow.id}/tasks/${flow.task(flow.taskNames()[0]!)}/comments`, {
      content: 'Hola',
      mentionedUserIds: [user.user!.id],
    });
    expect((await messages(ctx.db)).map((row) => row.kind)).toEqual(['mention']);
  });

  it('discards the message of a deactivated user, saying why', async () => {
    const author = await loginAs(ctx);
    const gone = await createUser(ctx.db, { userType: 'KAM' });
    const reservation = await createReservation(ctx.db);
    const flow = await createSaleFlow(ctx.db, { reservationId: reservation.id, at: minutes(-60) });
    await clearOutbox();
    await author.post(`/api/sale-flows/${flow.id}/tasks/${flow.task(flow.taskNames()[0]!)}/comments`, {
      content: 'Hola',
      mentionedUserIds: [gone.id],
    });
    await asSystem(ctx.db, (tx) =>
      tx.execute(sql`update profiles set is_active = false where id = ${gone.id}`),
    );
    expect(await ctx.app.mail.deliverDue()).toMatchObject({ discarded: 1, sent: 0 });
    expect(await messages(ctx.db)).toMatchObject([
      { status: 'discarded', last_error: 'Usuario desactivado' },
    ]);
    expect(smtp.received).toEqual([]);
  });

  /** A payment flow whose 'VB Jefe Inversiones' (2 days) opened at `openedAt`, assigned to `userId`. */
  async function approvalOpenedAt(openedAt: Date, userId: string) {
    const broker = await createBroker(ctx.db);
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    const commission = await createCommission(ctx.db, reservation);
    const flow = await createPaymentFlow(ctx.db, { brokerCommissionId: commission.id, at: openedAt });
    await flow.start({ at: openedAt });
    await flow.completeAll(['Solicitud Liquidación', 'Solicitud a Jefe Inversiones'], { at: openedAt });
    await flow.assign('VB Jefe Inversiones', userId, { at: openedAt });
    return flow;
  }

  it('writes the digest at 08:00 on business days only, once whoever asks', async () => {
    const user = await createUser(ctx.db, { userType: 'KAM', firstName: 'Daniela' });
    // Opened on 1 September, 2 days to complete: overdue since the 4th.
    await approvalOpenedAt(new Date('2026-09-01T14:00:00Z'), user.id);
    await clearOutbox();
    const db = ctx.appDb;
    // Thursday 17 before 08:00 in Santiago: not yet.
    expect(await runDailyJobs(db, new Date('2026-09-17T10:59:00Z'))).toEqual({ ran: false, messages: 0 });
    // Friday 18 (a holiday), Saturday 19 (a holiday), Sunday 20: never.
    expect((await runDailyJobs(db, new Date('2026-09-18T13:00:00Z'))).ran).toBe(false);
    expect((await runDailyJobs(db, new Date('2026-09-19T13:00:00Z'))).ran).toBe(false);
    expect((await runDailyJobs(db, new Date('2026-09-20T13:00:00Z'))).ran).toBe(false);
    // Thursday 17 at 08:00 (UTC-3 in September): once, whoever asks again.
    expect((await runDailyJobs(db, new Date('2026-09-17T11:00:00Z'))).ran).toBe(true);
    expect((await runDailyJobs(db, new Date('2026-09-17T11:05:00Z'))).ran).toBe(false);
    expect(
      (await messages(ctx.db)).filter((row) => row.kind === 'digest' && row.user_id === user.id),
    ).toHaveLength(1);
    // Monday 21 runs again; the digest reaches the user.
    expect((await runDailyJobs(db, new Date('2026-09-21T11:00:00Z'))).ran).toBe(true);
    clock.now = new Date('2026-09-21T11:01:00Z');
    await ctx.app.mail.deliverDue();
    const mail = smtp.received.filter((m) => m.envelopeTo.includes(user.email));
    expect(mail).toHaveLength(2);
    expect(mail[0]!.subject).toBe('Resumen diario: 1 tarea atrasada');
    expect(mail[0]!.text).toContain('VB Jefe Inversiones');
    expect(mail[0]!.text).toContain('Plazo: 03/09/2026');
  });

  it('reminds on Thursday of a deadline on Monday when Friday is a holiday, and not of later ones', async () => {
    const user = await createUser(ctx.db, { userType: 'KAM' });
    // Opened Saturday 19: due Monday 21. Opened Sunday 20: due Tuesday 22.
    await approvalOpenedAt(new Date('2026-09-19T14:00:00Z'), user.id);
    await approvalOpenedAt(new Date('2026-09-20T14:00:00Z'), user.id);
    await clearOutbox();
    expect((await runDailyJobs(ctx.appDb, new Date('2026-09-17T11:00:00Z'))).ran).toBe(true);
    const reminders = (await messages(ctx.db)).filter(
      (row) => row.kind === 'reminder' && row.user_id === user.id,
    );
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.notice_count).toBe(1);
    // A user who turned reminders off gets none.
    await asSystem(ctx.db, (tx) =>
      tx.execute(sql`insert into mail_preferences (user_id, reminders) values (${user.id}, false)`),
    );
    await clearOutbox();
    expect((await runDailyJobs(ctx.appDb, new Date('2026-09-21T11:00:00Z'))).ran).toBe(true);
    expect((await messages(ctx.db)).filter((row) => row.kind === 'reminder')).toEqual([]);
  });

  it('lets only administrators see the outbox, retry, send a test message and edit the holidays', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const admin = await loginAs(ctx);
    for (const [method, url, body] of [
      ['GET', '/api/mail/messages', undefined],
      ['POST', '/api/mail/messages/00000000-0000-4000-8000-000000000000/retry', undefined],
      ['POST', '/api/mail/test', undefined],
      ['POST', '/api/mail/holidays', { date: '2026-12-31', name: 'Feriado bancario' }],
      ['DELETE', '/api/mail/holidays/2026-12-25', undefined],
    ] as const) {
      const refused = await kam.request(method, url, body);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
    }
    // Everyone reads the holidays and keeps their own choices.
    const year = await kam.get('/api/mail/holidays?year=2026');
    expect(year.statusCode).toBe(200);
    expect(year.json().holidays).toContainEqual({ date: '2026-09-18', name: 'Independencia Nacional' });
    expect(year.json().holidays).toHaveLength(16);
    expect((await kam.get('/api/mail/preferences')).statusCode).toBe(200);

    expect((await admin.get('/api/mail/messages')).statusCode).toBe(200);
    const added = await admin.post('/api/mail/holidays', { date: '2026-12-31', name: 'Feriado bancario' });
    expect(added.statusCode, added.body).toBe(201);
    const twice = await admin.post('/api/mail/holidays', { date: '2026-12-31', name: 'Otra vez' });
    expect(twice.statusCode).toBe(409);
    expect(errorOf(twice).message).toBe('Ese día ya es feriado');
    expect((await admin.delete('/api/mail/holidays/2026-12-31')).statusCode).toBe(204);
    expect((await admin.delete('/api/mail/holidays/2026-12-31')).statusCode).toBe(404);
    const missing = await admin.post('/api/mail/messages/00000000-0000-4000-8000-000000000000/retry');
    expect(missing.statusCode).toBe(404);
    // Without a session: 401.
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: '/api/mail/preferences',
      headers: { origin: TEST_ORIGIN },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('SMTP_URL', () => {
  it('refuses to start with a malformed one, saying which variable and why', () => {
    expect(() => loadEnv({ SMTP_URL: 'mail.example.cl:25' })).toThrow(
      /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
    expect(() => loadEnv({ SMTP_URL: 'http://mail.example.cl' })).toThrow(/SMTP_URL/);
    expect(loadEnv({ SMTP_URL: 'smtps://user:secret@mail.example.cl:465' }).SMTP_URL).toBe(
      'smtps://user:secret@mail.example.cl:465',
    );
  });
});

// Two server instances over ONE database, as behind a load balancer (see login-throttle.test.ts):
// on PostgreSQL each with its own pool; the embedded database belongs to one process, so there the
// two apps share its one instance.
describe('two server instances on one database', () => {
  const url = testDatabaseUrl();
  let source: TestDatabaseSource | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    if (!url) source = await openTestDatabaseSource();
  });
  afterAll(async () => {
    await source?.close();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function twoInstances(): Promise<{ apps: FastifyInstance[]; db: Database }> {
    let handles: [DatabaseHandle, DatabaseHandle];
    if (url) {
      const database = await createPostgresTestDatabase(url);
      cleanups.push(() => database.drop());
      handles = [
        postgresHandle(postgresPool(database.url, 3)),
        postgresHandle(postgresPool(database.url, 3)),
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
        env: { LOG_LEVEL: 'silent', NODE_ENV: 'test', SMTP_URL: smtp.url },
      });
      cleanups.push(() => app.close());
      await app.ready();
      apps.push(app);
    }
    return { apps, db: systemDatabase(handles[0].db) };
  }

  it('sends each message exactly once when both senders run at the same time', async () => {
    const { apps, db } = await twoInstances();
    const users = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        createUser(db, { userType: 'KAM', email: `destino.${i}.${Date.now()}@inmoflujo.test` }),
      ),
    );
    await asSystem(db, (tx) =>
      tx.execute(sql`
        insert into mail_messages (kind, user_id, notices, send_after, next_attempt_at)
        select 'test', u.id, '[{"kind":"test"}]'::jsonb, ${START.toISOString()}::timestamptz, ${START.toISOString()}::timestamptz
          from unnest(${`{${users.map((u) => u.id).join(',')}}`}::uuid[]) as u(id), generate_series(1, 20)`),
    );
    const results = await Promise.all([
      apps[0]!.mail.deliverDue(),
      apps[1]!.mail.deliverDue(),
      apps[0]!.mail.deliverDue(),
      apps[1]!.mail.deliverDue(),
    ]);
    const sent = results.reduce((sum, result) => sum + result.sent, 0);
    expect(sent).toBe(120);
    expect(smtp.received).toHaveLength(120);
    const ids = new Set(smtp.received.map((mail) => mail.messageId));
    expect(ids.size).toBe(120);
    const [counts] = await queryRows<{ sent: number; other: number }>(
      db,
      sql`select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status <> 'sent')::int as other
            from mail_messages`,
    );
    expect(counts).toEqual({ sent: 120, other: 0 });
  });

  it('runs the daily digest once whichever instance ticks first', async () => {
    const { db } = await twoInstances();
    const at = new Date('2026-09-17T11:00:00Z');
    const runs = await Promise.all([runDailyJobs(db, at), runDailyJobs(db, at), runDailyJobs(db, at)]);
    expect(runs.filter((run) => run.ran)).toHaveLength(1);
  });
});
