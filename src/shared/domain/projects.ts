/**
 * A project's delivery and installments (spec part 2 §2, §5), derived from its deadline on the
 * Santiago calendar day of `today` ('YYYY-MM-DD'): never stored, so they cannot go stale as months
 * pass.
 */

export type Delivery = 'Inmediata' | 'Futura';

/** Inmediata once the deadline has passed (the deadline day itself is still Futura). */
export function projectDelivery(deadline: string, today: string): Delivery {
  return deadline < today ? 'Inmediata' : 'Futura';
}

/**
 * 1 when the deadline has passed; otherwise the calendar months from today to the deadline plus one
 * (a deadline later this month: 1; next month: 2), never less than 1.
 */
export function projectInstallments(deadline: string, today: string): number {
  if (deadline < today) return 1;
  const months = monthIndex(deadline) - monthIndex(today);
  return Math.max(1, months + 1);
}

function monthIndex(isoDate: string): number {
  return Number(isoDate.slice(0, 4)) * 12 + Number(isoDate.slice(5, 7)) - 1;
}
