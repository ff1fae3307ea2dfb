import { type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FOLLOW_UP_STAGE_ORDER } from '../../../shared/domain/workflow/names';
import { encodeInboxCursor, INBOX_FIRST_PAGE_SIZE } from '../../../shared/schemas/notifications';
import { queryRows } from '../../db/client';
import { pageSql } from '../../db/paging';
import { Agent, errorOf, loginAs, type TestContext, useTestApp } from '../../test/app';
import { createBroker, createProject, createReservation, createUser, loadInBulk } from '../../test/builders';
import { createCommission, createPaymentFlow, createSaleFlow } from '../../test/flow-builders';
import { pendingTaskRowsOf, pendingTasksOf } from '../workflows/workflows.service';
import { type InboxScope, inboxPageSql, mentionPageSql } from './notifications.queries';

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

    expect((await ana.get('/api/notifications/count')).json()).toEqual({
      count: 0,
      tasks: 0,
      mentions: 0,
      dataRequests: 0,
    });

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
    expect(mine.json()).toEqual({ count: 4, tasks: 4, mentions: 0, dataRequests: 0 });
    expect((await otro.get('/api/notifications/count')).json()).toEqual({
      count: 2,
      tasks: 2,
      mentions: 0,
      dataRequests: 0,
    });

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

// --- Mentions (decision 0030) ----------------------------------------------------------------------

interface Mention {
  commentId: string;
  flowId: string;
  kind: string;
  taskId: string;
  taskName: string;
  content: string;
  createdAt: string;
  readAt: string | null;
}

describe('mentions on /notificaciones and the bell (issue 28 §3)', () => {
  /** The app's clock: 10:42 on 12 March 2027 in Santiago. */
  const NOW = new Date('2027-03-12T13:42:00Z');
  const ctx = useTestApp({ now: () => NOW });

  async function people() {
    const alicia = await loginAs(ctx, { firstName: 'Alicia', lastName: 'Administradora' });
    const catalina = await loginAs(ctx, { firstName: 'Catalina', lastName: 'Núñez', userType: 'KAM' });
    const otro = await loginAs(ctx, { firstName: 'Otro', lastName: 'Usuario', userType: 'KAM' });
    return { alicia, catalina, otro };
  }

  async function saleFlow() {
    const project = await createProject(ctx.db, { name: 'Edificio Los Aromos', stage: 'Etapa 2' });
    const reservation = await createReservation(ctx.db, { projectId: project.id });
    const flow = await createSaleFlow(ctx.db, { reservationId: reservation.id });
    return { reservation, flow };
  }

  async function comment(
    agent: Agent,
    flow: { id: string; task(name: string): string },
    task: string,
    content: string,
    mentioned: Agent[],
    base = '/api/sale-flows',
  ): Promise<string> {
    const response = await agent.post(`${base}/${flow.id}/tasks/${flow.task(task)}/comments`, {
      content,
      mentionedUserIds: mentioned.map((user) => user.user!.id),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  }

  const mentionsOf = async (agent: Agent, query = '') => {
    const response = await agent.get(`/api/notifications/mentions${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { rows: Mention[]; total: number; totalIsCapped: boolean };
  };
  const countOf = async (agent: Agent) => (await agent.get('/api/notifications/count')).json();

  it('reaches the mentioned user only, with who wrote it, where, the text and when; the bell counts it until read', async () => {
    const { alicia, catalina, otro } = await people();
    const { reservation, flow } = await saleFlow();
    const commentId = await comment(
      alicia,
      flow,
      'COF PENDIENTE FIRMA',
      '@Catalina Núñez revisa la promesa antes del viernes',
      [catalina],
    );

    const page = await mentionsOf(catalina);
    expect(page).toEqual({
      rows: [
        {
          commentId,
          flowId: flow.id,
          kind: 'sale',
          isSecondPayment: false,
          taskId: flow.task('COF PENDIENTE FIRMA'),
          taskName: 'COF PENDIENTE FIRMA',
          stageName: 'Reserva',
          reservationId: reservation.id,
          reservationNumber: reservation.reservationNumber,
          apartmentNumber: reservation.apartmentNumber,
          projectName: 'Edificio Los Aromos',
          projectStage: 'Etapa 2',
          author: { id: alicia.user!.id, firstName: 'Alicia', lastName: 'Administradora', avatarUrl: null },
          content: '@Catalina Núñez revisa la promesa antes del viernes',
          mentions: [{ id: catalina.user!.id, firstName: 'Catalina', lastName: 'Núñez' }],
          createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          readAt: null,
        },
      ],
      total: 1,
      totalIsCapped: false,
    });
    // The mention's instant is its comment's.
    const [stored] = await queryRows<{ same: boolean }>(
      ctx.db,
      sql`select m.created_at = c.created_at as same
            from flow_task_comment_mentions m join flow_task_comments c on c.id = m.comment_id
           where m.comment_id = ${commentId}`,
    );
    expect(stored!.same).toBe(true);
    // Nobody else has it: not the author, not another user.
    expect(await mentionsOf(otro)).toEqual({ rows: [], total: 0, totalIsCapped: false });
    expect((await mentionsOf(alicia)).total).toBe(0);
    expect(await countOf(catalina)).toEqual({ count: 1, tasks: 0, mentions: 1, dataRequests: 0 });
    expect((await countOf(otro)).count).toBe(0);

    // A payment flow's comment: a mention of the payment flow.
    const broker = await createBroker(ctx.db);
    const withBroker = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    const payment = await createPaymentFlow(ctx.db, {
      brokerCommissionId: (await createCommission(ctx.db, withBroker)).id,
    });
    await payment.start();
    await payment.assign('Solicitud Liquidación', catalina.user!.id);
    await comment(
      otro,
      payment,
      'Solicitud Liquidación',
      'Falta la factura, @Catalina Núñez',
      [catalina],
      '/api/payment-flows',
    );
    const both = await mentionsOf(catalina);
    expect(both.rows.map((row) => [row.kind, row.taskName, row.content])).toEqual([
      ['payment', 'Solicitud Liquidación', 'Falta la factura, @Catalina Núñez'],
      ['sale', 'COF PENDIENTE FIRMA', '@Catalina Núñez revisa la promesa antes del viernes'],
    ]);
    expect(await countOf(catalina)).toEqual({ count: 3, tasks: 1, mentions: 2, dataRequests: 0 });

    // Read: the bell drops, the list says when, 'Sin leer' leaves it out.
    const read = await catalina.post(`/api/notifications/mentions/${commentId}/read`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ mention: { commentId, readAt: NOW.toISOString() } });
    expect(await countOf(catalina)).toEqual({ count: 2, tasks: 1, mentions: 1, dataRequests: 0 });
    const after = await mentionsOf(catalina);
    expect(after.rows.map((row) => row.readAt)).toEqual([null, NOW.toISOString()]);
    const unread = await mentionsOf(catalina, '?status=unread');
    expect(unread.total).toBe(1);
    expect(unread.rows.map((row) => row.kind)).toEqual(['payment']);
    // Marking it again keeps the first instant.
    const again = await catalina.post(`/api/notifications/mentions/${commentId}/read`);
    expect(again.json()).toEqual({ mention: { commentId, readAt: NOW.toISOString() } });
  });

  it('lets only the mentioned user mark their mention read: anyone else gets 404 and nothing changes', async () => {
    const { alicia, catalina, otro } = await people();
    const { flow } = await saleFlow();
    const commentId = await comment(alicia, flow, 'COF PENDIENTE FIRMA', 'Hola @Catalina Núñez', [catalina]);

    for (const stranger of [otro, alicia]) {
      const refused = await stranger.post(`/api/notifications/mentions/${commentId}/read`);
      expect(refused.statusCode).toBe(404);
      expect(errorOf(refused)).toMatchObject({
        code: 'MENTION_NOT_FOUND',
        message: 'No tiene una mención en ese comentario',
      });
    }
    expect((await mentionsOf(catalina)).rows[0]!.readAt).toBeNull();
    expect((await countOf(catalina)).mentions).toBe(1);
    // Another user's 'Marcar todas' marks only their own (none).
    expect((await otro.post('/api/notifications/mentions/read-all')).json()).toEqual({ marked: 0 });
    expect((await countOf(catalina)).mentions).toBe(1);

    const unknown = await catalina.post(
      '/api/notifications/mentions/00000000-0000-4000-8000-000000000000/read',
    );
    expect(unknown.statusCode).toBe(404);
    const malformed = await catalina.post('/api/notifications/mentions/no-es-un-id/read');
    expect(malformed.statusCode).toBe(400);
    const anonymous = new Agent(ctx.app);
    expect((await anonymous.post(`/api/notifications/mentions/${commentId}/read`)).statusCode).toBe(401);
    expect((await anonymous.post('/api/notifications/mentions/read-all')).statusCode).toBe(401);
    expect((await anonymous.get('/api/notifications/mentions')).statusCode).toBe(401);
    expect((await mentionsOf(catalina)).rows[0]!.readAt).toBeNull();
  });

  it('marks every unread mention of the user read at once, and no one else’s', async () => {
    const { alicia, catalina, otro } = await people();
    const { flow } = await saleFlow();
    const first = await comment(alicia, flow, 'COF PENDIENTE FIRMA', '@Catalina Núñez uno', [catalina]);
    await comment(alicia, flow, 'COF PENDIENTE FIRMA', '@Catalina Núñez y @Otro Usuario dos', [
      catalina,
      otro,
    ]);
    await comment(otro, flow, 'REPARO BANCO', '@Catalina Núñez tres', [catalina]);
    await catalina.post(`/api/notifications/mentions/${first}/read`);
    expect((await countOf(catalina)).mentions).toBe(2);

    const all = await catalina.post('/api/notifications/mentions/read-all');
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual({ marked: 2 });
    expect((await countOf(catalina)).mentions).toBe(0);
    const rows = (await mentionsOf(catalina)).rows;
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.readAt === NOW.toISOString())).toBe(true);
    expect((await mentionsOf(catalina, '?status=unread')).total).toBe(0);
    // Otro's mention in the same comment is still unread.
    expect((await countOf(otro)).mentions).toBe(1);
    expect((await catalina.post('/api/notifications/mentions/read-all')).json()).toEqual({ marked: 0 });
  });

  it('pages newest first, every one or the unread only, no mention twice nor missed', async () => {
    const { alicia, catalina } = await people();
    const { flow } = await saleFlow();
    const ids: string[] = [];
    for (let index = 1; index <= 12; index++) {
      ids.push(
        await comment(alicia, flow, 'COF PENDIENTE FIRMA', `Aviso ${index} @Catalina Núñez`, [catalina]),
      );
    }
    const newestFirst = [...ids].reverse();
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const response = await mentionsOf(catalina, `?page=${page}&pageSize=5`);
      expect(response.total).toBe(12);
      seen.push(...response.rows.map((row) => row.commentId));
    }
    expect(seen).toEqual(newestFirst);
    const instants = (await mentionsOf(catalina, '?pageSize=12')).rows.map((row) =>
      Date.parse(row.createdAt),
    );
    expect(instants).toEqual([...instants].sort((a, b) => b - a));
    // The default page is the 10 newest.
    expect((await mentionsOf(catalina)).rows.map((row) => row.commentId)).toEqual(newestFirst.slice(0, 10));

    // Read the newest and the fourth: 'Sin leer' pages the other ten, newest first.
    for (const id of [newestFirst[0]!, newestFirst[3]!]) {
      await catalina.post(`/api/notifications/mentions/${id}/read`);
    }
    const unreadIds = newestFirst.filter((_, index) => index !== 0 && index !== 3);
    const unreadSeen: string[] = [];
    for (const page of [1, 2]) {
      const response = await mentionsOf(catalina, `?status=unread&page=${page}&pageSize=6`);
      expect(response.total).toBe(10);
      unreadSeen.push(...response.rows.map((row) => row.commentId));
    }
    expect(unreadSeen).toEqual(unreadIds);
    expect((await mentionsOf(catalina, '?page=9')).rows).toEqual([]);

    const bad = await catalina.get('/api/notifications/mentions?status=leidas');
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields?.status).toBe('Filtro no válido: use all o unread');
    expect((await catalina.get('/api/notifications/mentions?pageSize=500')).statusCode).toBe(400);
  });

  it('stays the user’s when they lose the task or the flow is cancelled; goes with its deleted comment; a self-mention is read', async () => {
    const { alicia, catalina } = await people();
    const { flow } = await saleFlow();
    await flow.assign('REPARO BANCO', catalina.user!.id);
    const kept = await comment(alicia, flow, 'REPARO BANCO', 'Te toca, @Catalina Núñez', [catalina]);
    await flow.unassign('REPARO BANCO', catalina.user!.id);
    await flow.cancel();
    expect((await mentionsOf(catalina)).rows.map((row) => row.commentId)).toEqual([kept]);
    expect(await countOf(catalina)).toEqual({ count: 1, tasks: 0, mentions: 1, dataRequests: 0 });

    // Deleted by an administrator: its mention goes with it (the foreign key cascades).
    const other = await saleFlow();
    const gone = await comment(alicia, other.flow, 'COF PENDIENTE FIRMA', 'Borrador @Catalina Núñez', [
      catalina,
    ]);
    expect((await countOf(catalina)).mentions).toBe(2);
    const deleted = await alicia.delete(`/api/sale-flows/${other.flow.id}/comments/${gone}`);
    expect(deleted.statusCode).toBe(204);
    expect((await mentionsOf(catalina)).rows.map((row) => row.commentId)).toEqual([kept]);
    expect((await countOf(catalina)).mentions).toBe(1);
    const [left] = await queryRows<{ count: number }>(
      ctx.db,
      sql`select count(*)::int as count from flow_task_comment_mentions where comment_id = ${gone}`,
    );
    expect(left!.count).toBe(0);

    // Mentioning oneself: listed, already read, not counted.
    const own = await comment(alicia, other.flow, 'COF PENDIENTE FIRMA', 'Nota para @Alicia Administradora', [
      alicia,
    ]);
    const mine = await mentionsOf(alicia);
    expect(mine.rows.map((row) => row.commentId)).toEqual([own]);
    expect(mine.rows[0]!.readAt).toBe(mine.rows[0]!.createdAt);
    expect((await countOf(alicia)).mentions).toBe(0);
  });

  it('logs the mention with its comment, and writes nothing to the audit log when it is read', async () => {
    const { alicia, catalina } = await people();
    const { flow } = await saleFlow();
    const logged = async () => {
      const [row] = await queryRows<{ count: number }>(
        ctx.db,
        sql`select count(*)::int as count from audit_log where table_name = 'flow_task_comment_mentions'`,
      );
      return row!.count;
    };
    const before = await logged();
    const commentId = await comment(alicia, flow, 'COF PENDIENTE FIRMA', 'Hola @Catalina Núñez', [catalina]);
    await comment(alicia, flow, 'COF PENDIENTE FIRMA', 'Otra @Catalina Núñez', [catalina]);
    expect(await logged()).toBe(before + 2);
    const [entry] = await queryRows<{ after: Record<string, unknown> }>(
      ctx.db,
      sql`select after from audit_log where table_name = 'flow_task_comment_mentions' order by id desc limit 1`,
    );
    // The row as logged: who was mentioned, in which comment — no read mark, no bookkeeping.
    expect(Object.keys(entry!.after).sort()).toEqual(['comment_id', 'user_id']);
    await catalina.post(`/api/notifications/mentions/${commentId}/read`);
    await catalina.post('/api/notifications/mentions/read-all');
    expect(await logged()).toBe(before + 2);
    expect((await countOf(catalina)).mentions).toBe(0);
  });
});

describe('mentions: the page and the bell’s count on 60,000 mentions', () => {
  const ctx = useTestApp();

  it('reads a user’s newest mentions and their unread ones off their indexes, not a sort of all', async () => {
    const catalina = await createUser(ctx.db, { firstName: 'Catalina', userType: 'KAM' });
    const others = [await createUser(ctx.db), await createUser(ctx.db)];
    const flow = await createSaleFlow(ctx.db, { reservationId: (await createReservation(ctx.db)).id });
    const task = flow.task('COF PENDIENTE FIRMA');
    // 20,000 comments, each mentioning the three users; Catalina has read nine in ten.
    await loadInBulk(
      ctx.db,
      ['flow_task_comments', 'flow_task_comment_mentions'],
      [
        sql`insert into flow_task_comments (flow_task_id, content, created_at)
          select ${task}, 'Aviso ' || n, now() - make_interval(secs => n) from generate_series(1, 20000) as n`,
        sql`insert into flow_task_comment_mentions (comment_id, user_id, created_at, read_at)
          select c.id, u.id, c.created_at,
                 case when u.id = ${catalina.id} and hashtext(c.id::text) % 10 = 0 then null else c.created_at end
            from flow_task_comments c
           cross join (values (${catalina.id}::uuid), (${others[0]!.id}::uuid), (${others[1]!.id}::uuid)) as u(id)`,
      ],
    );
    await ctx.db.execute(sql`analyze flow_task_comment_mentions`);
    await ctx.db.execute(sql`analyze flow_task_comments`);

    const planOf = async (query: SQL) =>
      (await queryRows<Record<string, string>>(ctx.db, sql`explain ${query}`))
        .map((row) => Object.values(row)[0])
        .join('\n');
    for (const [status, index] of [
      ['all', 'flow_task_comment_mentions_user_newest_idx'],
      ['unread', 'flow_task_comment_mentions_unread_idx'],
    ] as const) {
      const plan = await planOf(pageSql(mentionPageSql(catalina.id, { status, page: 1, pageSize: 10 })));
      expect(plan, status).toContain(index);
      expect(plan, status).not.toMatch(/Sort Key: m\.created_at/);
      expect(plan, status).not.toContain('Seq Scan on flow_task_comment_mentions');
    }
    const count = await planOf(
      sql`select count(*) from flow_task_comment_mentions m where m.user_id = ${catalina.id} and m.read_at is null`,
    );
    expect(count).toContain('flow_task_comment_mentions_unread_idx');
  }, 120_000);
});
