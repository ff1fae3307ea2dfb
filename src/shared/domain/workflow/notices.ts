import type { FlowEvent, FlowState, WorkflowDefinition, WorkflowKind } from './types';

/**
 * What a command tells people by e-mail (issue 34, decision 0035), derived from the engine's events
 * and the states before and after — pure, like the engine. An approval that becomes open with a user
 * assigned is 'approval' (sent at once); any other new assignment is 'assigned' (grouped); a rejected
 * approval tells who requested it ('rejected': whoever completed the tasks it waits for); a payment
 * flow's completion tells the commission's KAM ('paymentCompleted'). Nobody is told of what they did
 * themselves.
 */
export type FlowNotice =
  | { kind: 'approval'; userId: string; taskRowId: string }
  | { kind: 'assigned'; userId: string; taskRowId: string }
  | { kind: 'rejected'; userId: string; taskRowId: string; reason: string; by: string }
  | { kind: 'paymentCompleted'; flowId: string };

const isOpen = (status: string) => status === 'pending' || status === 'in_progress';

export function noticesOf(
  definition: WorkflowDefinition,
  kind: WorkflowKind,
  before: FlowState | null,
  after: FlowState,
  events: readonly FlowEvent[],
  actorId: string | null,
): FlowNotice[] {
  const notices: FlowNotice[] = [];
  const taskDefinitions = new Map(definition.tasks.map((task) => [task.id, task]));
  const beforeTasks = new Map(before?.tasks.map((task) => [task.id, task]) ?? []);
  const waiting = new Set<string>();
  // Approvals now open and waiting for a user who was not waiting on them before.
  for (const task of after.tasks) {
    if (
      !taskDefinitions.get(task.taskId)?.isApproval ||
      !isOpen(task.status) ||
      after.status !== 'in_progress'
    ) {
      continue;
    }
    const previous = beforeTasks.get(task.id);
    const wasWaiting = new Set(
      previous && isOpen(previous.status) && before?.status === 'in_progress'
        ? previous.assignees.map((a) => a.userId)
        : [],
    );
    for (const assignee of task.assignees) {
      if (wasWaiting.has(assignee.userId) || assignee.userId === actorId) continue;
      waiting.add(`${task.id}:${assignee.userId}`);
      notices.push({ kind: 'approval', userId: assignee.userId, taskRowId: task.id });
    }
  }
  const afterTasks = new Map(after.tasks.map((task) => [task.id, task]));
  for (const event of events) {
    if (event.type === 'taskAssigned') {
      if (event.userId === actorId || waiting.has(`${event.taskRowId}:${event.userId}`)) continue;
      // Still assigned when the command ends (an assign then unassign tells nothing).
      const task = afterTasks.get(event.taskRowId);
      if (!task?.assignees.some((a) => a.userId === event.userId)) continue;
      notices.push({ kind: 'assigned', userId: event.userId, taskRowId: event.taskRowId });
    }
    if (event.type === 'taskRejected') {
      const task = afterTasks.get(event.taskRowId);
      const prerequisites = task ? (taskDefinitions.get(task.taskId)?.prerequisiteIds ?? []) : [];
      const requesters = new Set<string>();
      for (const candidate of after.tasks) {
        if (!prerequisites.includes(candidate.taskId)) continue;
        if (candidate.completedBy) requesters.add(candidate.completedBy);
        else for (const assignee of candidate.assignees) requesters.add(assignee.userId);
      }
      requesters.delete(event.by);
      for (const userId of requesters) {
        notices.push({
          kind: 'rejected',
          userId,
          taskRowId: event.taskRowId,
          reason: event.reason,
          by: event.by,
        });
      }
    }
  }
  // Completed by this command (a date corrected on a completed flow raises flowCompleted too).
  if (
    kind === 'payment' &&
    after.status === 'completed' &&
    before !== null &&
    before.status !== 'completed'
  ) {
    notices.push({ kind: 'paymentCompleted', flowId: after.id });
  }
  return notices;
}
