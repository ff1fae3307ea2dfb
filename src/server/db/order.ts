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

/** The orders a list of reservations offers (/reservas and Flujo Reservas, one per reservation). */
export type ReservationOrder = 'reservationDate' | 'reservationNumber' | 'clientName' | 'projectName';

/**
 * A list of reservations in one of its orders, ending in a unique column, each read off an index
 * without sorting the table: reservations_date_idx (newest first, the default, or backwards), the
 * reservation number's unique index, the clients' and projects' name indexes (clients_name_idx,
 * projects_name_stage_idx; then the few reservations of each, newest first). The statement names
 * the reservation `r`, and joins its client as `c` or its project as `p` when ordered by them.
 */
export function reservationOrder(sort: ReservationOrder, direction: 'asc' | 'desc'): SQL[] {
  const dir = direction === 'asc' ? sql`asc` : sql`desc`;
  // Within one client or project: newest reservation first.
  const newest = [sql`r.reservation_date desc nulls last`, sql`r.id desc nulls last`];
  switch (sort) {
    case 'reservationDate':
      return direction === 'desc'
        ? newest
        : [sql`r.reservation_date asc nulls first`, sql`r.id asc nulls first`];
    case 'reservationNumber':
      return [sql`r.reservation_number ${dir}`];
    case 'clientName':
      return [sql`c.first_name ${dir}`, sql`c.last_name ${dir}`, sql`c.id ${dir}`, ...newest];
    case 'projectName':
      return [sql`p.name ${dir}`, sql`p.stage ${dir}`, sql`p.id ${dir}`, ...newest];
  }
}
