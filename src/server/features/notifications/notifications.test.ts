import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { Agent, loginAs, useTestApp } from '../../test/app';
import { createBroker, createReservation } from '../../test/builders';
import { createCommission, createCommissionFlow, createSaleFlow } from '../../test/flow-builders';
import { pendingTasksOf } from './notifications.queries';

describe('GET /api/notifications/count (the bell badge)', () => {
  const ctx = useTestApp();

  it('counts only the user’s open tasks of flows in progress, sale and payment alike', async () => {
    const ana = await loginAs(ctx, { firstName: 'Ana', email: 'ana@inmoflujo.test' });
    const otro = await loginAs(ctx, { firstName: 'Otro', email: 'otro@inmoflujo.test' });
    const me = ana.user!.id;
    const other = otro.user!.id;

    expect((await ana.get('/api/notifications/count')).json()).toEqual({ count: 0 });

    // Sale flow in progress: two open tasks of mine (one shared with the other user), one
    // completed and one blocked (not counted).
    await createSaleFlow(ctx.db, {
      reservationId: (await createReservation(ctx.db)).id,
      tasks: {
        'COF PENDIENTE FIRMA': { status: 'in_progress' },
        'SOLICITUD VB COF PENDIENTE': { status: 'completed', completedAt: new Date() },
        'PENDIENTE GENERACIÓN PROMESA': { status: 'blocked' },
      },
      assignments: {
        'COF PENDIENTE GENERACIÓN': [me, other],
        'COF PENDIENTE FIRMA': [me],
        'SOLICITUD VB COF PENDIENTE': [me],
        'PENDIENTE GENERACIÓN PROMESA': [me],
      },
    });
    // Sale flows not in progress: their open tasks leave the pending lists.
    for (const status of ['pending', 'completed', 'cancelled'] as const) {
      await createSaleFlow(ctx.db, {
        reservationId: (await createReservation(ctx.db)).id,
        status,
        assignments: { 'COF PENDIENTE GENERACIÓN': [me] },
      });
    }

    const broker = await createBroker(ctx.db);
    const withBroker = () => createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    const started = new Date('2026-03-02T13:00:00Z');
    // Payment flow in progress: two open tasks of mine; blocked, completed and the other user's
    // tasks are not counted.
    await createCommissionFlow(ctx.db, {
      brokerCommissionId: (await createCommission(ctx.db, await withBroker())).id,
      status: 'in_progress',
      startedAt: started,
      tasks: {
        'Solicitud Liquidación': { status: 'pending', startedAt: started, assigneeId: me },
        'Solicitud a Jefe Inversiones': { status: 'in_progress', startedAt: started, assigneeId: me },
        'VB Jefe Inversiones': { status: 'blocked', assigneeId: me },
        'Solicitud Gerente Comercial': {
          status: 'completed',
          startedAt: started,
          completedAt: started,
          assigneeId: me,
        },
        'Solicitud Operaciones': { status: 'pending', startedAt: started, assigneeId: other },
      },
    });
    // Payment flows not in progress.
    for (const status of ['pending', 'completed', 'cancelled'] as const) {
      await createCommissionFlow(ctx.db, {
        brokerCommissionId: (await createCommission(ctx.db, await withBroker())).id,
        status,
        tasks: { 'Solicitud Liquidación': { status: 'pending', startedAt: started, assigneeId: me } },
      });
    }

    const mine = await ana.get('/api/notifications/count');
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({ count: 4 });
    expect((await otro.get('/api/notifications/count')).json()).toEqual({ count: 2 });

    // The list the notifications screen will show has exactly the tasks the badge counts.
    const list = await queryRows<{ kind: string; task_name: string; stage_name: string }>(
      ctx.db,
      sql`select * from (${pendingTasksOf(me)}) as pending order by kind, stage_order, task_order`,
    );
    expect(list).toHaveLength(4);
    expect(list.every((row) => row.task_name && row.stage_name)).toBe(true);
    expect(new Set(list.map((row) => row.kind))).toEqual(new Set(['sale', 'payment']));
  });

  it('needs a session', async () => {
    const response = await new Agent(ctx.app).get('/api/notifications/count');
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHENTICATED');
  });
});
