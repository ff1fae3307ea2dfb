import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  defaultTaskAssignments,
  reservationFlows,
  reservationFlowTasks,
  saleFlowStages,
  saleFlows,
  saleFlowTasks,
  taskAssignments,
} from '../../db/schema';

export const REGULAR_SALE_FLOW = 'Flujo de Venta Regular';

/** The tasks of a sale-flow definition in flow order, with their stage. */
export async function saleFlowDefinition(db: Executor, flowName: string) {
  return db
    .select({
      flowId: saleFlows.id,
      stageId: saleFlowStages.id,
      stageOrder: saleFlowStages.sortOrder,
      taskId: saleFlowTasks.id,
      taskName: saleFlowTasks.name,
      daysToComplete: saleFlowTasks.daysToComplete,
    })
    .from(saleFlowTasks)
    .innerJoin(saleFlowStages, eq(saleFlowStages.id, saleFlowTasks.stageId))
    .innerJoin(saleFlows, eq(saleFlows.id, saleFlowStages.flowId))
    .where(eq(saleFlows.name, flowName))
    .orderBy(asc(saleFlowStages.sortOrder), asc(saleFlowTasks.sortOrder));
}

export async function insertReservationFlow(
  db: Executor,
  values: { reservationId: string; flowId: string; currentStageId: string; startedAt: Date; actorId: string },
): Promise<string> {
  const [row] = await db
    .insert(reservationFlows)
    .values({
      reservationId: values.reservationId,
      flowId: values.flowId,
      currentStageId: values.currentStageId,
      status: 'in_progress',
      startedAt: values.startedAt,
      createdBy: values.actorId,
      updatedBy: values.actorId,
    })
    .returning({ id: reservationFlows.id });
  return row!.id;
}

export async function insertReservationFlowTasks(
  db: Executor,
  rows: {
    reservationFlowId: string;
    taskId: string;
    startedAt: Date | null;
    daysToComplete: number | null;
  }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(reservationFlowTasks).values(rows.map((row) => ({ ...row, status: 'pending' })));
}

export async function defaultAssignmentsFor(db: Executor, flowId: string) {
  return db
    .select({ taskId: defaultTaskAssignments.taskId, userId: defaultTaskAssignments.userId })
    .from(defaultTaskAssignments)
    .innerJoin(saleFlowTasks, eq(saleFlowTasks.id, defaultTaskAssignments.taskId))
    .innerJoin(saleFlowStages, eq(saleFlowStages.id, saleFlowTasks.stageId))
    .where(eq(saleFlowStages.flowId, flowId));
}

export async function insertTaskAssignments(
  db: Executor,
  rows: { reservationFlowId: string; taskId: string; userId: string; assignedBy: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  // The seller may also be a default assignee of a COF task: one row per (flow, task, user).
  await db.insert(taskAssignments).values(rows).onConflictDoNothing();
}

/** The id of the reservation's sale flow, if it has one. */
export async function reservationFlowIdOf(db: Executor, reservationId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: reservationFlows.id })
    .from(reservationFlows)
    .where(eq(reservationFlows.reservationId, reservationId))
    .limit(1);
  return row?.id ?? null;
}

/** The tasks of a reservation flow that are not completed, with their definition name. */
export async function openTasksOf(db: Executor, reservationFlowId: string) {
  return db
    .select({ taskId: reservationFlowTasks.taskId, taskName: saleFlowTasks.name })
    .from(reservationFlowTasks)
    .innerJoin(saleFlowTasks, eq(saleFlowTasks.id, reservationFlowTasks.taskId))
    .where(
      and(
        eq(reservationFlowTasks.reservationFlowId, reservationFlowId),
        ne(reservationFlowTasks.status, 'completed'),
      ),
    );
}

export async function deleteTaskAssignments(
  db: Executor,
  reservationFlowId: string,
  taskIds: string[],
  userId: string,
): Promise<void> {
  if (taskIds.length === 0) return;
  await db
    .delete(taskAssignments)
    .where(
      and(
        eq(taskAssignments.reservationFlowId, reservationFlowId),
        inArray(taskAssignments.taskId, taskIds),
        eq(taskAssignments.userId, userId),
      ),
    );
}
