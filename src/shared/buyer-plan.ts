import { Big, dec } from './domain/decimal';

/**
 * The buyer's account (issue 60, decision 0073): a reservation's payment plan and how the payments
 * received are applied to it. Pure; the server stores what these functions compute and the screens
 * show it. UF amounts of the plan carry four decimals; pesos are whole.
 */

export const UF_PLACES = 4;
/** The smallest UF amount of a plan line: 0.0001. */
const UNIT = new Big('0.0001');
export const MAX_INSTALLMENTS = 120;

export const LINE_KINDS = ['reservation', 'promise', 'downPayment'] as const;
export type LineKind = (typeof LINE_KINDS)[number];
export const LINE_KIND_LABELS: Record<LineKind, string> = {
  reservation: 'Reserva',
  promise: 'Promesa',
  downPayment: 'Cuota pie',
};

export const PAYMENT_MEANS = ['transfer', 'bankDraft', 'cheque', 'card'] as const;
export type PaymentMeans = (typeof PAYMENT_MEANS)[number];
export const PAYMENT_MEANS_LABELS: Record<PaymentMeans, string> = {
  transfer: 'Transferencia',
  bankDraft: 'Vale vista',
  cheque: 'Cheque',
  card: 'Tarjeta',
};

/** A line of the plan the buyer pays the developer (crédito and subsidio are paid at the deed by others). */
export interface PlanLine {
  kind: LineKind;
  /** 0 for reserva and promesa; 1..N for the pie's cuotas. */
  number: number;
  dueDate: string;
  amountUf: string;
}

export interface PlanFigures {
  reservationDate: string;
  reservationUf: string;
  promiseDate: string;
  promiseUf: string;
  downPaymentUf: string;
  installmentCount: number;
}

/** 'YYYY-MM-DD' plus whole months, the day kept or the month's last day when it has fewer (31 → 28/29/30). */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth, 0)).getUTCDate();
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(targetYear, 4)}-${pad(targetMonth)}-${pad(Math.min(day, lastDay))}`;
}

/**
 * The pie in N cuotas of four decimals that sum exactly to it: each the pie / N rounded down to
 * 0.0001, the first ones one 0.0001 more until nothing is left (no two differ by more than 0.0001).
 */
export function splitDownPayment(downPaymentUf: string, count: number): string[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError('count must be a positive integer');
  const total = dec(downPaymentUf);
  const units = total.div(UNIT).round(0, Big.roundDown);
  const base = units.div(count).round(0, Big.roundDown);
  const extra = Number(units.minus(base.times(count)).toFixed(0));
  return Array.from({ length: count }, (_, index) =>
    base
      .plus(index < extra ? 1 : 0)
      .times(UNIT)
      .toFixed(UF_PLACES),
  );
}

/**
 * The plan's lines in the order payments are applied: reserva (at the reservation), promesa (at the
 * promise), then the pie's cuotas monthly from one month after the promise. Lines of 0 UF are left out.
 */
export function buildPlan(figures: PlanFigures): PlanLine[] {
  const lines: PlanLine[] = [];
  if (dec(figures.reservationUf).gt(0)) {
    lines.push({
      kind: 'reservation',
      number: 0,
      dueDate: figures.reservationDate,
      amountUf: dec(figures.reservationUf).toFixed(UF_PLACES),
    });
  }
  if (dec(figures.promiseUf).gt(0)) {
    lines.push({
      kind: 'promise',
      number: 0,
      dueDate: figures.promiseDate,
      amountUf: dec(figures.promiseUf).toFixed(UF_PLACES),
    });
  }
  if (dec(figures.downPaymentUf).gt(0)) {
    splitDownPayment(figures.downPaymentUf, figures.installmentCount).forEach((amountUf, index) => {
      lines.push({
        kind: 'downPayment',
        number: index + 1,
        dueDate: addMonths(figures.promiseDate, index + 1),
        amountUf,
      });
    });
  }
  return lines;
}

/** Whole months from the promise to the deed: the most cuotas that fall due before the deed. */
export function monthsBetween(fromDate: string, toDate: string): number {
  let months = 0;
  while (months < MAX_INSTALLMENTS && addMonths(fromDate, months + 1) <= toDate) months += 1;
  return months;
}

/**
 * The UF a payment in pesos pays at that day's UF value, to four decimals (half-up): what the buyer's
 * pesos bought on the day they were received.
 */
export function clpToUf(amountClp: string, ufValue: string): string {
  return dec(amountClp).div(dec(ufValue)).round(UF_PLACES, Big.roundHalfUp).toFixed(UF_PLACES);
}

/**
 * What the payments received pay of each line, oldest first: line i gets what is left of the total after
 * the lines before it, up to its amount. The rest (more than the plan) is `unapplied`, never dropped.
 */
export function allocate(
  lines: readonly { amountUf: string }[],
  paidUf: string,
): { paidUf: string[]; unappliedUf: string } {
  let left = dec(paidUf);
  const paid = lines.map((line) => {
    const amount = dec(line.amountUf);
    const applied = left.gt(amount) ? amount : left.gt(0) ? left : new Big(0);
    left = left.minus(applied);
    return applied.toFixed(UF_PLACES);
  });
  return { paidUf: paid, unappliedUf: left.toFixed(UF_PLACES) };
}

/** Whole calendar days from a due date to today (0 or less: not late). */
export function daysLate(dueDate: string, today: string): number {
  const utc = (date: string) => {
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    return Date.UTC(year, month - 1, day);
  };
  return Math.round((utc(today) - utc(dueDate)) / 86_400_000);
}

/** Sum of UF strings, four decimals. */
export function sumUf(amounts: readonly string[]): string {
  return amounts.reduce((sum, amount) => sum.plus(dec(amount)), new Big(0)).toFixed(UF_PLACES);
}

/** A plan's UF amount as the account shows it: 'UF 1.234,5678' (four decimals, es-CL). */
export function formatPlanUf(value: string): string {
  const [whole, fraction] = dec(value).toFixed(UF_PLACES).split('.');
  const negative = whole!.startsWith('-');
  const grouped = whole!.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `UF ${negative ? '-' : ''}${grouped},${fraction}`;
}
