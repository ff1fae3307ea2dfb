import type { Executor } from '../../db/client';
import * as queries from './reservation-flows.queries';

/** Sale tasks whose name contains "COF" go to the reservation's seller (workflows.md §1.1). */
export function isSellerTask(taskName: string): boolean {
  return taskName.includes('COF');
}

/**
 * Starts the sale flow of a new reservation, inside the caller's transaction (workflows.md §2):
 * status in_progress, started now, current stage = the first stage; one task row per definition
 * task, the first stage's tasks started; the COF tasks assigned to the seller plus every default
 * task assignment of Configuración Flujo Venta.
 */
export async function startReservationFlow(
  tx: Executor,
  input: { reservationId: string; sellerId: string | null; actorId: string; now?: Date },
): Promise<string> {
  const now = input.now ?? new Date();
  const tasks = await queries.saleFlowDefinition(tx, queries.REGULAR_SALE_FLOW);
  const first = tasks[0];
  if (!first) throw new Error(`The workflow definition '${queries.REGULAR_SALE_FLOW}' is missing`);

  const flowId = await queries.insertReservationFlow(tx, {
    reservationId: input.reservationId,
    flowId: first.flowId,
    currentStageId: first.stageId,
    startedAt: now,
    actorId: input.actorId,
  });
  await queries.insertReservationFlowTasks(
    tx,
    tasks.map((task) => ({
      reservationFlowId: flowId,
      taskId: task.taskId,
      startedAt: task.stageId === first.stageId ? now : null,
      daysToComplete: task.daysToComplete,
    })),
  );

  const sellerAssignments = input.sellerId
    ? tasks
        .filter((task) => isSellerTask(task.taskName))
        .map((task) => ({ taskId: task.taskId, userId: input.sellerId! }))
    : [];
  const defaults = await queries.defaultAssignmentsFor(tx, first.flowId);
  await queries.insertTaskAssignments(
    tx,
    [...sellerAssignments, ...defaults].map((assignment) => ({
      reservationFlowId: flowId,
      taskId: assignment.taskId,
      userId: assignment.userId,
      assignedBy: input.actorId,
    })),
  );
  return flowId;
}

/**
 * When a reservation changes seller, the new seller takes over the COF tasks that are not completed
 * yet (completed tasks keep no assignees).
 */
export async function reassignSellerTasks(
  tx: Executor,
  input: { reservationId: string; fromUserId: string | null; toUserId: string | null; actorId: string },
): Promise<void> {
  const flowId = await queries.reservationFlowIdOf(tx, input.reservationId);
  if (!flowId) return;
  const openSellerTasks = (await queries.openTasksOf(tx, flowId)).filter((task) =>
    isSellerTask(task.taskName),
  );
  const taskIds = openSellerTasks.map((task) => task.taskId);
  if (input.fromUserId) await queries.deleteTaskAssignments(tx, flowId, taskIds, input.fromUserId);
  if (input.toUserId) {
    await queries.insertTaskAssignments(
      tx,
      taskIds.map((taskId) => ({
        reservationFlowId: flowId,
        taskId,
        userId: input.toUserId!,
        assignedBy: input.actorId,
      })),
    );
  }
}
