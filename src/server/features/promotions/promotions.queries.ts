import { and, asc, eq, sql } from 'drizzle-orm';
import type { PromotionView } from '../../../shared/schemas/reservations';
import { awaitingVerification, type BankChange } from '../../db/bank-verification';
import { type Executor, queryRows } from '../../db/client';
import { promotions, reservations } from '../../db/schema';

export type PromotionValues = Omit<
  typeof promotions.$inferInsert,
  | 'id'
  | 'createdAt'
  | 'updatedAt'
  | 'version'
  | 'createdBy'
  | 'updatedBy'
  | 'reservationId'
  | 'bankChangedBy'
  | 'bankChangedAt'
  | 'bankVerifiedBy'
  | 'bankVerifiedAt'
>;

/** A promotion as stored: the view's columns, and who set its account and whether another verified it. */
export type StoredPromotion = Omit<PromotionView, 'accountStatus' | 'canVerifyAccount'> & {
  bankChangedBy: string | null;
  isAccountVerified: boolean;
};

/** The view's keys mapped to columns, with the account's author and verification. */
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
  bankChangedBy: promotions.bankChangedBy,
  isAccountVerified: sql<boolean>`${promotions.bankVerifiedAt} is not null`,
} satisfies Record<keyof StoredPromotion, unknown>;

export async function promotionsOf(db: Executor, reservationId: string): Promise<StoredPromotion[]> {
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
): Promise<StoredPromotion | null> {
  const [row] = await db
    .select(promotionViewColumns)
    .from(promotions)
    .where(and(eq(promotions.id, id), eq(promotions.reservationId, reservationId)))
    .limit(1);
  return row ?? null;
}

/** The promotion, its row locked for the rest of the transaction (a verification). */
export async function lockPromotion(
  db: Executor,
  reservationId: string,
  id: string,
): Promise<StoredPromotion | null> {
  const [row] = await db
    .select(promotionViewColumns)
    .from(promotions)
    .where(and(eq(promotions.id, id), eq(promotions.reservationId, reservationId)))
    .for('update')
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

/** The reservation's number, as a notice names it. */
export async function reservationNumberOf(db: Executor, reservationId: string): Promise<string | null> {
  const [row] = await db
    .select({ number: reservations.reservationNumber })
    .from(reservations)
    .where(eq(reservations.id, reservationId))
    .limit(1);
  return row?.number ?? null;
}

export async function insertPromotion(
  db: Executor,
  reservationId: string,
  values: PromotionValues,
  actorId: string,
  change: BankChange,
): Promise<StoredPromotion> {
  const [row] = await db
    .insert(promotions)
    .values({
      ...values,
      reservationId,
      createdBy: actorId,
      updatedBy: actorId,
      bankChangedBy: change.changedBy,
      bankChangedAt: change.at,
    })
    .returning(promotionViewColumns);
  return row!;
}

export async function updatePromotion(
  db: Executor,
  id: string,
  version: number,
  values: PromotionValues,
  actorId: string,
  change: BankChange | null,
): Promise<StoredPromotion | null> {
  const [row] = await db
    .update(promotions)
    .set({
      ...values,
      ...awaitingVerification(change),
      updatedBy: actorId,
      updatedAt: sql`now()`,
      version: sql`${promotions.version} + 1`,
    })
    .where(and(eq(promotions.id, id), eq(promotions.version, version)))
    .returning(promotionViewColumns);
  return row ?? null;
}

/** 'Verificar cuenta': at the version the verifier read; null when it moved on. */
export async function setAccountVerified(
  db: Executor,
  id: string,
  version: number,
  verified: { userId: string; at: Date },
): Promise<StoredPromotion | null> {
  const [row] = await db
    .update(promotions)
    .set({
      bankVerifiedBy: verified.userId,
      bankVerifiedAt: verified.at,
      updatedBy: verified.userId,
      updatedAt: sql`now()`,
      version: sql`${promotions.version} + 1`,
    })
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
