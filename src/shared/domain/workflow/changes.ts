import type { Assignee, FlowState, TaskState } from './types';

/**
 * The rows a command changed, derived from the states before and after it: what the server writes
 * (set-based, one statement per kind of row) and whom it tells.
 */
export interface FlowChanges {
  /** The flow row's new values, or null when the flow row did not change. */
  flow: Pick<FlowState, 'status' | 'currentStageId' | 'startedAt' | 'completedAt'> | null;
  /** Task rows whose status or dates changed, with their new values. */
  tasks: Pick<TaskState, 'id' | 'status' | 'startedAt' | 'completedAt' | 'completedBy'>[];
  assigneesAdded: ({ taskRowId: string } & Assignee)[];
  assigneesRemoved: { taskRowId: string; userId: string }[];
}

const sameInstant = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

function taskChanged(before: TaskState, after: TaskState): boolean {
  return (
    before.status !== after.status ||
    before.completedBy !== after.completedBy ||
    !sameInstant(before.startedAt, after.startedAt) ||
    !sameInstant(before.completedAt, after.completedAt)
  );
}

export function diffFlow(before: FlowState, after: FlowState): FlowChanges {
  const flowChanged =
    before.status !== after.status ||
    before.currentStageId !== after.currentStageId ||
    !sameInstant(before.startedAt, after.startedAt) ||
    !sameInstant(before.completedAt, after.completedAt);
  const beforeTasks = new Map(before.tasks.map((task) => [task.id, task]));
  const changes: FlowChanges = {
    flow: flowChanged
      ? {
          status: after.status,
          currentStageId: after.currentStageId,
          startedAt: after.startedAt,
          completedAt: after.completedAt,
        }
      : null,
    tasks: [],
    assigneesAdded: [],
    assigneesRemoved: [],
  };
  for (const task of after.tasks) {
    const previous = beforeTasks.get(task.id);
    if (!previous) throw new Error(`Task row ${task.id} appeared in a command; flows never gain rows`);
    if (taskChanged(previous, task)) {
      const { id, status, startedAt, completedAt, completedBy } = task;
      changes.tasks.push({ id, status, startedAt, completedAt, completedBy });
    }
    const had = new Set(previous.assignees.map((assignee) => assignee.userId));
    const has = new Set(task.assignees.map((assignee) => assignee.userId));
    for (const assignee of task.assignees) {
      if (!had.has(assignee.userId)) changes.assigneesAdded.push({ taskRowId: task.id, ...assignee });
    }
    for (const userId of had) {
      if (!has.has(userId)) changes.assigneesRemoved.push({ taskRowId: task.id, userId });
    }
  }
  return changes;
}

/**
 * The users whose pending tasks may have changed: every assignee, before or after, of a task that
 * changed, or of every task when the flow's status changed (a flow started, completed or cancelled
 * moves all its tasks in or out of the pending lists). Their badges and inboxes are told.
 */
export function affectedUsers(before: FlowState, after: FlowState): string[] {
  const users = new Set<string>();
  const flowStatusChanged = before.status !== after.status;
  const beforeTasks = new Map(before.tasks.map((task) => [task.id, task]));
  for (const task of after.tasks) {
    const previous = beforeTasks.get(task.id);
    const assigneesChanged =
      previous?.assignees.map((a) => a.userId).join() !== task.assignees.map((a) => a.userId).join();
    if (flowStatusChanged || !previous || assigneesChanged || previous.status !== task.status) {
      for (const assignee of previous?.assignees ?? []) users.add(assignee.userId);
      for (const assignee of task.assignees) users.add(assignee.userId);
    }
  }
  return [...users];
}
