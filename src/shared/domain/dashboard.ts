/**
 * Dashboard arithmetic (decision 0011): calendar months and the change versus the previous month.
 * Months are 'YYYY-MM' strings of the America/Santiago calendar.
 */

/** Six months of bars (spec part 1 §9). */
export const DASHBOARD_MONTHS = 6;
/** Five recent reservations, five recent payments, five top brokers. */
export const DASHBOARD_RECENT_ITEMS = 5;

/**
 * The change of `current` versus `previous` in whole percent, signed: round(|cur − prev| / prev × 100)
 * (half up) with the sign of cur − prev. A previous value of 0 gives 100, positive (spec part 1 §2).
 */
export function percentChange(current: number, previous: number): number {
  if (previous === 0) return 100;
  const difference = Math.abs(current - previous);
  // Integer half-up rounding of difference × 100 / previous, free of floating-point noise.
  const rounded = Math.floor((2 * difference * 100 + previous) / (2 * previous));
  return current < previous && rounded > 0 ? -rounded : rounded;
}

/** The month ('YYYY-MM') `offset` months after the given one (negative goes back). */
export function addMonths(month: string, offset: number): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (monthNumber - 1) + offset;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
}

/** The `count` months ending with `lastMonth`, oldest first. */
export function monthsEndingWith(lastMonth: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addMonths(lastMonth, i - (count - 1)));
}
