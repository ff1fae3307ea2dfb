import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FOLLOW_UP_STAGE_ORDER } from '../../../shared/domain/workflow/names';
import { isPendingTask, TASK_STATUSES } from '../../../shared/domain/workflow/statuses';
import type { FlowCommand } from '../../../shared/domain/workflow/types';
import { queryRows } from '../../db/client';
import { AppError } from '../../http/app-error';
import { useTestApp } from '../../test/app';
import { createBroker, createReservation, createUser } from '../../test/builders';
import {
  createCommission,
  createPaymentFlow,
  createSaleFlow,
  type FlowDriver,
} from '../../test/flow-builders';
import * as workflows from './workflows.service';

/**
 * The pending set (workflows.md §6) is written twice: `isPendingTask` in TypeScript and the view
 * `open_flow_tasks` (with `pending_task_assignments` and the inbox table its triggers keep) in SQL.
 * Differential test: random commands move real flows through the engine, and after each batch both
 * definitions must name the same task rows and the same assignees.
 */
describe('the pending set, defined once in SQL, agrees with the engine', () => {
  const ctx = useTestApp();

  it('open_flow_tasks, pending_task_assignments and task_inbox say what isPendingTask says, on random flows', async () => {
    const users = [
      await createUser(ctx.db, { userType: 'KAM' }),
      await createUser(ctx.db, { userType: 'Gestor de Pagos' }),
      await createUser(ctx.db, { userType: 'Supervisor' }),
    ];
    const flows: FlowDriver[] = [];
    for (let i = 0; i < 2; i++) {
      const reservation = await createReservation(ctx.db);
      flows.push(await createSaleFlow(ctx.db, { reservationId: reservation.id, sellerId: users[0]!.id }));
    }
    for (let i = 0; i < 2; i++) {
      const broker = await createBroker(ctx.db);
      const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
      const commission = await createCommission(ctx.db, reservation);
      flows.push(await createPaymentFlow(ctx.db, { brokerCommissionId: commission.id }));
    }

    const step = fc.record({
      flow: fc.nat({ max: flows.length - 1 }),
      kind: fc.integer({ min: 0, max: 99 }),
      task: fc.nat(),
      status: fc.nat({ max: TASK_STATUSES.length - 1 }),
      user: fc.nat({ max: users.length - 1 }),
    });

    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        for (const next of steps) {
          const flow = flows[next.flow]!;
          const names = flow.taskNames();
          const taskRowId = flow.task(names[next.task % names.length]!);
          const userId = users[next.user]!.id;
          const command: FlowCommand =
            next.kind < 10
              ? { type: 'start' }
              : next.kind < 60
                ? { type: 'setStatus', taskRowId, status: TASK_STATUSES[next.status]! }
                : next.kind < 70
                  ? { type: 'reopen', taskRowId }
                  : next.kind < 85
                    ? { type: 'assign', taskRowId, userId }
                    : next.kind < 98
                      ? { type: 'unassign', taskRowId, userId }
                      : { type: 'cancel' };
          try {
            await flow.run(command);
          } catch (error) {
            // A refusal (a payment flow not started, a blocked task) leaves the flow as it was.
            if (!(error instanceof AppError)) throw error;
          }
        }

        const expectedOpen: string[] = [];
        const expectedAssignments: string[] = [];
        for (const flow of flows) {
          const { state } = await workflows.readFlow(ctx.db, flow.id);
          for (const task of state.tasks) {
            if (!isPendingTask(state.status, task.status)) continue;
            expectedOpen.push(task.id);
            for (const assignee of task.assignees) expectedAssignments.push(`${task.id}:${assignee.userId}`);
          }
        }
        const ids = sql.join(
          flows.map((flow) => sql`${flow.id}::uuid`),
          sql`, `,
        );
        const open = await queryRows<{ id: string }>(
          ctx.db,
          sql`select id from open_flow_tasks where flow_id in (${ids})`,
        );
        const assignments = await queryRows<{ key: string }>(
          ctx.db,
          sql`select flow_task_id || ':' || user_id as key from pending_task_assignments where flow_id in (${ids})`,
        );
        const inbox = await queryRows<{ key: string }>(
          ctx.db,
          sql`select flow_task_id || ':' || user_id as key from task_inbox where flow_id in (${ids})`,
        );
        expect(open.map((row) => row.id).sort()).toEqual(expectedOpen.sort());
        expect(assignments.map((row) => row.key).sort()).toEqual(expectedAssignments.sort());
        expect(inbox.map((row) => row.key).sort()).toEqual(expectedAssignments.sort());
      }),
      { numRuns: 15 },
    );
  });

  it("ranks the follow-up's stages in SQL exactly as FOLLOW_UP_STAGE_ORDER does, unknown stages last", async () => {
    const names = [...FOLLOW_UP_STAGE_ORDER, 'Una etapa nueva'];
    const rows = await queryRows<{ name: string; rank: number }>(
      ctx.db,
      sql`select n.name, follow_up_stage_rank(n.name) as rank
            from unnest(array[${sql.join(
              names.map((name) => sql`${name}`),
              sql`, `,
            )}]::text[]) as n(name)`,
    );
    expect(rows.map((row) => [row.name, Number(row.rank)])).toEqual(
      names.map((name, index) => [
        name,
        index < FOLLOW_UP_STAGE_ORDER.length ? index + 1 : FOLLOW_UP_STAGE_ORDER.length + 1,
      ]),
    );
  });
});
