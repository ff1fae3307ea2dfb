import type { z } from 'zod';
import { isCommissionPaid, rescissionPenalty } from '../../../shared/domain/rescission';
import { can } from '../../../shared/permissions';
import type { RescissionPreview, RescissionResult, rescissionBody } from '../../../shared/schemas/payments';
import type { ServiceContext } from '../../context';
import { AppError } from '../../http/app-error';
import * as commissions from '../commissions/commissions.service';
import * as reservations from '../reservations/reservations.service';
import * as workflows from '../workflows/workflows.service';

/**
 * Rescission (spec part 2 §4, workflows.md §5): administrators only, irreversible, one transaction
 * over the reservation, its commission and its flows — each written by its own feature.
 */

const isUnfinished = (flow: { status: string }) => flow.status !== 'completed' && flow.status !== 'cancelled';

function requireRescinder(ctx: Pick<ServiceContext, 'user'>) {
  if (!can(ctx.user, 'reservations.rescind')) throw new AppError('FORBIDDEN');
}

/** What the wizard shows before confirming: may a penalty be chosen, how much, how many flows stop. */
export async function preview(ctx: ServiceContext, reservationId: string): Promise<RescissionPreview> {
  requireRescinder(ctx);
  const [reservation, commission, flows] = await Promise.all([
    reservations.get(ctx, reservationId).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'RESERVATION_NOT_FOUND') return null;
      throw error;
    }),
    commissions.commissionOf(ctx.db, reservationId),
    workflows.flowsOfReservation(ctx.db, reservationId),
  ]);
  if (!reservation) throw new AppError('PAYMENT_RESERVATION_NOT_FOUND');
  const paid = commission !== null && isCommissionPaid(commission);
  return {
    reservationNumber: reservation.reservationNumber,
    isRescinded: reservation.isRescinded,
    hasCommission: commission !== null,
    isCommissionPaid: paid,
    penaltyAmount: paid ? rescissionPenalty(commission) : null,
    openFlows: flows.filter(isUnfinished).length,
  };
}

/**
 * In one transaction, locks taken in the order every writer takes them (reservation, then flows, then
 * the commission, as a task completion takes flow then commission): the reservation is rescinded,
 * every unfinished flow cancelled (its tasks leave every pending list), the commission's at-risk flag
 * cleared and, when chosen, the penalty recorded from the payment dates as they are under the locks.
 * A second rescission answers 409. The affected users' tabs hear of it after the commit.
 */
export async function rescind(
  ctx: ServiceContext,
  reservationId: string,
  body: z.output<typeof rescissionBody>,
): Promise<RescissionResult> {
  requireRescinder(ctx);
  const { result, outcomes } = await ctx.db.transaction(async (tx) => {
    const reservation = await reservations.lockForRescissionIn(tx, reservationId);
    if (!reservation) throw new AppError('PAYMENT_RESERVATION_NOT_FOUND');
    if (reservation.isRescinded) throw new AppError('RESERVATION_ALREADY_RESCINDED');
    await reservations.markRescindedIn(tx, reservationId, reservation.version, {
      at: ctx.now,
      reason: body.reason,
      actorId: ctx.user.id,
    });

    const cancelled: workflows.CommandOutcome[] = [];
    for (const flow of await workflows.flowsOfReservation(tx, reservationId)) {
      if (!isUnfinished(flow)) continue;
      cancelled.push(await workflows.runCommandIn(tx, ctx.user, ctx.now, flow.id, { type: 'cancel' }));
    }

    const commission = await commissions.commissionOf(tx, reservationId);
    let penaltyAmount: string | null = null;
    if (body.applyPenalty) {
      if (!commission || !isCommissionPaid(commission)) throw new AppError('PENALTY_NOT_APPLICABLE');
      penaltyAmount = rescissionPenalty(commission);
    }
    if (commission) await commissions.recordRescissionIn(tx, commission.id, penaltyAmount, ctx.user.id);

    return {
      result: {
        reservationId,
        rescindedAt: ctx.now.toISOString(),
        reason: body.reason,
        penaltyAmount,
        cancelledFlows: cancelled.length,
      },
      outcomes: cancelled,
    };
  });
  for (const outcome of outcomes) workflows.publishOutcome(ctx.events, outcome);
  return result;
}
