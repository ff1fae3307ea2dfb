import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { Agent, loginAs, useTestApp } from '../../test/app';
import { createBroker, createReservation } from '../../test/builders';
import { createCommission, createPaymentFlow, createSaleFlow } from '../../test/flow-builders';
import { pendingTasksOf } from '../workflows/workflows.service';

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
    await payment.assign('Solicitud Liquidación', me);
    await payment.setStatus('Solicitud a Jefe Inversiones', 'in_progress');
    await payment.assign('Solicitud a Jefe Inversiones', me);
    await payment.assign('VB Jefe Inversiones', me);
    await payment.assign('Solicitud Gerente Comercial', me);
    await payment.complete('Solicitud Gerente Comercial');
    await payment.setStatus('Solicitud Operaciones', 'pending');
    await payment.assign('Solicitud Operaciones', other);
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
