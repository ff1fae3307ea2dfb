import type { z } from 'zod';
import { lastFour } from '../../../shared/domain/payment-batches';
import { can } from '../../../shared/permissions';
import type { PolicyUser } from '../../../shared/policies';
import { allow } from '../../../shared/policies';
import type {
  PromotionView,
  promotionFields,
  updatePromotionBody,
} from '../../../shared/schemas/reservations';
import type { ReadContext, ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { AppError } from '../../http/app-error';
import * as mail from '../mail/mail.service';
import * as queries from './promotions.queries';

/** The promotion's payee and account: what decides where its money goes. */
const PAYEE_FIELDS = ['beneficiary', 'rut', 'bank', 'accountType', 'accountNumber'] as const;

/** Promotions of a reservation (spec part 1 §5): payments to a beneficiary, edited with the reservation's rules. */

/** The promotion as the viewer sees it: its account's state and whether the viewer may verify it. */
function viewOf(
  user: PolicyUser | undefined,
  { bankChangedBy, isAccountVerified, ...promotion }: queries.StoredPromotion,
): PromotionView {
  return {
    ...promotion,
    accountStatus: isAccountVerified ? 'verified' : 'unverified',
    canVerifyAccount:
      !isAccountVerified &&
      user !== undefined &&
      allow(user, 'bankAccounts.verify', { changedBy: bankChangedBy }),
  };
}

export async function promotionsOf(
  { db, user }: ReadContext,
  reservationId: string,
): Promise<PromotionView[]> {
  return (await queries.promotionsOf(db, reservationId)).map((row) => viewOf(user, row));
}

/**
 * A payment date recorded (or moved) pays the payee: not while the account waits for its verification
 * (issue 53, decision 0063), as a broker's unverified account keeps its payments out of a batch.
 */
function refuseUnverifiedPayment(
  promotion: Pick<queries.StoredPromotion, 'isAccountVerified'>,
  before: string | null,
  after: string | null,
) {
  if (after !== null && after !== before && !promotion.isAccountVerified)
    throw new AppError('PROMOTION_ACCOUNT_UNVERIFIED');
}

/**
 * A payee's account entered, changed or verified: the payee told by e-mail, in its transaction
 * (decision 0077), as a broker's finance contact is (0052). A change that also moves the payee's
 * address tells the address it had too: whoever owned the account hears of it.
 */
async function noticeIn(
  tx: Executor,
  ctx: ServiceContext,
  reservationId: string,
  promotion: queries.StoredPromotion,
  action: 'changed' | 'verified',
  formerEmail: string | null = null,
): Promise<void> {
  await mail.recordBankAccountNoticesIn(
    tx,
    {
      action,
      payee: 'promotion',
      reservationId,
      reservationNumber: (await queries.reservationNumberOf(tx, reservationId)) ?? '',
      beneficiary: promotion.beneficiary,
      bankName: promotion.bank,
      accountType: promotion.accountType,
      accountEnding: lastFour(promotion.accountNumber),
      byName: mail.authorName(ctx.user),
    },
    [formerEmail, promotion.email],
    ctx.now,
  );
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
  // A new payee's account is entered by its author and waits for another person's verification.
  refuseUnverifiedPayment({ isAccountVerified: false }, null, body.paymentDate ?? null);
  const added = await ctx.db.transaction(async (tx) => {
    await lockOpenReservation(tx, reservationId);
    const promotion = await queries.insertPromotion(tx, reservationId, body, ctx.user.id, {
      changedBy: ctx.user.id,
      at: ctx.now,
    });
    await noticeIn(tx, ctx, reservationId, promotion, 'changed');
    return promotion;
  });
  return viewOf(ctx.user, added);
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
    // A changed account waits for its verification again (decision 0063), and pays nothing meanwhile.
    const change = payeeChanged ? { changedBy: ctx.user.id, at: ctx.now } : null;
    refuseUnverifiedPayment(
      { isAccountVerified: !payeeChanged && before.isAccountVerified },
      before.paymentDate,
      values.paymentDate ?? null,
    );
    const updated = await queries.updatePromotion(tx, promotionId, version, values, ctx.user.id, change);
    if (!updated) throw new AppError('STALE_VERSION');
    if (payeeChanged) await noticeIn(tx, ctx, reservationId, updated, 'changed', before.email);
    return viewOf(ctx.user, updated);
  });
}

/**
 * 'Verificar cuenta' of a promotion's payee (issue 53, decision 0063): as a broker's (0052), by another
 * payments user or an administrator — never the account's author —, at the version read. Audited by
 * the row's trigger.
 */
export async function verifyAccount(
  ctx: ServiceContext,
  reservationId: string,
  promotionId: string,
  version: number,
): Promise<PromotionView> {
  const verified = await ctx.db.transaction(async (tx) => {
    const promotion = await queries.lockPromotion(tx, reservationId, promotionId);
    if (!promotion) throw new AppError('PROMOTION_NOT_FOUND');
    if (!allow(ctx.user, 'bankAccounts.verify', { changedBy: promotion.bankChangedBy })) {
      throw new AppError(
        promotion.bankChangedBy === ctx.user.id &&
          allow(ctx.user, 'bankAccounts.change', { payee: 'promotion' })
          ? 'BANK_VERIFY_OWN_CHANGE'
          : 'BANK_VERIFY_FORBIDDEN',
      );
    }
    if (promotion.version !== version) throw new AppError('STALE_VERSION');
    if (promotion.isAccountVerified) throw new AppError('BANK_NOTHING_TO_VERIFY');
    const saved = await queries.setAccountVerified(tx, promotionId, version, {
      userId: ctx.user.id,
      at: ctx.now,
    });
    if (!saved) throw new AppError('STALE_VERSION');
    await noticeIn(tx, ctx, reservationId, saved, 'verified');
    return saved;
  });
  return viewOf(ctx.user, verified);
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
