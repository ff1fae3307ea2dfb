import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * Descending order that an index declared with Drizzle's `.desc()` can serve. Drizzle writes those
 * indexes as `DESC NULLS LAST`, while a plain `ORDER BY x DESC` means NULLS FIRST in PostgreSQL: the
 * planner would then ignore the index and sort every row. Always order "newest first" with this.
 */
export function descending(column: AnyColumn | SQL): SQL {
  return sql`${column} desc nulls last`;
}
