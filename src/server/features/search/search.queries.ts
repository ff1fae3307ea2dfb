import { type SQL, sql } from 'drizzle-orm';
import type { UnitSearch } from '../../../shared/domain/global-search';
import type { ClientHit, ReservationHit, UnitHit } from '../../../shared/schemas/search';
import { type Executor, queryRows } from '../../db/client';
import { clients } from '../../db/schema';
import { containsIgnoringCase, matchesEveryWord } from '../../db/search';

/**
 * Global search (decision 0006). Every user text reaches SQL as a bound parameter inside a LIKE
 * pattern with its wildcards escaped (db/search.ts): quotes, commas, parentheses and '%' are
 * searched literally.
 */

/**
 * Live clients whose `search_text` contains every word of the text (matchesEveryWord), newest
 * first, through clients_newest_idx or the trigram index clients_search_trgm_idx.
 * Each with the flow of its most recent reservation that has one (reservations_client_idx).
 */
export async function findClients(db: Executor, text: string, limit: number): Promise<ClientHit[]> {
  const everyWord = matchesEveryWord(clients.searchText, text);
  if (!everyWord) return [];
  return queryRows<ClientHit>(
    db,
    sql`
      select clients.id, clients.rut, clients.first_name as "firstName", clients.last_name as "lastName",
             clients.email,
             (select rf.id
                from reservations r
                join flows rf on rf.reservation_id = r.id and rf.kind = 'sale'
               where r.client_id = clients.id
               order by r.reservation_date desc, r.created_at desc, r.id desc
               limit 1) as "reservationFlowId"
        from clients
       where clients.deleted_at is null and ${everyWord}
       -- Newest first, as the client list: a common surname then stops after the first few matches
       -- along clients_newest_idx instead of fetching and sorting every match.
       order by clients.created_at desc nulls last, clients.id desc nulls last
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
        left join flows rf on rf.reservation_id = r.id and rf.kind = 'sale'
       order by ${orderBy}`,
  );
}

/** Reservations whose number contains the text (reservations_number_trgm_idx); exact match first. */
export async function findReservationsByNumber(
  db: Executor,
  text: string,
  limit: number,
): Promise<ReservationHit[]> {
  return findReservations(
    db,
    containsIgnoringCase(sql`r.reservation_number`, text),
    sql`lower(r.reservation_number) = ${text.toLowerCase()} desc, r.reservation_number, r.id`,
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
  return findReservations(
    db,
    containsIgnoringCase(sql`r.apartment_number`, text),
    sql`lower(r.apartment_number) = ${text.toLowerCase()} desc, r.reservation_date desc, r.id desc`,
    limit,
  );
}

/**
 * Units by number (units_number_trgm_idx), narrowed by kind and by words of the project's name; exact
 * number first. Their status is the view unit_statuses' (decision 0032), read for the few found.
 */
export async function findUnits(db: Executor, search: UnitSearch, limit: number): Promise<UnitHit[]> {
  const projectWords = search.projectWords.map(
    (word) =>
      sql`and ${containsIgnoringCase(sql`translate(p.name || ' ' || p.stage, 'ÁÉÍÓÚÜÑáéíóúüñ', 'AEIOUUNaeiouun')`, word)}`,
  );
  return queryRows<UnitHit>(
    db,
    sql`
      select u.id, u.kind, u.number, p.id as "projectId", p.name as "projectName", p.stage as "projectStage",
             st.status, f.id as "reservationFlowId"
        from (select u.* from units u join projects p on p.id = u.project_id
               where ${containsIgnoringCase(sql`u.number`, search.number)}
                 ${search.kind ? sql`and u.kind = ${search.kind}` : sql``}
                 ${sql.join(projectWords, sql` `)}
               order by lower(u.number) = ${search.number.toLowerCase()} desc, p.name, u.number, u.id
               limit ${limit}) u
        join projects p on p.id = u.project_id
        join unit_statuses st on st.unit_id = u.id
        left join flows f on f.kind = 'sale' and f.reservation_id = st.reservation_id
       order by lower(u.number) = ${search.number.toLowerCase()} desc, p.name, u.number, u.id`,
  );
}
