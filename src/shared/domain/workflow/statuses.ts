/**
 * The one list of flow and task statuses, with the Spanish label and the badge colour every screen
 * shows (spec part 2 §4: completed green, in progress blue, blocked red).
 */

export const FLOW_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export type FlowStatus = (typeof FLOW_STATUSES)[number];

export const TASK_STATUSES = ['pending', 'in_progress', 'completed', 'blocked'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A task someone can work on: not completed and not blocked (workflows.md §6). */
export const OPEN_TASK_STATUSES = ['pending', 'in_progress'] as const satisfies readonly TaskStatus[];

export function isOpenTaskStatus(status: TaskStatus): boolean {
  return status === 'pending' || status === 'in_progress';
}

/**
 * A task in the pending lists (workflows.md §6): open, of a flow in progress. The SQL view
 * `open_flow_tasks` (migration 0020) is the same rule; a property test holds the two equal.
 */
export function isPendingTask(flowStatus: FlowStatus, taskStatus: TaskStatus): boolean {
  return flowStatus === 'in_progress' && isOpenTaskStatus(taskStatus);
}

/** Mantine colour names, so the client and any export agree on what a status looks like. */
export type StatusColor = 'gray' | 'yellow' | 'blue' | 'green' | 'red' | 'dark';

export const flowStatusBadges: Record<FlowStatus, { label: string; color: StatusColor }> = {
  pending: { label: 'Pendiente', color: 'yellow' },
  in_progress: { label: 'En Proceso', color: 'blue' },
  completed: { label: 'Completado', color: 'green' },
  cancelled: { label: 'Cancelado', color: 'dark' },
};

export const taskStatusBadges: Record<TaskStatus, { label: string; color: StatusColor }> = {
  pending: { label: 'Pendiente', color: 'yellow' },
  in_progress: { label: 'En Proceso', color: 'blue' },
  completed: { label: 'Completada', color: 'green' },
  blocked: { label: 'Bloqueada', color: 'red' },
};

/** The status select's options, in the spec's order (Pendiente, En Proceso, Completada, Bloqueada). */
export const taskStatusOptions = TASK_STATUSES.map((value) => ({
  value,
  label: taskStatusBadges[value].label,
}));
