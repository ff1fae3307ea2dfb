import type { z } from 'zod';
import { can } from '../../../shared/permissions';
import { allow } from '../../../shared/policies';
import type {
  PromotionView,
  promotionFields,
  updatePromotionBody,
} from '../../../shared/schemas/reservations';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { AppError } from '../../http/app-error';
import * as queries from './promotions.queries';

/** The promotion's payee and account: what decides where its money goes. */
const PAYEE_FIELDS = ['beneficiary', 'rut', 'bank', 'accountType', 'accountNumber'] as const;

/** Promotions of a reservation (spec part 1 §5): payments to a beneficiary, edited with the reservation's rules. */

export function promotionsOf(db: Executor, reservationId: string): Promise<PromotionView[]> {
  return queries.promotionsOf(db, reservationId);
}

async function lockOpenReservation(tx: Executor, reservationId: string) {
  const reservation = await queries.lockReservationOf(tx, reservationId);
  if (!reservation) throw new AppError('RESERVATION_NOT_FOUND');
  if (reservation.isRescinded) throw new AppError('RESERVATION_RESCINDED');
}

export async function add(
  ctx: ServiceContext,
  reservationId: string,
  body: z.output<typeof promotionFields>,
): Promise<PromotionView> {
  return ctx.db.transaction(async (tx) => {
    await lockOpenReservation(tx, reservationId);
    return queries.insertPromotion(tx, reservationId, body, ctx.user.id);
  });
}

export async function update(
  ctx: ServiceContext,
  reservationId: string,
  promotionId: string,
  body: z.output<typeof updatePromotionBody>,
): Promise<PromotionView> {
  const { version, ...values } = body;
  return ctx.db.transaction(async (tx) => {
    await lockOpenReservation(tx, reservationId);
    const before = await queries.findPromotion(tx, reservationId, promotionId);
    if (!before) throw new AppError('PROMOTION_NOT_FOUND');
    // The payee's account decides where money goes (issue 53): once recorded, only the payments team
    // and administrators change it.
    const payeeChanged = PAYEE_FIELDS.some((field) => before[field] !== values[field]);
    if (payeeChanged && !allow(ctx.user, 'bankAccounts.change', { payee: 'promotion' }))
      throw new AppError('BANK_DATA_FORBIDDEN');
    const updated = await queries.updatePromotion(tx, promotionId, version, values, ctx.user.id);
    if (!updated) throw new AppError('STALE_VERSION');
    return updated;
  });
}

export async function remove(ctx: ServiceContext, reservationId: string, promotionId: string): Promise<void> {
  if (!can(ctx.user, 'promotions.delete')) throw new AppError('FORBIDDEN');
  await ctx.db.transaction(async (tx) => {
    if (!(await queries.findPromotion(tx, reservationId, promotionId)))
      throw new AppError('PROMOTION_NOT_FOUND');
    await queries.deletePromotion(tx, promotionId);
  });
}

/**
 * Inside a suppression's transaction (decision 0027): the payee of every promotion paid to the holder
 * on their reservations becomes 'Titular suprimido'; the payment stays. Answers the values the caller
 * keeps blocked (the payee's RUT and account), column by column.
 */
export async function redactPayeeIn(
  tx: Executor,
  reservationIds: readonly string[],
  holderRut: string,
  userId: string | null,
): Promise<{ id: string; values: Record<string, string> }[]> {
  const replaced = await queries.updatePayeeRedacted(tx, reservationIds, holderRut, userId);
  // What proves the payment (to whom by RUT, into which account) is kept blocked; the name and e-mail
  // are not needed for it and go (decision 0027).
  return replaced.map(({ id, rut, accountNumber }) => ({
    id,
    values: { rut, account_number: accountNumber },
  }));
}
