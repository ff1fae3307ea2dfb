import {
  FIRST_PAYMENT_WORKFLOW,
  SALE_WORKFLOW,
  SECOND_PAYMENT_WORKFLOW,
} from '../../../shared/domain/workflow/names';
import type { WorkflowDefinition } from '../../../shared/domain/workflow/types';
import type {
  FlowSettingsWorkflow,
  PaymentFlowSettings,
  SaleFlowSettings,
} from '../../../shared/schemas/settings';
import type { ReadContext, ServiceContext } from '../../context';
import { AppError } from '../../http/app-error';
import * as users from '../users/users.service';
import * as workflows from '../workflows/workflows.service';
import * as queries from './flow-defaults.queries';
import { requireCan } from './settings-access';

/**
 * The defaults new flows start with: the seller preselected on a new reservation, and each task's
 * default assignees (several on the sale flow, one on the payment flows). The engine reads them when
 * it instantiates a flow; flows already running keep their assignees.
 */

function settingsOf(definition: WorkflowDefinition): FlowSettingsWorkflow {
  return {
    id: definition.id,
    name: definition.name,
    singleAssignee: definition.singleAssignee,
    stages: definition.stages.map((stage) => ({
      id: stage.id,
      name: stage.name,
      tasks: definition.tasks
        // Retired tasks (spec part 2 §9's '[DEPRECATED]' ones) are kept for history, not configured.
        .filter((task) => task.stageId === stage.id && !task.isRetired)
        .map((task) => ({
          id: task.id,
          name: task.name,
          daysToComplete: task.daysToComplete,
          defaultAssigneeIds: [...task.defaultAssigneeIds],
        })),
    })),
  };
}

export async function saleFlow(ctx: ReadContext): Promise<SaleFlowSettings> {
  const [definition, sellers, defaultSellerId] = await Promise.all([
    workflows.definitionNamed(ctx.db, SALE_WORKFLOW),
    users.listSellers(ctx.db),
    queries.findDefaultSellerId(ctx.db),
  ]);
  return { defaultSellerId, sellers, workflow: settingsOf(definition) };
}

export async function paymentFlows(ctx: ReadContext): Promise<PaymentFlowSettings> {
  const definitions = await Promise.all(
    [FIRST_PAYMENT_WORKFLOW, SECOND_PAYMENT_WORKFLOW].map((name) => workflows.definitionNamed(ctx.db, name)),
  );
  return { workflows: definitions.map(settingsOf) };
}

/** Sets (or, with null, clears) the seller preselected on new reservations: an active seller. */
export async function setDefaultSeller(ctx: ServiceContext, userId: string | null): Promise<string | null> {
  requireCan(ctx, 'flowSettings.manage');
  if (userId === null) {
    await ctx.db.transaction((tx) => queries.deleteDefaultSeller(tx));
    return null;
  }
  if (!(await users.isActiveSeller(ctx.db, userId))) throw new AppError('DEFAULT_SELLER_UNAVAILABLE');
  await ctx.db.transaction((tx) => queries.upsertDefaultSeller(tx, userId, ctx.user.id));
  return userId;
}

/** Replaces a task's default assignees ([] removes them); active users only, one on payment flows. */
export async function setDefaultAssignees(
  ctx: ServiceContext,
  taskId: string,
  userIds: readonly string[],
): Promise<{ id: string; defaultAssigneeIds: string[] }> {
  requireCan(ctx, 'flowSettings.manage');
  const unique = [...new Set(userIds)];
  await ctx.db.transaction(async (tx) => {
    const task = await queries.lockWorkflowTask(tx, taskId);
    if (!task) throw new AppError('TASK_NOT_FOUND');
    if (task.singleAssignee && unique.length > 1) throw new AppError('DEFAULT_ASSIGNEE_SINGLE');
    const active = await workflows.listActiveUserIds(tx, unique);
    if (unique.some((id) => !active.has(id))) throw new AppError('USER_NOT_AVAILABLE');
    await queries.replaceDefaultAssignees(tx, taskId, unique, ctx.user.id);
  });
  return { id: taskId, defaultAssigneeIds: unique };
}
