import { type Big, dec, money } from './decimal';
import { paymentSplit } from './pricing';

/**
 * 'Consolidado Brokers' (spec part 2 §9, consolidated totals). A broker's commissions:
 * - a commission's first payment is commission × first_payment_percentage / 100 (all of it with
 *   one payment; rounded half-up to two decimals), its second payment the rest (`paymentSplit`,
 *   pricing.ts: one home for every screen and report);
 * - its paid amount is the first payment when the payment 1 date exists plus the second when the
 *   payment 2 date exists;
 * - Total Comisiones: the commissions that are neither rescinded nor at risk;
 * - Total Pagado: the paid amounts of those same commissions;
 * - Total En Riesgo: the paid amounts of the at-risk commissions that are not rescinded;
 * - Total Pendiente: Total Comisiones − Total Pagado.
 * The report sums the same formulas in SQL (reports.queries.ts); a test holds the two equal.
 */

export interface ConsolidatedCommission {
  commissionAmount: string;
  numberOfPayments: number;
  firstPaymentPercentage: number;
  payment1Date: string | null;
  payment2Date: string | null;
  atRisk: boolean;
  isRescinded: boolean;
}

export interface ConsolidatedTotals {
  totalCommission: string;
  totalPaid: string;
  totalAtRisk: string;
  totalPending: string;
}

/** The two payments of a commission: the first rounded half-up to cents, the second the rest. */
export function paymentParts(
  commission: Pick<
    ConsolidatedCommission,
    'commissionAmount' | 'numberOfPayments' | 'firstPaymentPercentage'
  >,
): {
  first: string;
  second: string;
} {
  const { first, second } = paymentSplit(commission);
  return { first, second };
}

function paidOf(commission: ConsolidatedCommission): Big {
  const { first, second } = paymentParts(commission);
  return dec(commission.payment1Date ? first : 0).plus(commission.payment2Date ? second : 0);
}

/** What has been paid of a commission: the dated payments. */
export function paidAmount(commission: ConsolidatedCommission): string {
  return money(paidOf(commission));
}

export function consolidatedTotals(commissions: readonly ConsolidatedCommission[]): ConsolidatedTotals {
  let total = dec(0);
  let paid = dec(0);
  let atRisk = dec(0);
  for (const commission of commissions) {
    if (commission.isRescinded) continue;
    if (commission.atRisk) {
      atRisk = atRisk.plus(paidOf(commission));
      continue;
    }
    total = total.plus(commission.commissionAmount);
    paid = paid.plus(paidOf(commission));
  }
  return {
    totalCommission: money(total),
    totalPaid: money(paid),
    totalAtRisk: money(atRisk),
    totalPending: money(total.minus(paid)),
  };
}

/** The row's standing, in the words the table shows. */
export function consolidatedStatus(commission: ConsolidatedCommission): string {
  if (commission.isRescinded) return 'Resciliada';
  if (commission.atRisk) return 'En Riesgo';
  const parts = paymentParts(commission);
  const fullyPaid = !!commission.payment1Date && (!!commission.payment2Date || dec(parts.second).eq(0));
  if (fullyPaid) return 'Pagada';
  if (commission.payment1Date || commission.payment2Date) return 'Pago parcial';
  return 'Pendiente';
}
