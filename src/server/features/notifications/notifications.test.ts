import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FOLLOW_UP_STAGE_ORDER } from '../../../shared/domain/workflow/names';
import { encodeInboxCursor, INBOX_FIRST_PAGE_SIZE } from '../../../shared/schemas/notifications';
import { queryRows } from '../../db/client';
import { Agent, errorOf, loginAs, type TestContext, useTestApp } from '../../test/app';
import { createBroker, createReservation } from '../../test/builders';
import { createCommission, createPaymentFlow, createSaleFlow } from '../../test/flow-builders';
import { pendingTaskRowsOf, pendingTasksOf } from '../workflows/workflows.service';
import { type InboxScope, inboxPageSql } from './notifications.queries';

/** The sale flow's first stage, Reserva, in the flow's order: its tasks go to the seller at the start. */
const COF_TASKS = ['COF PENDIENTE GENERACIÓN', 'COF PENDIENTE FIRMA', 'SOLICITUD VB COF PENDIENTE'];
/** Promesa's tasks, in the flow's order. */
const PROMESA_TASKS = [
  'PENDIENTE GENERACIÓN PROMESA',
  'PENDIENTE ORIGEN DE FONDOS',
  'PENDIENTE VB PROMESA',
  'FIRMA PROMESA COORDINADA',
  'PROMESA DE COMPRA ENTREGADA A OPERACIONES',
  'PROMESA DE COMPRA ENTREGA A CLIENTE',
];

describe('GET /api/notifications/count (the bell badge)', () => {
  const ctx = useTestApp();

  it('counts only the user’s open tasks of flows in progress, sale and payment alike', async () => {
    const ana = await loginAs(ctx, { firstName: 'Ana', email: 'ana@inmoflujo.test' });
    const otro = await loginAs(ctx, { firstName: 'Otro', email: 'otro@inmoflujo.test' });
    const me = ana.user!.id;
    const other = otro.user!.id;

    expect((await ana.get('/api/notifications/count')).json()).toEqual({ count: 0 });

    // Sale flow in progress: two open tasks of mine (pending, in progress) count; a completed one
    // (its assignees removed) and a blocked one do not.
    const sale = await createSaleFlow(ctx.db, { reservationId: (await createReservation(ctx.db)).id });
    await sale.assign('COF PENDIENTE GENERACIÓN', me);
    await sale.assign('COF PENDIENTE GENERACIÓN', other);
    for (const task of [
      'COF PENDIENTE FIRMA',
      'SOLICITUD VB COF PENDIENTE',
      'PENDIENTE GENERACIÓN PROMESA',
    ]) {
      await sale.assign(task, me);
    }
    await sale.setStatus('COF PENDIENTE FIRMA', 'in_progress');
    await sale.complete('SOLICITUD VB COF PENDIENTE');
    await sale.setStatus('PENDIENTE GENERACIÓN PROMESA', 'blocked');
    // A cancelled or completed sale flow counts nothing.
    const cancelled = await createSaleFlow(ctx.db, { reservationId: (await createReservation(ctx.db)).id });
    await cancelled.assign('COF PENDIENTE GENERACIÓN', me);
    await cancelled.cancel();
    const completed = await createSaleFlow(ctx.db, { reservationId: (await createReservation(ctx.db)).id });
    await completed.completeAll(completed.taskNames());
    // An administrator may still assign a completed task: it is nobody's pending work.
    await completed.assign('REPARO BANCO', me);
    expect((await completed.state()).status).toBe('completed');

    const broker = await createBroker(ctx.db);
    const withBroker = () => createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    // Payment flow in progress: two open tasks of mine; blocked, completed and the other user's
    // tasks are not counted.
    const payment = await createPaymentFlow(ctx.db, {
      brokerCommissionId: (await createCommission(ctx.db, await withBroker())).id,
    });
    await payment.start();
    await payment.complete('Solicitud Liquidación');
    // An administrator reopens it: open again beside the task it opened (reopening never cascades).
    await payment.setStatus('Solicitud Liquidación', 'pending');
    await payment.assign('Solicitud Liquidación', me);
    await payment.setStatus('Solicitud a Jefe Inversiones', 'in_progress');
    await payment.assign('Solicitud a Jefe Inversiones', me);
    await payment.assign('VB Jefe Inversiones', me);
    const theirs = await createPaymentFlow(ctx.db, {
      brokerCommissionId: (await createCommission(ctx.db, await withBroker())).id,
    });
    await theirs.start();
    await theirs.assign('Solicitud Liquidación', other);
    // A pending payment flow (not started) counts nothing.
    await createPaymentFlow(ctx.db, {
      brokerCommissionId: (await createCommission(ctx.db, await withBroker())).id,
    });

    const mine = await ana.get('/api/notifications/count');
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({ count: 4 });
    expect((await otro.get('/api/notifications/count')).json()).toEqual({ count: 2 });

    // The list the notifications screen shows has exactly the tasks the badge counts.
    const list = await queryRows<{ kind: string; task_name: string; stage_name: string }>(
      ctx.db,
      sql`select * from (${pendingTasksOf(me)}) as pending order by kind, stage_order, task_order`,
    );
    expect(list.map((row) => `${row.kind}: ${row.task_name}`)).toEqual([
      'payment: Solicitud Liquidación',
      'payment: Solicitud a Jefe Inversiones',
      'sale: COF PENDIENTE GENERACIÓN',
      'sale: COF PENDIENTE FIRMA',
    ]);
    expect(list.every((row) => row.stage_name)).toBe(true);
  });

  it('needs a session', async () => {
    const response = await new Agent(ctx.app).get('/api/notifications/count');
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHENTICATED');
  });
});

// --- The task inboxes ------------------------------------------------------------------------------

interface Card {
  id: string;
  flowId: string;
  kind: string;
  taskName: string;
  stageName: string;
  assignee: { id: string } | null;
  assignedAt: string;
  daysSinceStart: number | null;
  daysLate: number;
}
interface Group {
  stage: string;
  total: number;
  totalIsCapped: boolean;
  rows: Card[];
  nextCursor: string | null;
}

/** Every card of an inbox, following each group's pages ('Ver más') to its end. */
async function everyCard(agent: Agent, url: string): Promise<{ groups: Group[]; cards: Card[] }> {
  const first = await agent.get(url);
  expect(first.statusCode).toBe(200);
  const groups = (first.json() as { groups: Group[] }).groups;
  const cards: Card[] = [];
  for (const group of groups) {
    cards.push(...group.rows);
    let cursor = group.nextCursor;
    while (cursor) {
      const separator = url.includes('?') ? '&' : '?';
      const next = await agent.get(
        `${url}${separator}stage=${encodeURIComponent(group.stage)}&after=${encodeURIComponent(cursor)}`,
      );
      expect(next.statusCode).toBe(200);
      const [page] = (next.json() as { groups: Group[] }).groups;
      expect(page!.stage).toBe(group.stage);
      expect(page!.total).toBe(group.total);
      cards.push(...page!.rows);
      cursor = page!.nextCursor;
    }
    expect(cards.filter((card) => card.stageName === group.stage)).toHaveLength(group.total);
  }
  return { groups, cards };
}

/** The inbox table holds exactly the engine's pending set, for every user. */
async function expectInboxIsThePendingSet(db: TestContext['db']) {
  const inbox = await queryRows<{ key: string }>(
    db,
    sql`select flow_task_id || ':' || user_id as key from task_inbox order by 1`,
  );
  const pending = await queryRows<{ key: string }>(
    db,
    sql`select p.task_row_id || ':' || u.id as key
          from profiles u cross join lateral (${pendingTaskRowsOf(sql`u.id`)}) as p order by 1`,
  );
  expect(inbox.map((row) => row.key)).toEqual(pending.map((row) => row.key));
}

describe('GET /api/notifications (Mis Tareas Pendientes: the user’s own)', () => {
  const ctx = useTestApp();

  it('is the badge’s set after every kind of change: assigned, unassigned, completed, reopened, blocked, flow started, cancelled, completed', async () => {
    const ana = await loginAs(ctx, { firstName: 'Ana', userType: 'KAM', email: 'ana@inmoflujo.test' });
    const otro = await loginAs(ctx, {
      firstName: 'Otro',
      userType: 'Operaciones',
      email: 'otro@inmoflujo.test',
    });
    const me = ana.user!.id;
    const other = otro.user!.id;

    const expectAgree = async (expected: Record<string, number>) => {
      for (const [agent, name] of [
        [ana, 'ana'],
        [otro, 'otro'],
      ] as const) {
        const count = (await agent.get('/api/notifications/count')).json().count as number;
        const { groups, cards } = await everyCard(agent, '/api/notifications');
        const set = await queryRows<{ task_row_id: string }>(ctx.db, pendingTasksOf(agent.user!.id));
        expect({ name, count }).toEqual({ name, count: expected[name] });
        expect(groups.reduce((sum, group) => sum + group.total, 0)).toBe(count);
        expect(cards.map((card) => card.id).sort()).toEqual(set.map((row) => row.task_row_id).sort());
        expect(cards.every((card) => card.assignee?.id === agent.user!.id)).toBe(true);
      }
      await expectInboxIsThePendingSet(ctx.db);
    };

    await expectAgree({ ana: 0, otro: 0 });
    // A flow started (a reservation's sale flow): the COF tasks go to its seller.
    const sale = await createSaleFlow(ctx.db, {
      reservationId: (await createReservation(ctx.db)).id,
      sellerId: me,
    });
    await expectAgree({ ana: 3, otro: 0 });
    // Assigned, to a task of a later stage (pending, not started) and to another user.
    await sale.assign('PENDIENTE GENERACIÓN PROMESA', me);
    await sale.assign('COF PENDIENTE FIRMA', other);
    await expectAgree({ ana: 4, otro: 1 });
    // Unassigned.
    await sale.unassign('PENDIENTE GENERACIÓN PROMESA', me);
    await expectAgree({ ana: 3, otro: 1 });
    // Completed (its assignees leave it), then reopened and given back.
    await sale.complete('COF PENDIENTE GENERACIÓN');
    await expectAgree({ ana: 2, otro: 1 });
    await sale.setStatus('COF PENDIENTE GENERACIÓN', 'in_progress');
    await sale.assign('COF PENDIENTE GENERACIÓN', me);
    await expectAgree({ ana: 3, otro: 1 });
    // Blocked, and open again.
    await sale.setStatus('COF PENDIENTE FIRMA', 'blocked');
    await expectAgree({ ana: 2, otro: 0 });
    await sale.setStatus('COF PENDIENTE FIRMA', 'pending');
    await expectAgree({ ana: 3, otro: 1 });

    // A payment flow: nothing while pending; started, its open task assigned.
    const broker = await createBroker(ctx.db);
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    const payment = await createPaymentFlow(ctx.db, {
      brokerCommissionId: (await createCommission(ctx.db, reservation)).id,
    });
    await payment.start();
    await payment.assign('Solicitud Liquidación', me);
    await expectAgree({ ana: 4, otro: 1 });
    // The sale flow cancelled: its tasks leave every list.
    await sale.cancel();
    await expectAgree({ ana: 1, otro: 0 });
    // The payment flow completed: nothing left.
    await payment.completeAll(payment.taskNames());
    expect((await payment.state()).status).toBe('completed');
    await expectAgree({ ana: 0, otro: 0 });
    // Reopened: the flow is in progress again with one open task, nobody's.
    await payment.setStatus('Fecha de Pago', 'in_progress');
    await payment.assign('Fecha de Pago', other);
    await expectAgree({ ana: 0, otro: 1 });
  });

  it('groups by stage in the fixed order, newest first, with the card’s figures and where it leads', async () => {
    const ana = await loginAs(ctx, { firstName: 'Ana', userType: 'KAM', email: 'ana@inmoflujo.test' });
    const me = ana.user!.id;
    const now = Date.now();
    const day = 86_400_000;
    // Sale tasks in Reparos, Reserva and Promesa; payment tasks in Solicitud Liquidación and
    // Aprobación Jefe Inversiones.
    const older = await createSaleFlow(ctx.db, {
      reservationId: (await createReservation(ctx.db)).id,
      sellerId: me,
      at: new Date(now - 5 * day),
    });
    const newer = await createSaleFlow(ctx.db, {
      reservationId: (await createReservation(ctx.db)).id,
      sellerId: me,
      at: new Date(now - 2 * day),
    });
    await older.assign('REPARO BANCO', me, { at: new Date(now - 4 * day) });
    await newer.assign('PENDIENTE ORIGEN DE FONDOS', me, { at: new Date(now - day) });
    const broker = await createBroker(ctx.db);
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    const payment = await createPaymentFlow(ctx.db, {
      brokerCommissionId: (await createCommission(ctx.db, reservation)).id,
    });
    await payment.start({ at: new Date(now - 6 * day) });
    await payment.assign('Solicitud Liquidación', me, { at: new Date(now - 6 * day) });
    await payment.complete('Solicitud Liquidación', { at: new Date(now - 5 * day) });
    await payment.assign('Solicitud a Jefe Inversiones', me, { at: new Date(now - 5 * day) });

    const response = await ana.get('/api/notifications');
    expect(response.statusCode).toBe(200);
    const { groups } = response.json() as { groups: Group[] };
    expect(groups.map((group) => group.stage)).toEqual([
      'Reparos',
      'Reserva',
      'Promesa',
      'Aprobación Jefe Inversiones',
    ]);
    expect(groups.map((group) => group.stage)).toEqual(
      FOLLOW_UP_STAGE_ORDER.filter((stage) => groups.some((group) => group.stage === stage)),
    );
    const reserva = groups[1]!;
    expect(reserva.total).toBe(6);
    // Newest first: the newer flow's three COF tasks, then the older flow's.
    expect(reserva.rows.map((card) => card.flowId)).toEqual([
      ...Array(3).fill(newer.id),
      ...Array(3).fill(older.id),
    ]);
    const approval = groups[3]!.rows[0]!;
    expect(approval).toMatchObject({
      kind: 'payment',
      flowId: payment.id,
      taskName: 'Solicitud a Jefe Inversiones',
      stageName: 'Aprobación Jefe Inversiones',
      status: 'pending',
      reservationNumber: reservation.reservationNumber,
      apartmentNumber: reservation.apartmentNumber,
      brokerName: broker.name,
      daysToComplete: 1,
      // Started 5 days ago with 1 day to complete.
      daysSinceStart: 5,
      daysLate: 4,
    });
    expect(groups[0]!.rows[0]).toMatchObject({ kind: 'sale', flowId: older.id, taskName: 'REPARO BANCO' });
    // A task of a stage the flow has not reached: not started, and where the flow is says why.
    expect(groups[2]!.rows[0]).toMatchObject({
      taskName: 'PENDIENTE ORIGEN DE FONDOS',
      startedAt: null,
      daysSinceStart: null,
      flowStageName: 'Reserva',
    });
  });

  it('pages a group on the server by keyset: no card twice, none missed, the same order', async () => {
    const ana = await loginAs(ctx, { firstName: 'Ana', userType: 'KAM', email: 'ana@inmoflujo.test' });
    const start = Date.now() - 30 * 86_400_000;
    for (let index = 0; index < 5; index++) {
      await createSaleFlow(ctx.db, {
        reservationId: (await createReservation(ctx.db)).id,
        sellerId: ana.user!.id,
        // Two flows at the same instant: the task row breaks the tie.
        at: new Date(start + Math.floor(index / 2) * 3_600_000),
      });
    }
    const first = (await ana.get('/api/notifications')).json() as { groups: Group[] };
    expect(first.groups).toHaveLength(1);
    expect(first.groups[0]).toMatchObject({ stage: 'Reserva', total: 15, totalIsCapped: false });
    expect(first.groups[0]!.rows).toHaveLength(INBOX_FIRST_PAGE_SIZE);
    expect(first.groups[0]!.nextCursor).toEqual(expect.any(String));
    const { cards } = await everyCard(ana, '/api/notifications');
    expect(cards).toHaveLength(15);
    expect(new Set(cards.map((card) => card.id)).size).toBe(15);
    const instants = cards.map((card) => Date.parse(card.assignedAt));
    expect(instants).toEqual([...instants].sort((a, b) => b - a));
    // Pages of six split flows: each flow's three cards still come together, in the flow's order.
    const flows = cards.map((card) => card.flowId);
    expect(flows.filter((flow, index) => flow !== flows[index - 1])).toHaveLength(5);
    expect(cards.map((card) => card.taskName)).toEqual(Array(5).fill(COF_TASKS).flat());
  });

  it('orders the cards of one instant by flow, then in the flow’s own task order, off the inbox indexes', async () => {
    const ana = await loginAs(ctx, { firstName: 'Ana', userType: 'KAM', email: 'ana@inmoflujo.test' });
    const admin = await loginAs(ctx, { firstName: 'Admin', email: 'admin@inmoflujo.test' });
    const at = new Date(Date.now() - 86_400_000);
    for (let index = 0; index < 3; index++) {
      const flow = await createSaleFlow(ctx.db, {
        reservationId: (await createReservation(ctx.db)).id,
        sellerId: ana.user!.id,
        at,
      });
      // Promesa's tasks given to her at one instant too, in reverse flow order.
      for (const task of [...PROMESA_TASKS].reverse()) await flow.assign(task, ana.user!.id, { at });
    }
    for (const url of ['/api/notifications', '/api/notifications/follow-up']) {
      const agent = url.endsWith('follow-up') ? admin : ana;
      const { groups, cards } = await everyCard(agent, url);
      expect(groups.map((group) => group.stage)).toEqual(['Reserva', 'Promesa']);
      const names = (stage: string) =>
        cards.filter((card) => card.stageName === stage).map((card) => card.taskName);
      expect(names('Reserva')).toEqual(Array(3).fill(COF_TASKS).flat());
      expect(names('Promesa')).toEqual(Array(3).fill(PROMESA_TASKS).flat());
    }

    // The page is still read off its index, backwards, without sorting the inbox: one user's off
    // task_inbox_user_idx (the other index dropped for the plan, in a transaction rolled back: on so
    // few rows the planner may take either), everyone's off task_inbox_all_idx.
    await ctx.db.execute(sql`analyze task_inbox`);
    const planOf = async (scope: InboxScope, drop: string) => {
      let plan = '';
      await ctx.db
        .transaction(async (tx) => {
          await tx.execute(sql`set local enable_seqscan = off`);
          await tx.execute(sql`drop index ${sql.identifier(drop)}`);
          const rows = await queryRows<Record<string, string>>(
            tx,
            sql`explain ${inboxPageSql(scope, { stage: 'Promesa', pageSize: 12, countCap: 1000 })}`,
          );
          plan = rows.map((row) => Object.values(row)[0]).join('\n');
          tx.rollback();
        })
        .catch(() => {});
      return plan;
    };
    const mine = await planOf({ userId: ana.user!.id }, 'task_inbox_all_idx');
    expect(mine).toMatch(/Index (Only )?Scan Backward using task_inbox_user_idx/);
    const everyone = await planOf({ userId: null }, 'task_inbox_user_idx');
    expect(everyone).toMatch(/Index (Only )?Scan Backward using task_inbox_all_idx/);
    for (const plan of [mine, everyone]) expect(plan).not.toMatch(/Sort Key: [^\n]*(assigned_at|task_order)/);
    // Both indexes are back.
    const indexes = await queryRows<{ indexname: string }>(
      ctx.db,
      sql`select indexname from pg_indexes where tablename = 'task_inbox' order by 1`,
    );
    expect(indexes.map((row) => row.indexname)).toEqual(
      expect.arrayContaining(['task_inbox_all_idx', 'task_inbox_user_idx']),
    );
  });

  it('refuses a page it cannot read, in Spanish, and needs a session', async () => {
    const ana = await loginAs(ctx, { userType: 'KAM' });
    const bad = await ana.get('/api/notifications?stage=Reserva&after=no-es-un-cursor');
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields?.after).toBe('La página pedida no es válida: vuelva a cargar la lista');
    const cursor = encodeInboxCursor({
      negStageOrder: -1,
      assignedAt: '2026-01-01T00:00:00.000000Z',
      flowId: '00000000-0000-4000-8000-000000000000',
      negTaskOrder: -1,
      flowTaskId: '00000000-0000-4000-8000-000000000000',
      userId: ana.user!.id,
    });
    const noStage = await ana.get(`/api/notifications?after=${cursor}`);
    expect(noStage.statusCode).toBe(400);
    expect(errorOf(noStage).fields?.stage).toBe('Indique la etapa de la página pedida');
    const unknown = await ana.get('/api/notifications?color=rojo');
    expect(unknown.statusCode).toBe(400);
    // A page past the end of a group is empty.
    const past = await ana.get(`/api/notifications?stage=Reserva&after=${cursor}`);
    expect(past.json()).toEqual({ groups: [], overdueDataRequests: [] });
    expect((await new Agent(ctx.app).get('/api/notifications')).statusCode).toBe(401);
    expect((await new Agent(ctx.app).get('/api/notifications/follow-up')).statusCode).toBe(401);
  });
});

describe('GET /api/notifications/follow-up (Seguimiento)', () => {
  const ctx = useTestApp();

  async function twoUsersWithTasks() {
    const admin = await loginAs(ctx, { firstName: 'Admin', email: 'admin@inmoflujo.test' });
    const ana = await loginAs(ctx, { firstName: 'Ana', userType: 'KAM', email: 'ana@inmoflujo.test' });
    const bruno = await loginAs(ctx, {
      firstName: 'Bruno',
      userType: 'Supervisor',
      email: 'bruno@inmoflujo.test',
    });
    const sale = await createSaleFlow(ctx.db, {
      reservationId: (await createReservation(ctx.db)).id,
      sellerId: ana.user!.id,
    });
    await sale.assign('REPARO COMERCIAL', bruno.user!.id);
    // A task of two assignees is a card for each.
    await sale.assign('COF PENDIENTE FIRMA', bruno.user!.id);
    const broker = await createBroker(ctx.db);
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    const payment = await createPaymentFlow(ctx.db, {
      brokerCommissionId: (await createCommission(ctx.db, reservation)).id,
    });
    await payment.start();
    await payment.assign('Solicitud Liquidación', bruno.user!.id);
    return { admin, ana, bruno, sale, payment };
  }

  it('shows an administrator everyone’s open assigned tasks in the fixed stage order, or one user’s', async () => {
    const { admin, ana, bruno, payment } = await twoUsersWithTasks();
    const all = await everyCard(admin, '/api/notifications/follow-up');
    expect(all.groups.map((group) => group.stage)).toEqual(['Reparos', 'Reserva', 'Solicitud Liquidación']);
    expect(all.groups.map((group) => group.total)).toEqual([1, 4, 1]);
    const assignees = (stage: string) =>
      all.cards.filter((card) => card.stageName === stage).map((card) => card.assignee?.id);
    expect(assignees('Reparos')).toEqual([bruno.user!.id]);
    expect(assignees('Reserva').sort()).toEqual([...Array(3).fill(ana.user!.id), bruno.user!.id].sort());
    expect(all.cards.find((card) => card.kind === 'payment')).toMatchObject({
      flowId: payment.id,
      taskName: 'Solicitud Liquidación',
      assignee: { id: bruno.user!.id, firstName: 'Bruno' },
    });

    const onlyBruno = await everyCard(admin, `/api/notifications/follow-up?userId=${bruno.user!.id}`);
    expect(onlyBruno.groups.map((group) => group.stage)).toEqual([
      'Reparos',
      'Reserva',
      'Solicitud Liquidación',
    ]);
    expect(onlyBruno.cards.every((card) => card.assignee?.id === bruno.user!.id)).toBe(true);
    expect(onlyBruno.cards).toHaveLength(3);
    // One user's follow-up is their notification list.
    const brunoOwn = await everyCard(bruno, '/api/notifications');
    expect(onlyBruno.cards.map((card) => card.id)).toEqual(brunoOwn.cards.map((card) => card.id));

    const nobody = await admin.get(
      '/api/notifications/follow-up?userId=00000000-0000-4000-8000-000000000000',
    );
    expect(nobody.statusCode).toBe(404);
    expect(errorOf(nobody).code).toBe('USER_NOT_FOUND');
  });

  it('answers anyone else their own tasks and refuses another user’s', async () => {
    const { ana, bruno } = await twoUsersWithTasks();
    const own = await everyCard(ana, '/api/notifications/follow-up');
    expect(own.cards).toHaveLength(3);
    expect(own.cards.every((card) => card.assignee?.id === ana.user!.id)).toBe(true);
    const ownByName = await ana.get(`/api/notifications/follow-up?userId=${ana.user!.id}`);
    expect(ownByName.statusCode).toBe(200);
    const other = await ana.get(`/api/notifications/follow-up?userId=${bruno.user!.id}`);
    expect(other.statusCode).toBe(403);
    expect(errorOf(other).code).toBe('FORBIDDEN');
  });
});
