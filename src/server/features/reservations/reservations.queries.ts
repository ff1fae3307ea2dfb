import { type AnyColumn, and, asc, eq, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { YesNoAll } from '../../../shared/schemas/common';
import type {
  ReservationListParams,
  ReservationListRow,
  ReservationListTotals,
} from '../../../shared/schemas/reservations';
import { insertRowsAsJson } from '../../db/bulk';
import type { Executor } from '../../db/client';
import { reservationOrder } from '../../db/order';
import { type PageSpec, pageColumn, selectPageWithSums } from '../../db/paging';
import { brokers, clients, defaultSeller, projects, reservations } from '../../db/schema';
import { containsIgnoringCase } from '../../db/search';

export type ReservationRow = typeof reservations.$inferSelect;
export type ReservationValues = Omit<
  typeof reservations.$inferInsert,
  'id' | 'createdAt' | 'updatedAt' | 'version' | 'createdBy' | 'updatedBy'
>;

export async function findReservation(db: Executor, id: string) {
  const [row] = await db
    .select({
      reservation: reservations,
      client: {
        id: clients.id,
        rut: clients.rut,
        firstName: clients.firstName,
        lastName: clients.lastName,
        deletedAt: clients.deletedAt,
      },
      broker: { id: brokers.id, name: brokers.name, businessName: brokers.businessName },
      reservationFlowId: sql<
        string | null
      >`(select f.id from flows f where f.kind = 'sale' and f.reservation_id = reservations.id)`,
    })
    .from(reservations)
    .leftJoin(clients, eq(clients.id, reservations.clientId))
    .leftJoin(brokers, eq(brokers.id, reservations.brokerId))
    .where(eq(reservations.id, id))
    .limit(1);
  return row ?? null;
}

/** The reservation row alone, locked for the rest of the transaction (edits and deletes). */
export async function lockReservation(db: Executor, id: string): Promise<ReservationRow | null> {
  const [row] = await db.select().from(reservations).where(eq(reservations.id, id)).for('update').limit(1);
  return row ?? null;
}

export async function reservationNumberTaken(
  db: Executor,
  number: string,
  exceptId?: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(
      exceptId
        ? and(eq(reservations.reservationNumber, number), ne(reservations.id, exceptId))
        : eq(reservations.reservationNumber, number),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertReservation(
  db: Executor,
  values: ReservationValues,
  actorId: string,
): Promise<ReservationRow> {
  const [row] = await db
    .insert(reservations)
    .values({ ...values, createdBy: actorId, updatedBy: actorId })
    .returning();
  return row!;
}

/** Optimistic update: only when the stored version is the one the user read. Null when stale. */
export async function updateReservation(
  db: Executor,
  id: string,
  version: number,
  values: Partial<ReservationValues>,
  actorId: string,
): Promise<ReservationRow | null> {
  const [row] = await db
    .update(reservations)
    .set({ ...values, updatedBy: actorId, updatedAt: sql`now()`, version: sql`${reservations.version} + 1` })
    .where(and(eq(reservations.id, id), eq(reservations.version, version)))
    .returning();
  return row ?? null;
}

/** Deletes the reservation; its flows, tasks, assignments, comments, commission and promotions cascade. */
export async function deleteReservation(db: Executor, id: string): Promise<void> {
  await db.delete(reservations).where(eq(reservations.id, id));
}

/**
 * The live reservation of the same project that already holds one of these units (apartment,
 * parking or storage; case-insensitive), as the double-booking indexes compare them.
 */
export async function findLiveReservationHoldingUnit(
  db: Executor,
  unit: {
    projectId: string;
    apartmentNumber: string;
    parkingNumber: string | null;
    storageNumber: string | null;
  },
  exceptId?: string,
): Promise<{ reservationNumber: string; unit: 'apartment' | 'parking' | 'storage' } | null> {
  const same = (column: AnyColumn, value: string | null) =>
    value === null ? undefined : sql`lower(${column}) = lower(${value})`;
  const [row] = await db
    .select({
      reservationNumber: reservations.reservationNumber,
      unit: sql<'apartment' | 'parking' | 'storage'>`case
        when lower(${reservations.apartmentNumber}) = lower(${unit.apartmentNumber}) then 'apartment'
        when lower(${reservations.parkingNumber}) = lower(${unit.parkingNumber}) then 'parking'
        else 'storage' end`,
    })
    .from(reservations)
    .where(
      and(
        eq(reservations.projectId, unit.projectId),
        eq(reservations.isRescinded, false),
        exceptId ? ne(reservations.id, exceptId) : undefined,
        or(
          same(reservations.apartmentNumber, unit.apartmentNumber),
          same(reservations.parkingNumber, unit.parkingNumber),
          same(reservations.storageNumber, unit.storageNumber),
        ),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Whether the client is live; share-locked, so a deletion of the client waits for this reservation. */
export async function liveClientExists(db: Executor, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.id, id), isNull(clients.deletedAt)))
    .limit(1)
    .for('share');
  return row !== undefined;
}

export async function projectExists(db: Executor, id: string): Promise<boolean> {
  const [row] = await db.select({ id: projects.id }).from(projects).where(eq(projects.id, id)).limit(1);
  return row !== undefined;
}

/** The project's delivery deadline ('YYYY-MM-DD'), or null when the project does not exist. */
export async function findProjectDeadline(db: Executor, id: string): Promise<string | null> {
  const [row] = await db
    .select({ deadline: projects.deadline })
    .from(projects)
    .where(eq(projects.id, id))
    .limit(1);
  return row?.deadline ?? null;
}

export async function brokerExists(db: Executor, id: string): Promise<boolean> {
  const [row] = await db.select({ id: brokers.id }).from(brokers).where(eq(brokers.id, id)).limit(1);
  return row !== undefined;
}

// --- Form options ----------------------------------------------------------------------------

export async function listFormOptions(db: Executor) {
  const [projectRows, defaultRow] = await Promise.all([
    db
      .select({ id: projects.id, name: projects.name, stage: projects.stage })
      .from(projects)
      .orderBy(asc(projects.name), asc(projects.stage)),
    db.select({ userId: defaultSeller.userId }).from(defaultSeller).limit(1),
  ]);
  return { projects: projectRows, defaultSellerId: defaultRow[0]?.userId ?? null };
}

// --- List ------------------------------------------------------------------------------------

const rescindedFilter: Record<YesNoAll, SQL | undefined> = {
  all: undefined,
  yes: sql`r.is_rescinded`,
  no: sql`not r.is_rescinded`,
};

/**
 * The filters, all on the reservation row: the number's partial match (reservations_number_trgm_idx),
 * project (reservations_project_idx), seller (reservations_seller_idx), the reservation date range
 * (reservations_date_idx), rescinded or not.
 */
function listFilter(query: ReservationListParams): SQL | undefined {
  const search = query.search?.trim();
  return and(
    search ? containsIgnoringCase(sql`r.reservation_number`, search) : undefined,
    query.projectId ? sql`r.project_id = ${query.projectId}` : undefined,
    query.sellerId ? sql`r.seller_id = ${query.sellerId}` : undefined,
    query.fromDate ? sql`r.reservation_date >= ${query.fromDate}` : undefined,
    query.toDate ? sql`r.reservation_date <= ${query.toDate}` : undefined,
    rescindedFilter[query.rescinded],
  );
}

/**
 * The reservation list's statement (exported so a test can EXPLAIN it). The page is chosen on
 * reservations alone (joined to clients or projects only when ordered by them); the names are looked
 * up for the page's rows only. The money columns are summed over every filtered row in the count's
 * pass (decision 0019): up to the count's cap, so their cost is bounded like the count's.
 */
export function reservationListSql(query: ReservationListParams) {
  const byClient = query.sort === 'clientName';
  const byProject = query.sort === 'projectName';
  return {
    columns: {
      id: sql`r.id`,
      reservationNumber: sql`r.reservation_number`,
      reservationDate: sql`r.reservation_date`,
      isRescinded: sql`r.is_rescinded`,
      clientId: sql`r.client_id`,
      projectId: sql`r.project_id`,
      apartmentNumber: sql`r.apartment_number`,
      totalPrice: sql`r.total_price`,
      minimumPrice: sql`r.minimum_price`,
      totalPayment: sql`r.total_payment`,
    },
    // Per row of the page only (by primary key).
    pageColumns: {
      clientName: sql`(select c.first_name || ' ' || c.last_name from clients c where c.id = ${pageColumn('clientId')})`,
      projectName: sql`(select p.name from projects p where p.id = ${pageColumn('projectId')})`,
      projectStage: sql`(select p.stage from projects p where p.id = ${pageColumn('projectId')})`,
    } satisfies Partial<Record<keyof ReservationListRow, SQL>>,
    from: byClient
      ? sql`reservations r join clients c on c.id = r.client_id`
      : byProject
        ? sql`reservations r join projects p on p.id = r.project_id`
        : sql`reservations r`,
    // client_id and project_id are NOT NULL foreign keys: the joins never change the count.
    countFrom: sql`reservations r`,
    where: listFilter(query),
    orderBy: reservationOrder(query.sort, query.direction),
    sums: {
      totalPrice: sql`r.total_price`,
      minimumPrice: sql`r.minimum_price`,
      totalPayment: sql`r.total_payment`,
    } satisfies Record<keyof ReservationListTotals, SQL>,
    page: query.page,
    pageSize: query.pageSize,
  } satisfies PageSpec;
}

export async function listReservations(db: Executor, query: ReservationListParams) {
  const { sums, ...page } = await selectPageWithSums<
    ReservationListRow & { clientId: string; projectId: string },
    keyof ReservationListTotals
  >(db, reservationListSql(query));
  return {
    ...page,
    rows: page.rows.map(({ clientId: _client, projectId: _project, ...row }) => row),
    totals: sums,
  };
}

/** New reservations of an import's chunk, set-based (ids made by the caller). */
export async function insertReservationsAsJson(
  tx: Executor,
  rows: readonly (ReservationValues & { id: string })[],
  actorId: string,
): Promise<void> {
  await insertRowsAsJson(
    tx,
    reservations,
    rows.map((row) => ({ ...row, createdBy: actorId, updatedBy: actorId })),
  );
}
