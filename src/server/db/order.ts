import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * Descending order that an index declared with Drizzle's `.desc()` can serve. Drizzle writes those
 * indexes as `DESC NULLS LAST`, while a plain `ORDER BY x DESC` means NULLS FIRST in PostgreSQL: the
 * planner would then ignore the index and sort every row. Always order "newest first" with this.
 */
export function descending(column: AnyColumn | SQL): SQL {
  return sql`${column} desc nulls last`;
}

/**
 * A RUT ('9876543-2', '12345678-5') in number order: padded with zeros to its longest length, so that
 * the shorter RUT comes first as its number does (as text it would come after). The indexes
 * clients_rut_order_idx and brokers_rut_order_idx are on this very expression.
 */
export function rutInNumberOrder(rut: AnyColumn): SQL {
  return sql`lpad(${rut}, 10, '0')`;
}
