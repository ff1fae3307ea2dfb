import { dec, money } from './decimal';
import { commissionFigures } from './pricing';

/**
 * Rescission (spec part 2 §4, workflows.md §5). The confirmation a user types, and the penalty a paid
 * commission may leave: the share of each payment already dated.
 */

/** The words that confirm a rescission, exactly (spec part 2 §5). */
export const RESCISSION_CONFIRMATIONS = ['CONFIRMAR', 'CONFIRMACIÓN'] as const;

export function isRescissionConfirmed(text: string): boolean {
  return (RESCISSION_CONFIRMATIONS as readonly string[]).includes(text);
}

export interface PenaltyInput {
  commissionAmount: string;
  numberOfPayments: 1 | 2;
  firstPaymentPercentage: 25 | 50 | 100;
  payment1Date: string | null;
  payment2Date: string | null;
}

/** A commission is paid (and a penalty may be chosen) once one of its payments is dated. */
export function isCommissionPaid(commission: Pick<PenaltyInput, 'payment1Date' | 'payment2Date'>): boolean {
  return commission.payment1Date !== null || commission.payment2Date !== null;
}

/**
 * The penalty: commission × first-payment % if payment 1 is dated, plus commission × (100 − first %)
 * if payment 2 is dated — the same two amounts (rounded to the cent) the commission screens show,
 * so the penalty of a fully paid commission is exactly its amount. A one-payment commission's first
 * payment is the whole commission.
 */
export function rescissionPenalty(commission: PenaltyInput): string {
  const figures = commissionFigures(
    {
      commissionAmount: commission.commissionAmount,
      commissionIncludesTax: false,
      paysSecondary: true,
      numberOfPayments: commission.numberOfPayments,
      firstPaymentPercentage: commission.firstPaymentPercentage,
    },
    { minimumPrice: '0', recoveryPayment: '0', parkingPrice: '0', storagePrice: '0' },
  );
  const first = commission.payment1Date !== null ? figures.firstPaymentAmount : '0.00';
  const second =
    commission.numberOfPayments === 2 && commission.payment2Date !== null
      ? figures.secondPaymentAmount
      : '0.00';
  return money(dec(first).plus(dec(second)));
}
