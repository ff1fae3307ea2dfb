import { currentStageOf } from './engine';
import type { FlowState, WorkflowDefinition } from './types';

/**
 * What must hold of every flow the engine leaves behind. `strict` adds what holds only while no
 * administrator has overridden the normal course (reopened a task, set a blocked task by hand, edited
 * dates): the shape of every generated dataset and of any flow moved by ordinary users.
 * Returns the violations in words (empty when the flow is sound).
 */
export function flowViolations(
  definition: WorkflowDefinition,
  state: FlowState,
  options: { strict?: boolean } = {},
): string[] {
  const problems: string[] = [];
  const say = (text: string) => problems.push(`${state.id}: ${text}`);

  const expected = definition.tasks.map((task) => task.id).sort();
  const actual = state.tasks.map((task) => task.taskId).sort();
  if (expected.join() !== actual.join()) say('its task rows are not one per definition task');

  const byTaskId = new Map(state.tasks.map((task) => [task.taskId, task]));
  const stageOrder = new Map(definition.stages.map((stage) => [stage.id, stage.order]));

  for (const task of state.tasks) {
    const name = definition.tasks.find((t) => t.id === task.taskId)?.name ?? task.taskId;
    if ((task.status === 'completed') !== (task.completedAt !== null)) {
      say(`'${name}' has a completion date exactly when it is completed`);
    }
    if (task.startedAt && task.completedAt && task.completedAt < task.startedAt) {
      say(`'${name}' completes before it starts`);
    }
    if (task.status === 'completed' && task.assignees.some((a) => a.assignedAt < task.completedAt!)) {
      say(`'${name}' is completed but keeps assignees from before its completion`);
    }
    if (definition.singleAssignee && task.assignees.length > 1) say(`'${name}' has more than one assignee`);
    if (new Set(task.assignees.map((a) => a.userId)).size !== task.assignees.length) {
      say(`'${name}' lists an assignee twice`);
    }
  }

  if (state.status === 'pending') {
    if (state.startedAt !== null) say('a pending flow has a start date');
    if (state.tasks.some((task) => task.status !== 'blocked' || task.startedAt !== null)) {
      say('a pending flow has a task that is not blocked or has started');
    }
  }
  if ((state.status === 'in_progress' || state.status === 'completed') && state.startedAt === null) {
    say('a started flow has no start date');
  }

  if (state.status !== 'cancelled') {
    const allCompleted = state.tasks.every((task) => task.status === 'completed');
    if ((state.status === 'completed') !== allCompleted) say('it is completed exactly when every task is');
    if ((state.status === 'completed') !== (state.completedAt !== null)) {
      say('it has a completion date exactly when it is completed');
    }
    if (state.currentStageId !== currentStageOf(definition, state.tasks)) {
      say('its current stage is not the lowest-order stage with a task not completed');
    }
  }

  if (options.strict) {
    for (const task of definition.tasks) {
      const row = byTaskId.get(task.id);
      if (!row) continue;
      if (definition.taskOpening === 'prerequisites') {
        const ready = task.prerequisiteIds.every((id) => byTaskId.get(id)?.status === 'completed');
        if (row.status !== 'blocked' && !ready)
          say(`'${task.name}' is open before all its prerequisites are completed`);
        if (row.status === 'blocked' && ready && state.status === 'in_progress') {
          say(`'${task.name}' stays blocked although its prerequisites are completed`);
        }
      } else if (state.status !== 'cancelled' && state.currentStageId) {
        const current = stageOrder.get(state.currentStageId) ?? 0;
        const order = stageOrder.get(task.stageId) ?? 0;
        if (order <= current && row.status !== 'completed' && row.startedAt === null) {
          say(`'${task.name}' belongs to a stage already reached but has not started`);
        }
      }
    }
  }
  return problems;
}
