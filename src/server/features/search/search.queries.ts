import { type SQL, sql } from 'drizzle-orm';
import type { ClientHit, ReservationHit } from '../../../shared/schemas/search';
import { type Executor, queryRows } from '../../db/client';
import { escapeLike } from '../../db/search';

/** The `LIKE … ESCAPE '\'` pattern that finds the text anywhere, its wildcards escaped. */
const containsPattern = (text: string) => `%${escapeLike(text)}%`;

/**
 * Global search (decision 0006). Every user text reaches SQL as a bound parameter inside a
 * `LIKE … ESCAPE '\'` pattern with its wildcards escaped: quotes, commas, parentheses and '%' are
 * searched literally.
 */

/**
 * Live clients whose `search_text` contains every word (already folded by `searchWords`), newest
 * first, through clients_newest_idx or the partial trigram index clients_search_trgm_idx.
 * Each with the flow of its most recent reservation that has one (reservations_client_idx).
 */
export async function findClients(db: Executor, words: string[], limit: number): Promise<ClientHit[]> {
  if (words.length === 0) return [];
  const everyWord = sql.join(
    words.map((word) => sql`c.search_text like ${containsPattern(word)} escape '\\'`),
    sql` and `,
  );
  return queryRows<ClientHit>(
    db,
    sql`
      select c.id, c.rut, c.first_name as "firstName", c.last_name as "lastName", c.email,
             (select rf.id
                from reservations r
                join reservation_flows rf on rf.reservation_id = r.id
               where r.client_id = c.id
               order by r.reservation_date desc, r.created_at desc, r.id desc
               limit 1) as "reservationFlowId"
        from clients c
       where c.deleted_at is null and ${everyWord}
       -- Newest first, as the client list: a common surname then stops after the first few matches
       -- along clients_newest_idx instead of fetching and sorting every match.
       order by c.created_at desc nulls last, c.id desc nulls last
       limit ${limit}`,
  );
}

/**
 * The matching reservations are chosen and ordered on `reservations` alone (its trigram index), then
 * only those few are joined to what the result shows: a search matching thousands of apartments
 * never joins thousands of rows. `where` and `orderBy` speak of `r`.
 */
async function findReservations(
  db: Executor,
  where: SQL,
  orderBy: SQL,
  limit: number,
): Promise<ReservationHit[]> {
  return queryRows<ReservationHit>(
    db,
    sql`
      select r.id, r.reservation_number as "reservationNumber", r.apartment_number as "apartmentNumber",
             p.name as "projectName", p.stage as "projectStage",
             c.first_name || ' ' || c.last_name as "clientName", r.is_rescinded as "isRescinded",
             rf.id as "reservationFlowId"
        from (select r.* from reservations r where ${where} order by ${orderBy} limit ${limit}) r
        join projects p on p.id = r.project_id
        join clients c on c.id = r.client_id
        left join reservation_flows rf on rf.reservation_id = r.id
       order by ${orderBy}`,
  );
}

/** Reservations whose number contains the text (reservations_number_trgm_idx); exact match first. */
export async function findReservationsByNumber(
  db: Executor,
  text: string,
  limit: number,
): Promise<ReservationHit[]> {
  const lowered = text.toLowerCase();
  return findReservations(
    db,
    sql`lower(r.reservation_number) like ${containsPattern(lowered)} escape '\\'`,
    sql`lower(r.reservation_number) = ${lowered} desc, r.reservation_number, r.id`,
    limit,
  );
}

/**
 * Reservations whose apartment number contains the text (reservations_apartment_trgm_idx); exact
 * match first, then the most recent.
 */
export async function findReservationsByApartment(
  db: Executor,
  text: string,
  limit: number,
): Promise<ReservationHit[]> {
  const lowered = text.toLowerCase();
  return findReservations(
    db,
    sql`lower(r.apartment_number) like ${containsPattern(lowered)} escape '\\'`,
    sql`lower(r.apartment_number) = ${lowered} desc, r.reservation_date desc, r.id desc`,
    limit,
  );
}
