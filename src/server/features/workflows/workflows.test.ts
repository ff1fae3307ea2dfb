import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { flowViolations } from '../../../shared/domain/workflow/invariants';
import { brokerCommissions } from '../../db/schema';
import { type Agent, errorOf, loginAs, useTestApp } from '../../test/app';
import { createBroker, createReservation } from '../../test/builders';
import {
  createCommission,
  createPaymentFlow,
  createSaleFlow,
  type FlowDriver,
} from '../../test/flow-builders';
import * as workflows from './workflows.service';

async function paymentFixture(ctx: { db: Parameters<typeof createBroker>[0] }, numberOfPayments: 1 | 2 = 1) {
  const broker = await createBroker(ctx.db);
  const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
  const commission = await createCommission(ctx.db, reservation, {
    commissionAmount: '120.00',
    numberOfPayments,
    firstPaymentPercentage: numberOfPayments === 2 ? 50 : 100,
  });
  return { reservation, commission };
}

const statusUrl = (flow: FlowDriver, task: string, kind = 'payment') =>
  `/api/${kind}-flows/${flow.id}/tasks/${flow.task(task)}/status`;

async function verifySound(flow: FlowDriver) {
  const { definition, state } = await workflows.readFlow(flow.db, flow.id);
  expect(flowViolations(definition, state)).toEqual([]);
  return state;
}

describe('the workflow engine through the API', () => {
  const ctx = useTestApp();

  it("runs the seeded main payment flow: 'Solicitud Operaciones' opens beside the commercial branch, 'Generación de OC' after both VBs, and completion dates the payment", async () => {
    const admin = await loginAs(ctx);
    const { commission } = await paymentFixture(ctx);
    const flow = await createPaymentFlow(ctx.db, { brokerCommissionId: commission.id });
    const start = await admin.put(`/api/payment-flows/${flow.id}/dates`, {
      startedAt: new Date().toISOString(),
    });
    expect(start.statusCode).toBe(409);
    expect(errorOf(start).code).toBe('FLOW_NOT_STARTED');
    await flow.start();

    const complete = async (task: string) => {
      const response = await admin.put(statusUrl(flow, task), { status: 'completed' });
      expect(response.statusCode, `${task}: ${response.body}`).toBe(200);
      return response.json().flow as { status: string; tasks: { id: string; status: string }[] };
    };
    const statusOf = (state: { tasks: { id: string; status: string }[] }, task: string) =>
      state.tasks.find((row) => row.id === flow.task(task))!.status;

    await complete('Solicitud Liquidación');
    await complete('Solicitud a Jefe Inversiones');
    let state = await complete('VB Jefe Inversiones');
    expect(statusOf(state, 'Solicitud Gerente Comercial')).toBe('pending');
    expect(statusOf(state, 'Solicitud Operaciones')).toBe('pending');
    for (const task of ['Solicitud Operaciones', 'VB Operaciones', 'Solicitud Control de Gestión']) {
      state = await complete(task);
    }
    state = await complete('VB Control de Gestión');
    expect(statusOf(state, 'Generación de OC')).toBe('blocked');
    await complete('Solicitud Gerente Comercial');
    state = await complete('VB Gerente Comercial');
    expect(statusOf(state, 'Generación de OC')).toBe('pending');
    for (const task of flow.taskNames().slice(9)) state = await complete(task);
    expect(state.status).toBe('completed');
    await verifySound(flow);

    const [stored] = await ctx.db
      .select({ payment1Date: brokerCommissions.payment1Date })
      .from(brokerCommissions)
      .where(eq(brokerCommissions.id, commission.id));
    expect(stored!.payment1Date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('refuses with the spec’s messages and changes nothing', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM', firstName: 'Karla' });
    const sale = await createSaleFlow(ctx.db, { reservationId: (await createReservation(ctx.db)).id });
    await sale.complete('COF PENDIENTE GENERACIÓN');

    const change = await kam.put(statusUrl(sale, 'COF PENDIENTE GENERACIÓN', 'sale'), { status: 'pending' });
    expect(change.statusCode).toBe(403);
    expect(errorOf(change).message).toBe('Solo los administradores pueden modificar tareas completadas');
    const assign = await kam.post(
      `/api/sale-flows/${sale.id}/tasks/${sale.task('COF PENDIENTE GENERACIÓN')}/assignees`,
      { userId: kam.user!.id },
    );
    expect(assign.statusCode).toBe(403);
    expect(errorOf(assign).message).toBe('No se pueden asignar usuarios a tareas completadas');
    const dated = await kam.put(statusUrl(sale, 'COF PENDIENTE FIRMA', 'sale'), {
      status: 'completed',
      completedAt: '2026-03-01T12:00:00-03:00',
    });
    expect(dated.statusCode).toBe(403);
    // The same flow through the payment URL does not exist.
    const wrongKind = await admin.put(statusUrl(sale, 'COF PENDIENTE FIRMA'), { status: 'in_progress' });
    expect(wrongKind.statusCode).toBe(404);
    expect(errorOf(wrongKind).message).toBe('Flujo no encontrado');
    // An administrator reopens it, with the version read; a stale version answers 409.
    const read = await workflows.flowStateView(ctx.db, sale.id);
    const version = read.tasks.find((task) => task.id === sale.task('COF PENDIENTE GENERACIÓN'))!.version;
    const stale = await admin.put(statusUrl(sale, 'COF PENDIENTE GENERACIÓN', 'sale'), {
      status: 'pending',
      version: version - 1,
    });
    expect(stale.statusCode).toBe(409);
    const reopened = await admin.put(statusUrl(sale, 'COF PENDIENTE GENERACIÓN', 'sale'), {
      status: 'pending',
      version,
    });
    expect(reopened.statusCode).toBe(200);

    const { commission } = await paymentFixture(ctx);
    const payment = await createPaymentFlow(ctx.db, { brokerCommissionId: commission.id });
    const pending = await admin.put(statusUrl(payment, 'Solicitud Liquidación'), { status: 'completed' });
    expect(pending.statusCode).toBe(409);
    expect(errorOf(pending).code).toBe('FLOW_NOT_STARTED');
    const comment = await admin.post(
      `/api/payment-flows/${payment.id}/tasks/${payment.task('Solicitud Liquidación')}/comments`,
      { content: 'Revisar' },
    );
    expect(comment.statusCode).toBe(409);
    await payment.start();
    const blocked = await kam.put(statusUrl(payment, 'VB Jefe Inversiones'), { status: 'completed' });
    expect(blocked.statusCode).toBe(409);
    expect(errorOf(blocked).message).toBe(
      'No se puede modificar esta tarea hasta que se complete la tarea anterior',
    );
    expect(
      (await payment.state()).tasks.find((t) => t.id === payment.task('VB Jefe Inversiones'))!.status,
    ).toBe('blocked');
  });

  it('keeps comments with their mentions; only administrators delete them', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const sale = await createSaleFlow(ctx.db, { reservationId: (await createReservation(ctx.db)).id });
    const url = `/api/sale-flows/${sale.id}/tasks/${sale.task('COF PENDIENTE FIRMA')}/comments`;
    const empty = await kam.post(url, { content: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty).message).toBe('El comentario es obligatorio');
    const created = await kam.post(url, { content: 'Listo @Admin', mentionedUserIds: [admin.user!.id] });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    // A sale flow's comments are not reachable as a payment flow's (the service checks the kind).
    const otherKind = `/api/payment-flows/${sale.id}/tasks/${sale.task('COF PENDIENTE FIRMA')}/comments`;
    expect(errorOf(await kam.get(otherKind)).code).toBe('FLOW_NOT_FOUND');
    expect(errorOf(await kam.post(otherKind, { content: 'Otro' })).code).toBe('FLOW_NOT_FOUND');
    expect(errorOf(await admin.delete(`/api/payment-flows/${sale.id}/comments/${id}`)).code).toBe(
      'FLOW_NOT_FOUND',
    );
    expect((await kam.get(url)).json().comments).toHaveLength(1);
    expect((await kam.delete(`/api/sale-flows/${sale.id}/comments/${id}`)).statusCode).toBe(403);
    expect((await admin.delete(`/api/sale-flows/${sale.id}/comments/${id}`)).statusCode).toBe(204);
    expect((await admin.delete(`/api/sale-flows/${sale.id}/comments/${id}`)).statusCode).toBe(404);
  });
});

describe('concurrent commands on one flow', () => {
  const ctx = useTestApp();

  it('20 concurrent commands from two users leave the flow consistent, with no 5xx', async () => {
    const admin = await loginAs(ctx);
    const ops = await loginAs(ctx, { userType: 'Operaciones', firstName: 'Olga' });
    const sale = await createSaleFlow(ctx.db, { reservationId: (await createReservation(ctx.db)).id });
    const names = sale.taskNames();
    const requests: Promise<{ statusCode: number }>[] = [];
    for (let i = 0; i < 20; i++) {
      const agent: Agent = i % 2 === 0 ? admin : ops;
      const task = names[i % 6]!;
      if (i % 3 === 2) {
        requests.push(
          agent.post(`/api/sale-flows/${sale.id}/tasks/${sale.task(task)}/assignees`, {
            userId: ops.user!.id,
          }),
        );
      } else {
        requests.push(
          agent.put(statusUrl(sale, task, 'sale'), { status: i % 4 === 0 ? 'in_progress' : 'completed' }),
        );
      }
    }
    const responses = await Promise.all(requests);
    for (const response of responses) expect(response.statusCode).toBeLessThan(500);
    await verifySound(sale);
  });

  it('20 concurrent completions of one task complete it once and open its successor once', async () => {
    const admin = await loginAs(ctx);
    const approver = await loginAs(ctx, { userType: 'Supervisor' });
    const { commission } = await paymentFixture(ctx);
    const payment = await createPaymentFlow(ctx.db, { brokerCommissionId: commission.id });
    await payment.start();
    await payment.assign('Solicitud Liquidación', approver.user!.id);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? admin : approver).put(statusUrl(payment, 'Solicitud Liquidación'), {
          status: 'completed',
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    const view = await workflows.flowStateView(ctx.db, payment.id);
    const done = view.tasks.find((task) => task.id === payment.task('Solicitud Liquidación'))!;
    // One change of the row: its version moved once (opened at the start, then completed).
    expect(done).toMatchObject({ status: 'completed', version: 3, assigneeIds: [] });
    const next = view.tasks.find((task) => task.id === payment.task('Solicitud a Jefe Inversiones'))!;
    expect(next).toMatchObject({ status: 'pending', version: 2 });
    await verifySound(payment);
  });
});
