import { and, asc, eq, exists, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { ReservationListRow } from '../../../shared/schemas/reservations';
import type { Executor } from '../../db/client';
import { descending } from '../../db/order';
import { type PageSpec, selectPage } from '../../db/paging';
import {
  brokerCommissions,
  brokers,
  clients,
  commissionFlows,
  defaultSeller,
  profiles,
  projects,
  promotions,
  reservationFlows,
  reservations,
} from '../../db/schema';
import { escapeLike } from '../../db/search';

export type ReservationRow = typeof reservations.$inferSelect;
export type ReservationValues = Omit<
  typeof reservations.$inferInsert,
  'id' | 'createdAt' | 'updatedAt' | 'version' | 'createdBy' | 'updatedBy'
>;
export type CommissionRow = typeof brokerCommissions.$inferSelect;
export type CommissionValues = Omit<
  typeof brokerCommissions.$inferInsert,
  'id' | 'createdAt' | 'updatedAt' | 'version' | 'createdBy' | 'updatedBy' | 'reservationId'
>;
export type PromotionValues = Omit<
  typeof promotions.$inferInsert,
  'id' | 'createdAt' | 'updatedAt' | 'version' | 'createdBy' | 'updatedBy' | 'reservationId'
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
      reservationFlowId: reservationFlows.id,
    })
    .from(reservations)
    .leftJoin(clients, eq(clients.id, reservations.clientId))
    .leftJoin(brokers, eq(brokers.id, reservations.brokerId))
    .leftJoin(reservationFlows, eq(reservationFlows.reservationId, reservations.id))
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

export async function liveClientExists(db: Executor, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.id, id), isNull(clients.deletedAt)))
    .limit(1);
  return row !== undefined;
}

export async function projectExists(db: Executor, id: string): Promise<boolean> {
  const [row] = await db.select({ id: projects.id }).from(projects).where(eq(projects.id, id)).limit(1);
  return row !== undefined;
}

export async function activeSellerExists(db: Executor, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.id, id), eq(profiles.isSeller, true), eq(profiles.isActive, true)))
    .limit(1);
  return row !== undefined;
}

export async function brokerExists(db: Executor, id: string): Promise<boolean> {
  const [row] = await db.select({ id: brokers.id }).from(brokers).where(eq(brokers.id, id)).limit(1);
  return row !== undefined;
}

// --- Commission ------------------------------------------------------------------------------

const hasFlow = (secondPayment: boolean) =>
  exists(
    sql`(select 1 from ${commissionFlows} where ${commissionFlows.brokerCommissionId} = ${brokerCommissions.id}
         and ${commissionFlows.isSecondPayment} = ${secondPayment})`,
  );

export async function commissionOf(db: Executor, reservationId: string) {
  const [row] = await db
    .select({
      commission: brokerCommissions,
      hasFirstPaymentFlow: hasFlow(false),
      hasSecondPaymentFlow: hasFlow(true),
    })
    .from(brokerCommissions)
    .where(eq(brokerCommissions.reservationId, reservationId))
    .limit(1);
  return row ?? null;
}

/** True when a payment flow of the commission has started or finished (money is moving). */
export async function hasStartedPaymentFlow(db: Executor, commissionId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: commissionFlows.id })
    .from(commissionFlows)
    .where(
      and(
        eq(commissionFlows.brokerCommissionId, commissionId),
        inArray(commissionFlows.status, ['in_progress', 'completed']),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertCommission(
  db: Executor,
  reservationId: string,
  values: CommissionValues,
  actorId: string,
): Promise<CommissionRow> {
  const [row] = await db
    .insert(brokerCommissions)
    .values({ ...values, reservationId, createdBy: actorId, updatedBy: actorId })
    .returning();
  return row!;
}

export async function updateCommission(
  db: Executor,
  id: string,
  version: number | null,
  values: Partial<CommissionValues>,
  actorId: string,
): Promise<CommissionRow | null> {
  const [row] = await db
    .update(brokerCommissions)
    .set({
      ...values,
      updatedBy: actorId,
      updatedAt: sql`now()`,
      version: sql`${brokerCommissions.version} + 1`,
    })
    .where(
      version === null
        ? eq(brokerCommissions.id, id)
        : and(eq(brokerCommissions.id, id), eq(brokerCommissions.version, version)),
    )
    .returning();
  return row ?? null;
}

export async function deleteCommission(db: Executor, id: string): Promise<void> {
  await db.delete(brokerCommissions).where(eq(brokerCommissions.id, id));
}

// --- Promotions ------------------------------------------------------------------------------

export async function promotionsOf(db: Executor, reservationId: string) {
  return db
    .select()
    .from(promotions)
    .where(eq(promotions.reservationId, reservationId))
    .orderBy(asc(promotions.createdAt), asc(promotions.id));
}

export async function insertPromotion(
  db: Executor,
  reservationId: string,
  values: PromotionValues,
  actorId: string,
) {
  const [row] = await db
    .insert(promotions)
    .values({ ...values, reservationId, createdBy: actorId, updatedBy: actorId })
    .returning();
  return row!;
}

export async function findPromotion(db: Executor, reservationId: string, id: string) {
  const [row] = await db
    .select()
    .from(promotions)
    .where(and(eq(promotions.id, id), eq(promotions.reservationId, reservationId)))
    .limit(1);
  return row ?? null;
}

export async function updatePromotion(
  db: Executor,
  id: string,
  version: number,
  values: PromotionValues,
  actorId: string,
) {
  const [row] = await db
    .update(promotions)
    .set({ ...values, updatedBy: actorId, updatedAt: sql`now()`, version: sql`${promotions.version} + 1` })
    .where(and(eq(promotions.id, id), eq(promotions.version, version)))
    .returning();
  return row ?? null;
}

export async function deletePromotion(db: Executor, id: string): Promise<void> {
  await db.delete(promotions).where(eq(promotions.id, id));
}

// --- Form options ----------------------------------------------------------------------------

export async function formOptions(db: Executor) {
  const [projectRows, sellerRows, defaultRow] = await Promise.all([
    db
      .select({ id: projects.id, name: projects.name, stage: projects.stage })
      .from(projects)
      .orderBy(asc(projects.name), asc(projects.stage)),
    db
      .select({ id: profiles.id, firstName: profiles.firstName, lastName: profiles.lastName })
      .from(profiles)
      .where(and(eq(profiles.isSeller, true), eq(profiles.isActive, true)))
      .orderBy(asc(profiles.firstName), asc(profiles.lastName)),
    db.select({ userId: defaultSeller.userId }).from(defaultSeller).limit(1),
  ]);
  return { projects: projectRows, sellers: sellerRows, defaultSellerId: defaultRow[0]?.userId ?? null };
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
    where: query.search
      ? sql`lower(${reservations.reservationNumber}) like ${`%${escapeLike(query.search.toLowerCase())}%`}`
      : undefined,
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
