import { type AnyColumn, and, asc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { ReservationListRow } from '../../../shared/schemas/reservations';
import type { Executor } from '../../db/client';
import { descending } from '../../db/order';
import { type PageSpec, selectPage } from '../../db/paging';
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
export async function liveReservationHoldingUnit(
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
export async function projectDeadline(db: Executor, id: string): Promise<string | null> {
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

export async function formOptions(db: Executor) {
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

/** The reservation list's statement (exported so a test can EXPLAIN it): newest reservation date first. */
export function reservationListSql(query: { page: number; pageSize: number; search?: string | undefined }) {
  return {
    columns: {
      id: reservations.id,
      reservationNumber: reservations.reservationNumber,
      reservationDate: reservations.reservationDate,
      isRescinded: reservations.isRescinded,
      clientName: sql`${clients.firstName} || ' ' || ${clients.lastName}`,
      projectName: projects.name,
      projectStage: projects.stage,
      apartmentNumber: reservations.apartmentNumber,
      totalPrice: reservations.totalPrice,
      minimumPrice: reservations.minimumPrice,
      totalPayment: reservations.totalPayment,
    },
    from: sql`${reservations}
      join ${clients} on ${clients.id} = ${reservations.clientId}
      join ${projects} on ${projects.id} = ${reservations.projectId}`,
    // client_id and project_id are NOT NULL foreign keys: the joins never change the count.
    countFrom: reservations,
    // Partial match on the number, served by the trigram index on lower(reservation_number).
    where: query.search ? containsIgnoringCase(reservations.reservationNumber, query.search) : undefined,
    orderBy: [descending(reservations.reservationDate), descending(reservations.id)],
    page: query.page,
    pageSize: query.pageSize,
  } satisfies PageSpec;
}

export function listReservations(
  db: Executor,
  query: { page: number; pageSize: number; search?: string | undefined },
) {
  return selectPage<ReservationListRow>(db, reservationListSql(query));
}
