import { and, asc, desc, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { HolderRestriction, HolderValues } from '../../../shared/domain/privacy';
import type { ClientListParams, ClientRow, ClientSort, ClientValues } from '../../../shared/schemas/clients';
import type { SortDirection } from '../../../shared/schemas/common';
import { uuidArrayParam } from '../../db/arrays';
import { insertRowsAsJson } from '../../db/bulk';
import { type Executor, isoInstant, queryRows } from '../../db/client';
import { descending, rutInNumberOrder } from '../../db/order';
import { type Page, type PageSpec, pageSql, selectPage } from '../../db/paging';
import { clients, reservations } from '../../db/schema';
import { matchesEveryWord } from '../../db/search';

/** The columns a client answer carries (never search_text or the audit columns). */
const rowColumns = {
  id: clients.id,
  rut: clients.rut,
  firstName: clients.firstName,
  lastName: clients.lastName,
  // Only a suppressed client (never live) has none (clients_birth_date_until_suppressed).
  birthDate: sql<string>`${clients.birthDate}`,
  phone: clients.phone,
  email: clients.email,
  createdAt: isoInstant(clients.createdAt),
  restriction: sql<HolderRestriction | null>`${clients.restriction}`,
};

/** The one home of the rule 'a blocked holder's data wait' (Ley 21.719, decision 0027) in SQL. */
const blocked = sql<boolean>`coalesce(${clients.restriction} = 'blocking', false)`;

const detailColumns = {
  ...rowColumns,
  restrictionReason: clients.restrictionReason,
  isBlocked: blocked,
  updatedAt: isoInstant(clients.updatedAt),
  version: clients.version,
};

export type ClientDetail = ClientRow & {
  restrictionReason: string | null;
  isBlocked: boolean;
  updatedAt: string;
  version: number;
};

const live = isNull(clients.deletedAt);

/**
 * The order of each sort, ending in a unique column so pages never overlap. Each is read off an index
 * over live clients without sorting them: clients_newest_idx (newest first, the spec's default, or
 * backwards), clients_rut_order_idx (RUTs in number order), clients_name_idx (first names, last names).
 */
function orderOf(sort: ClientSort, direction: SortDirection): SQL[] {
  switch (sort) {
    case 'createdAt':
      return direction === 'desc'
        ? [descending(clients.createdAt), descending(clients.id)]
        : [sql`${clients.createdAt} asc nulls first`, sql`${clients.id} asc nulls first`];
    case 'rut':
      // In number order (clients_rut_order_idx); unique among live clients: nothing to break ties.
      return [sql`${rutInNumberOrder(clients.rut)} ${direction === 'asc' ? sql`asc` : sql`desc`}`];
    case 'fullName': {
      const by = direction === 'asc' ? asc : desc;
      return [by(clients.firstName), by(clients.lastName), by(clients.id)];
    }
  }
}

/**
 * The list of /clientes: live clients filtered by every search word, in the chosen order.
 * `deleted_at is null` keeps the partial indexes usable (clients_newest_idx and clients_rut_order_idx
 * for the order, clients_search_trgm_idx for the search).
 */
function listSpec(query: ClientListParams): PageSpec {
  return {
    columns: rowColumns,
    from: clients,
    where: and(live, matchesEveryWord(clients.searchText, query.search)),
    orderBy: orderOf(query.sort, query.direction),
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** The exact SQL of a list request (the query-plan test EXPLAINs it). */
export function listClientsSql(query: ClientListParams): SQL {
  return pageSql(listSpec(query));
}

export function listClients(db: Executor, query: ClientListParams): Promise<Page<ClientRow>> {
  return selectPage<ClientRow>(db, listSpec(query));
}

export async function findLiveClient(db: Executor, id: string): Promise<ClientDetail | null> {
  const [row] = await db
    .select(detailColumns)
    .from(clients)
    .where(and(eq(clients.id, id), live))
    .limit(1);
  return row ?? null;
}

/** Whether a live client other than `exceptId` has this (normalised) RUT. */
export async function rutTaken(db: Executor, rut: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.rut, rut), live, exceptId ? ne(clients.id, exceptId) : undefined))
    .limit(1);
  return row !== undefined;
}

export async function insertClient(
  db: Executor,
  values: ClientValues,
  userId: string,
): Promise<ClientDetail> {
  const [row] = await db
    .insert(clients)
    .values({ ...values, createdBy: userId, updatedBy: userId })
    .returning(detailColumns);
  return row!;
}

/** Optimistic update: changes the live row only when it still has `version`; null otherwise. */
export async function updateClient(
  db: Executor,
  id: string,
  version: number,
  values: ClientValues,
  userId: string,
): Promise<ClientDetail | null> {
  const [row] = await db
    .update(clients)
    .set({
      ...values,
      updatedBy: userId,
      updatedAt: sql`now()`,
      version: sql`${clients.version} + 1`,
    })
    .where(and(eq(clients.id, id), eq(clients.version, version), live))
    .returning(detailColumns);
  return row ?? null;
}

/** The live client, locked for the rest of the transaction (deletion); false when there is none. */
export async function lockLiveClient(tx: Executor, id: string): Promise<boolean> {
  const rows = await tx
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.id, id), live))
    .for('update');
  return rows.length > 0;
}

/** The numbers of the client's live (not rescinded) reservations, newest first, at most `limit`. */
export async function listLiveReservationNumbers(
  db: Executor,
  clientId: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .select({ number: reservations.reservationNumber })
    .from(reservations)
    .where(and(eq(reservations.clientId, clientId), eq(reservations.isRescinded, false)))
    .orderBy(desc(reservations.createdAt))
    .limit(limit);
  return rows.map((row) => row.number);
}

/** Soft delete: the row stays (reservations point at it) but is never listed again. */
export async function updateClientDeleted(db: Executor, id: string, userId: string): Promise<boolean> {
  const rows = await db
    .update(clients)
    .set({
      deletedAt: sql`now()`,
      deletedBy: userId,
      updatedBy: userId,
      updatedAt: sql`now()`,
      version: sql`${clients.version} + 1`,
    })
    .where(and(eq(clients.id, id), live))
    .returning({ id: clients.id });
  return rows.length > 0;
}

// --- Holders' data rights (decision 0027) ---------------------------------------------------------------

export interface HolderPersonalData extends HolderValues {
  id: string;
  suppressedAt: string | null;
  restriction: HolderRestriction | null;
}

/** The client's identifying values, the row locked (deleted clients too: they keep their data). */
export async function lockHolder(tx: Executor, id: string): Promise<HolderPersonalData | null> {
  const [row] = await queryRows<HolderPersonalData>(
    tx,
    sql`select id, rut, first_name as "firstName", last_name as "lastName", birth_date as "birthDate", phone, email,
               ${isoInstant(sql`suppressed_at`)} as "suppressedAt", restriction
          from clients where id = ${id} for update`,
  );
  return row ?? null;
}

/**
 * The client's sales still in progress: reservations not rescinded whose sale flow is not completed
 * (the deed not done), by number.
 */
export async function listSalesInProgress(db: Executor, clientId: string): Promise<string[]> {
  const rows = await queryRows<{ number: string }>(
    db,
    sql`select r.reservation_number as number
          from reservations r
         where r.client_id = ${clientId} and not r.is_rescinded
           and exists (select 1 from flows f where f.reservation_id = r.id and f.kind = 'sale' and f.status <> 'completed')
         order by r.reservation_date, r.reservation_number`,
  );
  return rows.map((row) => row.number);
}

export async function reservationIdsOf(db: Executor, clientId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from reservations where client_id = ${clientId}`,
  );
  return rows.map((row) => row.id);
}

/**
 * The suppression of the client's identifying values: names 'Titular suprimido', the RUT a
 * placeholder, birth date, phone and e-mail gone; soft-deleted if it was not.
 */
export async function updateClientSuppressed(tx: Executor, id: string, userId: string | null): Promise<void> {
  await tx.execute(sql`
    update clients
       set rut = 'SUPRIMIDO-' || id::text, first_name = 'Titular', last_name = 'suprimido',
           birth_date = null, phone = null, email = null,
           suppressed_at = now(), suppressed_by = ${userId},
           restriction = null, restriction_reason = null, restricted_at = null, restricted_by = null,
           deleted_at = coalesce(deleted_at, now()), deleted_by = coalesce(deleted_by, ${userId}),
           updated_by = ${userId}, updated_at = now(), version = version + 1
     where id = ${id}`);
}

export async function setRestriction(
  tx: Executor,
  id: string,
  restriction: HolderRestriction | null,
  reason: string | null,
  userId: string,
): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`update clients
           set restriction = ${restriction}, restriction_reason = ${reason},
               restricted_at = ${restriction === null ? sql`null` : sql`now()`},
               restricted_by = ${restriction === null ? null : userId},
               updated_by = ${userId}, updated_at = now(), version = version + 1
         where id = ${id} and suppressed_at is null
           and ${restriction === null ? sql`restriction is not null` : sql`true`}
        returning id`,
  );
  return rows.length > 0;
}

/** Whether the client's processing is blocked (Ley 21.719): edits and new reservations wait. */
export async function isBlocked(db: Executor, id: string): Promise<boolean> {
  const [row] = await queryRows<{ blocked: boolean }>(
    db,
    sql`select ${blocked} as blocked from clients where id = ${id}`,
  );
  return row?.blocked === true;
}

/** New clients of an import's chunk, set-based (ids made by the caller). */
export async function insertClientsAsJson(
  tx: Executor,
  rows: readonly (ClientValues & { id: string })[],
  userId: string,
): Promise<void> {
  await insertRowsAsJson(
    tx,
    clients,
    rows.map((row) => ({ ...row, createdBy: userId, updatedBy: userId })),
  );
}

/** Of these clients, those whose processing is blocked (Ley 21.719), with their RUT. */
export async function listBlockedAmong(
  db: Executor,
  ids: readonly string[],
): Promise<{ id: string; rut: string }[]> {
  if (ids.length === 0) return [];
  return queryRows<{ id: string; rut: string }>(
    db,
    sql`select id, rut from clients where id = any(${uuidArrayParam(ids)}) and ${blocked}`,
  );
}
