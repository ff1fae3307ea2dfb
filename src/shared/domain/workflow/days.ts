import { santiagoDateOf } from '../../format';

/**
 * Whole days on the America/Santiago calendar between two instants: a task started at 23:50 and
 * finished at 00:10 the next day took one day (DESIGN §4, workflows.md §3).
 */
export function santiagoDaysBetween(from: Date, to: Date): number {
  const day = (instant: Date) => Date.parse(`${santiagoDateOf(instant)}T00:00:00Z`);
  return Math.round((day(to) - day(from)) / 86_400_000);
}

/**
 * Days late of a task (workflows.md §3): max(0, whole days from its start to its completion, or to
 * now, minus its days to complete). A task not started, or without a deadline, is never late.
 */
export function daysLate(
  task: { startedAt: Date | string | null; completedAt: Date | string | null; daysToComplete: number | null },
  now: Date,
): number {
  if (!task.startedAt || task.daysToComplete === null) return 0;
  const start = new Date(task.startedAt);
  const end = task.completedAt ? new Date(task.completedAt) : now;
  return Math.max(0, santiagoDaysBetween(start, end) - task.daysToComplete);
}
