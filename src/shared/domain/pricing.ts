import { type Big, type DecimalInput, dec, money, toFixed } from './decimal';

/**
 * Reservation and broker-commission figures (spec part 1 §9, part 2 "Commission edit").
 * One implementation for the form's live preview and for the server, which recomputes and stores
 * them (it never trusts a computed value from the client). Amounts in UF are decimal strings,
 * rounded half-up to two decimals; discounts are fractions 0..1.
 */

/**
 * IVA (DL 825): 19 %, as a fraction. Its one home: a commission that includes it (below) and the
 * brokers' invoices (`broker-invoices.ts`) read it here.
 */
export const VAT_RATE = '0.19';

/** Missing amounts count as zero. */
export interface ReservationPriceInput {
  apartmentPrice?: DecimalInput;
  parkingPrice?: DecimalInput;
  storagePrice?: DecimalInput;
  /** Fractions 0..1, applied one after the other to the apartment price. */
  columnDiscount?: DecimalInput;
  additionalDiscount?: DecimalInput;
  otherDiscount?: DecimalInput;
  reservationPayment?: DecimalInput;
  promisePayment?: DecimalInput;
  downPayment?: DecimalInput;
  creditPayment?: DecimalInput;
  /** 'Bono Pie': part of the escrituración total that the developer does not recover. */
  subsidyPayment?: DecimalInput;
}

export interface ReservationFigures {
  /** Precio lista: the sum of the three prices. */
  totalPrice: string;
  /** Precio mínimo: the apartment after three successive discounts, plus parking and storage. */
  minimumPrice: string;
  /** Total escrituración: the sum of the five payments. */
  totalPayment: string;
  /** Total recuperación: escrituración minus the subsidy. */
  recoveryPayment: string;
}

/** The figures the server computes from a reservation's inputs, as stored and shown. */
export const RESERVATION_FIGURE_FIELDS = [
  'totalPrice',
  'minimumPrice',
  'totalPayment',
  'recoveryPayment',
] as const satisfies readonly (keyof ReservationFigures)[];

function discounted(price: Big, ...fractions: DecimalInput[]): Big {
  return fractions.reduce<Big>((value, fraction) => value.times(dec(1).minus(dec(fraction))), price);
}

export function reservationFigures(input: ReservationPriceInput): ReservationFigures {
  const apartment = dec(input.apartmentPrice);
  const parking = dec(input.parkingPrice);
  const storage = dec(input.storagePrice);
  const apartmentAfterDiscounts = discounted(
    apartment,
    input.columnDiscount,
    input.additionalDiscount,
    input.otherDiscount,
  );
  const totalPayment = dec(input.reservationPayment)
    .plus(dec(input.promisePayment))
    .plus(dec(input.downPayment))
    .plus(dec(input.creditPayment))
    .plus(dec(input.subsidyPayment));
  return {
    totalPrice: money(apartment.plus(parking).plus(storage)),
    minimumPrice: money(apartmentAfterDiscounts.plus(parking).plus(storage)),
    totalPayment: money(totalPayment),
    recoveryPayment: money(totalPayment.minus(dec(input.subsidyPayment))),
  };
}

export interface CommissionInput {
  commissionAmount: DecimalInput;
  commissionIncludesTax: boolean;
  paysSecondary: boolean;
  numberOfPayments: 1 | 2;
  firstPaymentPercentage: 25 | 50 | 100;
}

export interface CommissionFigures {
  /** Gross / 1.19 when the commission includes tax, else the gross amount. */
  netCommission: string;
  /** Minimum price, minus parking and storage unless the broker is paid on them (pays_secondary). */
  commissionBase: string;
  /** Commission / base × 100 (two decimals); 0 when the base is 0. */
  commissionPercentage: string;
  firstPaymentAmount: string;
  firstPaymentPercentage: string;
  /** The remainder of the commission (0 with one payment). */
  secondPaymentAmount: string;
  secondPaymentPercentage: string;
  /** Recovery minus minimum price minus commission (may be negative). */
  difference: string;
}

/** What says how a commission is paid: its amount, in one or two payments, the first's percentage. */
export interface PaymentSplitInput {
  commissionAmount: DecimalInput;
  numberOfPayments: number;
  firstPaymentPercentage: number;
}

/**
 * A commission's two payments, the one home of the first payment's amount (issue 62): with one
 * payment the first is all of it, else its percentage of the commission, half-up to cents; the
 * second is the rest. SQL's copy is `firstPaymentUf` (reports.queries.ts), held equal by the reports'
 * tests (Consolidado, pesos).
 */
export function paymentSplit(commission: PaymentSplitInput): {
  firstPercentage: number;
  first: string;
  second: string;
} {
  const gross = dec(commission.commissionAmount);
  const firstPercentage = commission.numberOfPayments === 1 ? 100 : commission.firstPaymentPercentage;
  const first = dec(money(gross.times(firstPercentage).div(100)));
  return { firstPercentage, first: money(first), second: money(gross.minus(first)) };
}

export function commissionFigures(
  commission: CommissionInput,
  reservation: Pick<ReservationFigures, 'minimumPrice' | 'recoveryPayment'> & {
    parkingPrice: DecimalInput;
    storagePrice: DecimalInput;
  },
): CommissionFigures {
  const gross = dec(commission.commissionAmount);
  const net = commission.commissionIncludesTax ? gross.div(dec(1).plus(dec(VAT_RATE))) : gross;
  const minimum = dec(reservation.minimumPrice);
  const base = commission.paysSecondary
    ? minimum
    : minimum.minus(dec(reservation.parkingPrice)).minus(dec(reservation.storagePrice));
  const percentage = base.gt(0) ? gross.div(base).times(100) : dec(0);
  const { firstPercentage, first, second } = paymentSplit(commission);
  return {
    netCommission: money(net),
    commissionBase: money(base),
    commissionPercentage: toFixed(percentage, 2),
    firstPaymentAmount: first,
    firstPaymentPercentage: String(firstPercentage),
    secondPaymentAmount: second,
    secondPaymentPercentage: String(100 - firstPercentage),
    difference: money(dec(reservation.recoveryPayment).minus(minimum).minus(gross)),
  };
}

/**
 * A percent typed by the user (12.5) as the stored fraction ('0.125'). Never clamped: 150 or -10 stay
 * what they are ('1.500000', '-0.100000') and the schema refuses them with its message — a value cut
 * silently to another one is a value the user did not type (issue 28).
 */
export function percentToFraction(percent: DecimalInput): string {
  return toFixed(dec(percent).div(100), 6);
}

/** A stored fraction ('0.125') as the percent the user edits (12.5), without float noise. */
export function fractionToPercent(fraction: DecimalInput): number {
  return Number(toFixed(dec(fraction).times(100), 4));
}
