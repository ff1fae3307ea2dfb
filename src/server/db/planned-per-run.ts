import { sql } from 'drizzle-orm';

/**
 * Marks a statement whose best plan depends on its parameters' values, which both engines then plan
 * at each run instead of keeping a generic plan (decisions 0044, 0047, 0064): a date range (a week or
 * every date) and a search pattern (a rare word or a common surname). Generic plans of these were
 * 1.2–4× slower than plans made for the values: Informe de Brokers over every date took 118 ms with
 * the generic plan on PostgreSQL against 52 ms planned per run; on the embedded database, which kept
 * them until issue 61, it took 231 ms against 41. Any part of the statement may carry it (a
 * comment, so the SQL is unchanged). Statements without it keep their plans.
 */
export const PLANNED_PER_RUN_TEXT = '/* planned per run */';
export const PLANNED_PER_RUN = sql.raw(PLANNED_PER_RUN_TEXT);

/** True when a statement's text carries the marker. */
export function isPlannedPerRun(text: string): boolean {
  return text.includes(PLANNED_PER_RUN_TEXT);
}
