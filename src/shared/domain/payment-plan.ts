import { type DecimalInput, dec, money, toFixed } from './decimal';
import { reservationFigures } from './pricing';
import { ufToClp } from './uf';

/**
 * A sale's payment plan (issue 59, decision 0071): the quote's figures, one pure home for the
 * screen's preview, the server that stores them and the PDF. The final price is the reservation's
 * 'precio mínimo' (the apartment after its three successive discounts, plus parking and storage,
 * `reservationFigures`), so a quote turned into a reservation gives the same price. Amounts in UF:
 * prices, reserva, pie, crédito and subsidio to two decimals (as a reservation stores them); the pie's
 * cuotas to four decimals, split so that they add up exactly to the pie's balance.
 */

/** The largest number of cuotas any project may offer (a project's own maximum is data, at most this). */
export const MAX_INSTALLMENTS = 120;
/** Places of a cuota in UF. */
export const INSTALLMENT_PLACES = 4;

export interface PaymentPlanInput {
  apartmentPrice: DecimalInput;
  parkingPrice: DecimalInput;
  storagePrice: DecimalInput;
  /** Fractions 0..1, applied one after the other to the apartment price. */
  columnDiscount: DecimalInput;
  additionalDiscount: DecimalInput;
  otherDiscount: DecimalInput;
  /** Reserva, in UF: the first part of the pie. */
  reservationAmount: DecimalInput;
  /** Pie as a fraction 0..1 of the final price (the reserva included). */
  downPaymentFraction: DecimalInput;
  /** Cuotas the pie's balance (pie minus reserva) is paid in, 1 or more. */
  installments: number;
  /** Subsidio or bono pie, in UF: the part of the price neither pie nor crédito pays. */
  subsidyAmount: DecimalInput;
}

export interface PaymentPlan {
  /** Precio lista: the three prices. */
  listPrice: string;
  /** Precio final: after the discounts (the reservation's 'precio mínimo'). */
  finalPrice: string;
  discountAmount: string;
  reservation: string;
  /** Pie: its fraction of the final price, half-up to cents; the reserva is part of it. */
  downPayment: string;
  /** What the cuotas pay: pie minus reserva. */
  downPaymentBalance: string;
  /** The cuotas, four decimals each, adding up exactly to the pie's balance; larger ones first. */
  installments: string[];
  subsidy: string;
  /** Crédito hipotecario: the final price minus pie and subsidio. */
  credit: string;
}

/** Why a plan cannot be: the pie is less than the reserva, or pie and subsidio exceed the price. */
export type PaymentPlanRefusal = 'RESERVATION_OVER_DOWN_PAYMENT' | 'PLAN_OVER_PRICE';

/**
 * `total` (up to four decimals, not negative) in `count` parts of four decimals that add up exactly
 * to it: each is the total divided evenly, rounded down to 0.0001, and the ten-thousandths left over
 * go one each to the first parts. So no two parts differ by more than 0.0001.
 */
export function splitInstallments(total: DecimalInput, count: number): string[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError('count must be a whole number ≥ 1');
  const scale = 10 ** INSTALLMENT_PLACES;
  const units = dec(total).times(scale);
  if (!units.eq(units.round(0, 0)) || units.lt(0)) {
    throw new RangeError('total must be non-negative with at most four decimals');
  }
  const base = units.div(count).round(0, 0);
  const extra = Number(units.minus(base.times(count)).toFixed(0));
  return Array.from({ length: count }, (_, index) =>
    toFixed((index < extra ? base.plus(1) : base).div(scale), INSTALLMENT_PLACES),
  );
}

export function paymentPlan(
  input: PaymentPlanInput,
): { plan: PaymentPlan; refusal: null } | { plan: null; refusal: PaymentPlanRefusal } {
  const { totalPrice, minimumPrice } = reservationFigures(input);
  const finalPrice = dec(minimumPrice);
  const reservation = dec(money(dec(input.reservationAmount)));
  const downPayment = dec(money(finalPrice.times(dec(input.downPaymentFraction))));
  const subsidy = dec(money(dec(input.subsidyAmount)));
  if (reservation.gt(downPayment)) return { plan: null, refusal: 'RESERVATION_OVER_DOWN_PAYMENT' };
  const credit = finalPrice.minus(downPayment).minus(subsidy);
  if (credit.lt(0)) return { plan: null, refusal: 'PLAN_OVER_PRICE' };
  const balance = downPayment.minus(reservation);
  return {
    refusal: null,
    plan: {
      listPrice: totalPrice,
      finalPrice: money(finalPrice),
      discountAmount: money(dec(totalPrice).minus(finalPrice)),
      reservation: money(reservation),
      downPayment: money(downPayment),
      downPaymentBalance: money(balance),
      installments: splitInstallments(money(balance), input.installments),
      subsidy: money(subsidy),
      credit: money(credit),
    },
  };
}

/** The plan's lines in pesos at one UF value, each rounded half-up to whole pesos on its own. */
export function paymentPlanInClp(plan: PaymentPlan, ufValue: string) {
  const clp = (amount: string) => ufToClp(amount, ufValue);
  return {
    listPrice: clp(plan.listPrice),
    finalPrice: clp(plan.finalPrice),
    reservation: clp(plan.reservation),
    downPayment: clp(plan.downPayment),
    installment: clp(plan.installments[0] ?? '0'),
    subsidy: clp(plan.subsidy),
    credit: clp(plan.credit),
  };
}

/** The plan as a reservation's payments: reserva, pie (its balance), crédito, subsidio (bono pie). */
export function reservationPaymentsOf(plan: PaymentPlan) {
  return {
    reservationPayment: plan.reservation,
    promisePayment: '0.00',
    downPayment: plan.downPaymentBalance,
    creditPayment: plan.credit,
    subsidyPayment: plan.subsidy,
  };
}
