/**
 * One meaning of "rescinded" on every screen (issue 28 §4). A rescinded reservation is not a sale:
 * - every list keeps showing it, marked 'Resciliada' (badge on screen, 'Estado' column in exports);
 * - no figure counts it: the dashboard (counts, months, projects, Top Brokers), the totals row of
 *   Informe de Comisiones, Proyección Comisiones and Informe de Brokers, the cards of Informe de
 *   Ventas and the consolidated view's totals;
 * - a commission at risk is still a live commission: it counts wherever commissions are summed,
 *   except in Consolidado Brokers, whose Total Comisiones the spec defines without it (part 2 §9;
 *   its paid part is Total En Riesgo) — the screen and the export say so.
 * Where a figure leaves rows out that its list shows, the screen says it (`FIGURE_NOTES`). The SQL
 * sums follow `countsInFigures` (reports.queries.ts `liveSum`; the dashboard's rollups, migration
 * 0006); reports.test.ts holds them equal on lists that mix both.
 */

export const RESERVATION_STATES = { live: 'Vigente', rescinded: 'Resciliada' } as const;
export type ReservationState = (typeof RESERVATION_STATES)[keyof typeof RESERVATION_STATES];

/** The 'Estado' of a reservation in exports: 'Vigente' or 'Resciliada'. */
export function reservationState(row: { isRescinded: boolean }): ReservationState {
  return row.isRescinded ? RESERVATION_STATES.rescinded : RESERVATION_STATES.live;
}

/** Whether a reservation's amounts and its count enter a figure (a sum, a total, a count). */
export function countsInFigures(row: { isRescinded: boolean }): boolean {
  return !row.isRescinded;
}

/** What a figure leaves out, said beside it where its list shows more rows. */
export const FIGURE_NOTES = {
  rescinded: 'excluye resciliadas',
  rescindedAndAtRisk: 'excluye resciliadas y en riesgo',
} as const;

/** The label of an export's totals row that leaves the rescinded rows out. */
export const LIVE_TOTALS_LABEL = `Totales (${FIGURE_NOTES.rescinded})`;
