import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  defaultSeller,
  workflowStages,
  workflows,
  workflowTaskDefaultAssignees,
  workflowTasks,
} from '../../db/schema';

/** The flows' defaults (Configuración Flujo Venta / Flujo Pago): the only SQL that writes them. */

export async function findDefaultSellerId(db: Executor): Promise<string | null> {
  const [row] = await db.select({ userId: defaultSeller.userId }).from(defaultSeller).limit(1);
  return row?.userId ?? null;
}

/** The single default_seller row is written in place (its unique `singleton` column). */
export async function upsertDefaultSeller(db: Executor, userId: string, updatedBy: string): Promise<void> {
  await db
    .insert(defaultSeller)
    .values({ userId, updatedBy })
    .onConflictDoUpdate({
      target: defaultSeller.singleton,
      set: { userId, updatedBy, updatedAt: sql`now()` },
    });
}

export async function deleteDefaultSeller(db: Executor): Promise<void> {
  await db.delete(defaultSeller);
}

/** Locks a task definition while its defaults are replaced; its workflow's one-assignee flag. */
export async function lockWorkflowTask(db: Executor, taskId: string) {
  const [row] = await db
    .select({ singleAssignee: workflows.singleAssignee })
    .from(workflowTasks)
    .innerJoin(workflowStages, eq(workflowStages.id, workflowTasks.stageId))
    .innerJoin(workflows, eq(workflows.id, workflowStages.workflowId))
    .where(eq(workflowTasks.id, taskId))
    .for('update', { of: workflowTasks });
  return row;
}

export async function replaceDefaultAssignees(
  db: Executor,
  taskId: string,
  userIds: readonly string[],
  createdBy: string,
): Promise<void> {
  await db.delete(workflowTaskDefaultAssignees).where(eq(workflowTaskDefaultAssignees.taskId, taskId));
  if (userIds.length === 0) return;
  await db
    .insert(workflowTaskDefaultAssignees)
    .values(userIds.map((userId) => ({ taskId, userId, createdBy })));
}
