import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { ApprovalDetail } from '../../../shared/schemas/approvals';
import type { PaymentFlowDetail } from '../../../shared/schemas/payments';
import type { TaskCommandsView } from '../../../shared/schemas/workflows';
import { queryRows } from '../../db/client';
import { type Agent, errorOf, loginAs, type TestContext, useTestApp } from '../../test/app';
import { createBroker, createReservation } from '../../test/builders';
import { createCommission, createPaymentFlow, type FlowDriver } from '../../test/flow-builders';
import * as workflows from './workflows.service';

/**
 * Who may do what on a task is decided once, by the workflow engine's authority, whatever route the
 * command comes by (issue 26; workflows.md §2-§4). These tests drive the real routes as three people —
 * the task's assignee, another staff member, an administrator — on an approval task and an ordinary
 * one, and check both the answer and what the flow screen offered each of them beforehand.
 */

const NOW = new Date('2026-11-20T15:00:00Z');

type Person = 'assignee' | 'other' | 'admin';
type TaskKind = 'approval' | 'ordinary';
/** The task every cell acts on: 'VB Operaciones' (an approval) or 'Solicitud Gerente Comercial'. */
const TASK_OF: Record<TaskKind, string> = {
  approval: 'VB Operaciones',
  ordinary: 'Solicitud Gerente Comercial',
};

interface People {
  assignee: Agent;
  other: Agent;
  admin: Agent;
}

/**
 * A first payment flow with both branches open: 'Solicitud Gerente Comercial' (ordinary) and
 * 'VB Operaciones' (an approval), each assigned to `assignee`, a 'Gestor de Pagos'.
 */
async function flowWithBothOpen(ctx: TestContext, people: People): Promise<FlowDriver> {
  const broker = await createBroker(ctx.db);
  const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
  const commission = await createCommission(ctx.db, reservation, { commissionAmount: '120.00' });
  const flow = await createPaymentFlow(ctx.db, { brokerCommissionId: commission.id, at: NOW });
  await flow.start({ at: NOW });
  await flow.completeAll(
    ['Solicitud Liquidación', 'Solicitud a Jefe Inversiones', 'VB Jefe Inversiones', 'Solicitud Operaciones'],
    { at: NOW },
  );
  for (const name of Object.values(TASK_OF)) await flow.assign(name, people.assignee.user!.id, { at: NOW });
  return flow;
}

/** A task-changing route: how to call it, and which of the screen's commands offers it. */
interface Route {
  name: string;
  offeredBy: (commands: TaskCommandsView) => boolean;
  call: (
    agent: Agent,
    flow: FlowDriver,
    taskRowId: string,
    people: People,
  ) => Promise<LightMyRequestResponse>;
}

const taskUrl = (flow: FlowDriver, taskRowId: string) => `/api/payment-flows/${flow.id}/tasks/${taskRowId}`;

const ROUTES: Route[] = [
  {
    name: 'PUT …/status completed',
    offeredBy: (c) => c.statuses.includes('completed'),
    call: (agent, flow, task) => agent.put(`${taskUrl(flow, task)}/status`, { status: 'completed' }),
  },
  {
    name: 'PUT …/status in_progress',
    offeredBy: (c) => c.statuses.includes('in_progress'),
    call: (agent, flow, task) => agent.put(`${taskUrl(flow, task)}/status`, { status: 'in_progress' }),
  },
  {
    name: 'PUT …/status blocked',
    offeredBy: (c) => c.statuses.includes('blocked'),
    call: (agent, flow, task) => agent.put(`${taskUrl(flow, task)}/status`, { status: 'blocked' }),
  },
  {
    name: 'POST …/assignees (themselves)',
    offeredBy: (c) => c.assign.allowed,
    call: (agent, flow, task) => agent.post(`${taskUrl(flow, task)}/assignees`, { userId: agent.user!.id }),
  },
  {
    name: 'DELETE …/assignees/{assignee}',
    offeredBy: (c) => c.assign.allowed,
    call: (agent, flow, task, people) =>
      agent.delete(`${taskUrl(flow, task)}/assignees/${people.assignee.user!.id}`),
  },
  {
    name: 'PUT …/dates',
    offeredBy: (c) => c.editDates.allowed,
    call: (agent, flow, task) => agent.put(`${taskUrl(flow, task)}/dates`, { startedAt: NOW.toISOString() }),
  },
  {
    name: 'POST /api/approvals/{id}/approve',
    offeredBy: (c) => c.approve.allowed,
    call: (agent, _flow, task) => agent.post(`/api/approvals/${task}/approve`),
  },
  {
    name: 'POST /api/approvals/{id}/reject',
    offeredBy: (c) => c.reject.allowed,
    call: (agent, _flow, task) =>
      agent.post(`/api/approvals/${task}/reject`, { reason: 'Falta la OC firmada' }),
  },
  {
    name: 'POST …/comments',
    offeredBy: (c) => c.comment.allowed,
    call: (agent, flow, task) => agent.post(`${taskUrl(flow, task)}/comments`, { content: 'Revisado' }),
  },
];

/**
 * The expected answer of every cell, written out by hand from workflows.md §2-§4 and issue 26: an
 * approval is decided and reassigned by its assignee or an administrator, blocked only by 'Rechazar'
 * with a reason; an ordinary open task is anybody's; dates are for administrators; comments for all.
 */
const EXPECTED: Record<TaskKind, Record<Person, Record<string, number | string>>> = {
  approval: {
    assignee: {
      'PUT …/status completed': 200,
      'PUT …/status in_progress': 200,
      'PUT …/status blocked': 'APPROVAL_REJECT_NEEDS_REASON',
      'POST …/assignees (themselves)': 200,
      'DELETE …/assignees/{assignee}': 200,
      'PUT …/dates': 'FORBIDDEN',
      'POST /api/approvals/{id}/approve': 200,
      'POST /api/approvals/{id}/reject': 200,
      'POST …/comments': 201,
    },
    other: {
      'PUT …/status completed': 'APPROVAL_NOT_ASSIGNED',
      'PUT …/status in_progress': 'APPROVAL_NOT_ASSIGNED',
      'PUT …/status blocked': 'APPROVAL_NOT_ASSIGNED',
      'POST …/assignees (themselves)': 'APPROVAL_NOT_ASSIGNED',
      'DELETE …/assignees/{assignee}': 'APPROVAL_NOT_ASSIGNED',
      'PUT …/dates': 'FORBIDDEN',
      'POST /api/approvals/{id}/approve': 'APPROVAL_NOT_ASSIGNED',
      'POST /api/approvals/{id}/reject': 'APPROVAL_NOT_ASSIGNED',
      'POST …/comments': 201,
    },
    admin: {
      'PUT …/status completed': 200,
      'PUT …/status in_progress': 200,
      'PUT …/status blocked': 'APPROVAL_REJECT_NEEDS_REASON',
      'POST …/assignees (themselves)': 200,
      'DELETE …/assignees/{assignee}': 200,
      'PUT …/dates': 200,
      'POST /api/approvals/{id}/approve': 200,
      'POST /api/approvals/{id}/reject': 200,
      'POST …/comments': 201,
    },
  },
  ordinary: {
    assignee: {
      'PUT …/status completed': 200,
      'PUT …/status in_progress': 200,
      'PUT …/status blocked': 200,
      'POST …/assignees (themselves)': 200,
      'DELETE …/assignees/{assignee}': 200,
      'PUT …/dates': 'FORBIDDEN',
      'POST /api/approvals/{id}/approve': 'APPROVAL_NOT_FOUND',
      'POST /api/approvals/{id}/reject': 'APPROVAL_NOT_FOUND',
      'POST …/comments': 201,
    },
    other: {
      'PUT …/status completed': 200,
      'PUT …/status in_progress': 200,
      'PUT …/status blocked': 200,
      'POST …/assignees (themselves)': 200,
      'DELETE …/assignees/{assignee}': 200,
      'PUT …/dates': 'FORBIDDEN',
      'POST /api/approvals/{id}/approve': 'APPROVAL_NOT_FOUND',
      'POST /api/approvals/{id}/reject': 'APPROVAL_NOT_FOUND',
      'POST …/comments': 201,
    },
    admin: {
      'PUT …/status completed': 200,
      'PUT …/status in_progress': 200,
      'PUT …/status blocked': 200,
      'POST …/assignees (themselves)': 200,
      'DELETE …/assignees/{assignee}': 200,
      'PUT …/dates': 200,
      'POST /api/approvals/{id}/approve': 'APPROVAL_NOT_FOUND',
      'POST /api/approvals/{id}/reject': 'APPROVAL_NOT_FOUND',
      'POST …/comments': 201,
    },
  },
};

async function paymentFlowScreen(agent: Agent, flowId: string): Promise<PaymentFlowDetail> {
  const response = await agent.get(`/api/payment-flows/${flowId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().flow;
}

function taskOfScreen(flow: PaymentFlowDetail, name: string) {
  const task = flow.stages.flatMap((stage) => stage.tasks).find((candidate) => candidate.name === name);
  if (!task) throw new Error(`no task ${name}`);
  return task;
}

/** Everything a denied command could have touched: the flow's rows and its commission's. */
async function fingerprint(ctx: TestContext, flowId: string): Promise<string> {
  const rows = await queryRows(
    ctx.db,
    sql`select json_build_object(
          'flow', (select row_to_json(f) from flows f where f.id = ${flowId}),
          'tasks', (select json_agg(ft order by ft.id) from flow_tasks ft where ft.flow_id = ${flowId}),
          'assignees', (select json_agg(a order by a.flow_task_id, a.user_id) from flow_task_assignees a
                         where a.flow_id = ${flowId}),
          'rejections', (select count(*) from flow_task_rejections r where r.flow_id = ${flowId}),
          'commission', (select row_to_json(bc) from broker_commissions bc
                          join flows f on f.broker_commission_id = bc.id where f.id = ${flowId}))::text as state`,
  );
  return (rows[0] as { state: string }).state;
}

describe('task commands through every route (issue 26)', () => {
  const ctx = useTestApp({ now: () => NOW });

  // Every route × person × kind on fresh flows: over 30 s on a busy 2-core machine (a runtime limit, not a
  // timing assertion).
  it('allows and refuses each route × person × kind of task as the authority says, and the screen offered exactly that', async () => {
    const people: People = {
      assignee: await loginAs(ctx, { userType: 'Gestor de Pagos', firstName: 'Rodrigo' }),
      other: await loginAs(ctx, { userType: 'KAM', firstName: 'Karla' }),
      admin: await loginAs(ctx, { userType: 'Administrador', firstName: 'Marta' }),
    };
    const cells: string[] = [];
    for (const kind of ['approval', 'ordinary'] as const) {
      for (const person of ['assignee', 'other', 'admin'] as const) {
        const agent = people[person];
        // Refusals change nothing, so they share one flow; each allowed command gets a fresh one.
        let flow = await flowWithBothOpen(ctx, people);
        for (const route of ROUTES) {
          const cell = `${kind} × ${person} × ${route.name}`;
          const taskRowId = flow.task(TASK_OF[kind]);
          const offered = taskOfScreen(await paymentFlowScreen(agent, flow.id), TASK_OF[kind]).commands;
          const before = await fingerprint(ctx, flow.id);
          const response = await route.call(agent, flow, taskRowId, people);
          const expected = EXPECTED[kind][person][route.name];
          if (typeof expected === 'number') {
            expect(response.statusCode, `${cell}: ${response.body}`).toBe(expected);
            // A bulk of one is the same decision: the route must not matter.
            expect(route.offeredBy(offered), `${cell}: offered`).toBe(true);
            flow = await flowWithBothOpen(ctx, people);
          } else {
            expect(response.statusCode, cell).toBeGreaterThanOrEqual(400);
            expect(errorOf(response).code, cell).toBe(expected);
            expect(route.offeredBy(offered), `${cell}: offered`).toBe(false);
            expect(await fingerprint(ctx, flow.id), `${cell}: unchanged`).toBe(before);
          }
          cells.push(cell);
        }
      }
    }
    expect(cells).toHaveLength(2 * 3 * ROUTES.length);
  }, 120_000);

  it('decides a bulk approval the same way: the non-assignee’s approvals fail with the reason, the assignee’s pass', async () => {
    const people: People = {
      assignee: await loginAs(ctx, { userType: 'Gestor de Pagos' }),
      other: await loginAs(ctx, { userType: 'KAM' }),
      admin: await loginAs(ctx),
    };
    const flow = await flowWithBothOpen(ctx, people);
    const vb = flow.task('VB Operaciones');
    const refused = await people.other.post('/api/approvals/approve', { taskIds: [vb] });
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toEqual({
      approved: 0,
      alreadyCompleted: 0,
      results: [
        {
          taskId: vb,
          outcome: 'failed',
          code: 'APPROVAL_NOT_ASSIGNED',
          message:
            'Solo la persona asignada a esta aprobación o un administrador puede aprobarla, rechazarla o reasignarla',
        },
      ],
    });
    const done = await people.assignee.post('/api/approvals/approve', { taskIds: [vb] });
    expect(done.json()).toMatchObject({ approved: 1, results: [{ taskId: vb, outcome: 'approved' }] });
  });
});

describe('the holes of issue 26, closed', () => {
  const ctx = useTestApp({ now: () => NOW });

  async function setUp() {
    const people: People = {
      assignee: await loginAs(ctx, { userType: 'Gestor de Pagos', firstName: 'Rodrigo', lastName: 'Soto' }),
      other: await loginAs(ctx, { userType: 'KAM', firstName: 'Karla' }),
      admin: await loginAs(ctx, { firstName: 'Marta' }),
    };
    return { people, flow: await flowWithBothOpen(ctx, people) };
  }

  it('2. taking an approval to approve it: the non-assignee can neither take it nor approve it; the approver stays', async () => {
    const { people, flow } = await setUp();
    const vb = flow.task('VB Operaciones');
    const take = await people.other.post(`${taskUrl(flow, vb)}/assignees`, { userId: people.other.user!.id });
    expect(take.statusCode).toBe(403);
    const approve = await people.other.post(`/api/approvals/${vb}/approve`);
    expect(approve.statusCode).toBe(403);
    const state = await flow.state();
    const row = state.tasks.find((task) => task.id === vb)!;
    expect(row.status).toBe('pending');
    expect(row.assignees.map((assignee) => assignee.userId)).toEqual([people.assignee.user!.id]);
    // The assignee may hand it on; the new approver decides from then on.
    const handed = await people.assignee.post(`${taskUrl(flow, vb)}/assignees`, {
      userId: people.other.user!.id,
    });
    expect(handed.statusCode, handed.body).toBe(200);
    expect((await people.other.post(`/api/approvals/${vb}/approve`)).statusCode).toBe(200);
  });

  it('3. nobody blocks an approval without a reason, administrators included; the flow does not stall', async () => {
    const { people, flow } = await setUp();
    const vb = flow.task('VB Operaciones');
    for (const agent of [people.assignee, people.admin]) {
      const blocked = await agent.put(`${taskUrl(flow, vb)}/status`, { status: 'blocked' });
      expect(blocked.statusCode).toBe(409);
      expect(errorOf(blocked).message).toBe(
        'Una aprobación se rechaza con «Rechazar» e indicando el motivo, no cambiando su estado a Bloqueada',
      );
    }
    const detail = (await people.assignee.get(`/api/approvals/${vb}`)).json().approval as ApprovalDetail;
    expect(detail.task.status).toBe('pending');
    expect(detail.task.commands.approve.allowed).toBe(true);
  });

  it('4. a comment that reads like a rejection is only a comment; a rejection is recorded with who, when and why', async () => {
    const { people, flow } = await setUp();
    const vb = flow.task('VB Operaciones');
    const fake = await people.other.post(`${taskUrl(flow, vb)}/comments`, {
      content: 'RECHAZO: no me gusta',
    });
    expect(fake.statusCode).toBe(201);
    let detail = (await people.admin.get(`/api/approvals/${vb}`)).json().approval as ApprovalDetail;
    const step = () => detail.chain.find((candidate) => candidate.taskId === vb)!;
    expect(step()).toMatchObject({ status: 'pending', rejection: null });
    expect(detail.task.status).toBe('pending');

    const rejected = await people.assignee.post(`/api/approvals/${vb}/reject`, {
      reason: '  Monto no cuadra  ',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    detail = (await people.admin.get(`/api/approvals/${vb}`)).json().approval as ApprovalDetail;
    expect(step()).toMatchObject({
      status: 'blocked',
      rejection: {
        by: { id: people.assignee.user!.id, firstName: 'Rodrigo', lastName: 'Soto' },
        at: NOW.toISOString(),
        reason: 'Monto no cuadra',
      },
    });
    // The flow screen shows it on the task; the spec's comment is written beside it.
    const task = taskOfScreen(await paymentFlowScreen(people.other, flow.id), 'VB Operaciones');
    expect(task.rejection).toMatchObject({ by: { firstName: 'Rodrigo' }, reason: 'Monto no cuadra' });
    // Blocked by the rejection, not by what it waited for (done).
    expect(task.waitsFor).toEqual([]);
    const comments = (await people.admin.get(`${taskUrl(flow, vb)}/comments`)).json().comments as {
      content: string;
    }[];
    expect(comments.map((comment) => comment.content)).toEqual([
      'RECHAZO: no me gusta',
      'RECHAZO: Monto no cuadra',
    ]);
    // Rejected, it waits for an administrator (a blocked payment task, workflows.md §3); once
    // reopened, the rejection is history.
    expect(task.commands.status.reason).toBe(
      'No se puede modificar esta tarea hasta que se complete la tarea anterior',
    );
    expect((await people.assignee.post(`/api/approvals/${vb}/approve`)).statusCode).toBe(409);
    const reopened = await people.admin.put(`${taskUrl(flow, vb)}/status`, { status: 'pending' });
    expect(reopened.statusCode, reopened.body).toBe(200);
    const after = taskOfScreen(await paymentFlowScreen(people.admin, flow.id), 'VB Operaciones');
    expect(after).toMatchObject({ status: 'pending', rejection: null });
    expect(after.assignees.map((person) => person.id)).toEqual([people.assignee.user!.id]);
  });

  it('5. a reopened payment is no longer paid: the date goes (and the log says so), the task gets its default assignee', async () => {
    const { people } = await setUp();
    const javiera = await loginAs(ctx, { userType: 'Gestor de Pagos', firstName: 'Javiera' });
    await ctx.db.execute(sql`
      insert into workflow_task_default_assignees (task_id, user_id)
      select t.id, ${javiera.user!.id} from workflow_tasks t where t.name = 'Fecha de Pago'`);
    const broker = await createBroker(ctx.db);
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    const commission = await createCommission(ctx.db, reservation, { commissionAmount: '120.00' });
    const flow = await createPaymentFlow(ctx.db, { brokerCommissionId: commission.id, at: NOW });
    await flow.start({ at: NOW });
    await flow.completeAll(flow.taskNames(), { at: NOW });
    const paid = await paymentFlowScreen(people.admin, flow.id);
    expect(paid).toMatchObject({ status: 'completed', commission: { payment1Date: '2026-11-20' } });

    const last = flow.task('Fecha de Pago');
    const reopened = await people.admin.put(`${taskUrl(flow, last)}/status`, { status: 'pending' });
    expect(reopened.statusCode, reopened.body).toBe(200);
    const screen = await paymentFlowScreen(people.admin, flow.id);
    expect(screen).toMatchObject({ status: 'in_progress', commission: { payment1Date: null } });
    expect(taskOfScreen(screen, 'Fecha de Pago').assignees.map((person) => person.id)).toEqual([
      javiera.user!.id,
    ]);
    // Pagos counts it unpaid; the default assignee's inbox shows it.
    const list = (await people.admin.get(`/api/payments?search=${reservation.apartmentNumber}`)).json();
    expect(list.rows[0]).toMatchObject({ payment1: 'in_progress' });
    const inbox = (await javiera.get('/api/notifications')).json() as {
      groups: { rows: { id: string }[] }[];
    };
    expect(inbox.groups.flatMap((group) => group.rows.map((row) => row.id))).toContain(last);
    const [logged] = await queryRows<{ before: unknown; after: unknown; actor: string }>(
      ctx.db,
      sql`select l.before->>'payment_1_date' as before, l.after->>'payment_1_date' as after, l.actor_id as actor
            from audit_log l
           where l.table_name = 'broker_commissions' and l.record_id = ${commission.id}
             and l.after ? 'payment_1_date' and l.after->>'payment_1_date' is null
           order by l.id desc limit 1`,
    );
    expect(logged).toEqual({ before: '2026-11-20', after: null, actor: people.admin.user!.id });
  });

  it('6. nobody completes a task whose prerequisites are open, administrators included, and the flow stays sound', async () => {
    const { people } = await setUp();
    const broker = await createBroker(ctx.db);
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    const commission = await createCommission(ctx.db, reservation);
    const flow = await createPaymentFlow(ctx.db, { brokerCommissionId: commission.id, at: NOW });
    await flow.start({ at: NOW });
    for (const status of ['completed', 'in_progress', 'pending'] as const) {
      const early = await people.admin.put(`${taskUrl(flow, flow.task('VB Jefe Inversiones'))}/status`, {
        status,
      });
      expect(early.statusCode).toBe(409);
      expect(errorOf(early).message).toBe(
        'No se puede modificar esta tarea hasta que se complete la tarea anterior',
      );
    }
    const screen = await paymentFlowScreen(people.admin, flow.id);
    expect(taskOfScreen(screen, 'VB Jefe Inversiones')).toMatchObject({
      status: 'blocked',
      commands: {
        statuses: [],
        status: {
          allowed: false,
          reason: 'No se puede modificar esta tarea hasta que se complete la tarea anterior',
        },
      },
    });
    const { definition, state } = await workflows.readFlow(ctx.db, flow.id);
    expect(state.tasks.filter((task) => task.status === 'completed')).toEqual([]);
    expect(definition.tasks.length).toBe(18);
  });
});
