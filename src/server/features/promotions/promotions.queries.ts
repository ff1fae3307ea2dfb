import { and, asc, eq, sql } from 'drizzle-orm';
import type { PromotionView } from '../../../shared/schemas/reservations';
import { type Executor, queryRows } from '../../db/client';
import { promotions, reservations } from '../../db/schema';

export type PromotionValues = Omit<
  typeof promotions.$inferInsert,
  'id' | 'createdAt' | 'updatedAt' | 'version' | 'createdBy' | 'updatedBy' | 'reservationId'
>;

/** A promotion as the API shows it: the view's keys mapped to columns. */
const promotionViewColumns = {
  id: promotions.id,
  amount: promotions.amount,
  beneficiary: promotions.beneficiary,
  rut: promotions.rut,
  bank: promotions.bank,
  accountType: sql<PromotionView['accountType']>`${promotions.accountType}`,
  accountNumber: promotions.accountNumber,
  email: promotions.email,
  purchaseOrder: promotions.purchaseOrder,
  documentNumber: promotions.documentNumber,
  documentDate: promotions.documentDate,
  paymentDate: promotions.paymentDate,
  version: promotions.version,
} satisfies Record<keyof PromotionView, unknown>;

export async function promotionsOf(db: Executor, reservationId: string): Promise<PromotionView[]> {
  return db
    .select(promotionViewColumns)
    .from(promotions)
    .where(eq(promotions.reservationId, reservationId))
    .orderBy(asc(promotions.createdAt), asc(promotions.id));
}

export async function findPromotion(
  db: Executor,
  reservationId: string,
  id: string,
): Promise<PromotionView | null> {
  const [row] = await db
    .select(promotionViewColumns)
    .from(promotions)
    .where(and(eq(promotions.id, id), eq(promotions.reservationId, reservationId)))
    .limit(1);
  return row ?? null;
}

/** The reservation's rescission flag, its row locked: promotions change with the reservation, one at a time. */
export async function lockReservationOf(db: Executor, reservationId: string) {
  const [row] = await db
    .select({ id: reservations.id, isRescinded: reservations.isRescinded })
    .from(reservations)
    .where(eq(reservations.id, reservationId))
    .for('update')
    .limit(1);
  return row ?? null;
}

export async function insertPromotion(
  db: Executor,
  reservationId: string,
  values: PromotionValues,
  actorId: string,
): Promise<PromotionView> {
  const [row] = await db
    .insert(promotions)
    .values({ ...values, reservationId, createdBy: actorId, updatedBy: actorId })
    .returning(promotionViewColumns);
  return row!;
}

export async function updatePromotion(
  db: Executor,
  id: string,
  version: number,
  values: PromotionValues,
  actorId: string,
): Promise<PromotionView | null> {
  const [row] = await db
    .update(promotions)
    .set({ ...values, updatedBy: actorId, updatedAt: sql`now()`, version: sql`${promotions.version} + 1` })
    .where(and(eq(promotions.id, id), eq(promotions.version, version)))
    .returning(promotionViewColumns);
  return row ?? null;
}

export async function deletePromotion(db: Executor, id: string): Promise<void> {
  await db.delete(promotions).where(eq(promotions.id, id));
}

/**
 * The payee data of the promotions paid to a holder (by RUT) on their reservations, replaced after a
 * suppression (decision 0027); answers the old values, which the caller keeps blocked.
 */
export async function updatePayeeRedacted(
  tx: Executor,
  reservationIds: readonly string[],
  holderRut: string,
  userId: string | null,
): Promise<{ id: string; beneficiary: string; rut: string; accountNumber: string; email: string }[]> {
  if (reservationIds.length === 0) return [];
  return queryRows(
    tx,
    sql`with paid as (
          select id, beneficiary, rut, account_number, email from promotions
           where reservation_id in (${sql.join(
             reservationIds.map((id) => sql`${id}::uuid`),
             sql`, `,
           )}) and rut = ${holderRut}
           for update)
        update promotions p
           set beneficiary = 'Titular suprimido', rut = 'SUPRIMIDO', account_number = 'SUPRIMIDO',
               email = 'suprimido', updated_by = ${userId}, updated_at = now(), version = p.version + 1
          from paid
         where p.id = paid.id
        returning paid.id, paid.beneficiary, paid.rut, paid.account_number as "accountNumber", paid.email`,
  );
}
