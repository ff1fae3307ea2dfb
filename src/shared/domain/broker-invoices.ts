import { Big, dec } from './decimal';
import { VAT_RATE } from './pricing';
import { normalizeRut } from './rut';
import { UF_MISSING_LABEL } from './uf';

/**
 * The broker's invoice checked against the payment (issue 33, DESIGN §17, decision 0039). Pure: the
 * invoice's figures and what the payment expects go in; out come the lines, each expected against
 * received. Whole pesos, computed with big.js, half-up (the half peso goes up) as `uf.ts`.
 */

export const BROKER_INVOICE_KINDS = ['taxed', 'exempt', 'fees'] as const;
export type BrokerInvoiceKind = (typeof BROKER_INVOICE_KINDS)[number];
export const BROKER_INVOICE_KIND_LABELS: Record<BrokerInvoiceKind, string> = {
  taxed: 'Factura electrónica afecta',
  exempt: 'Factura electrónica exenta',
  fees: 'Boleta de honorarios',
};

export const BROKER_INVOICE_SOURCES = ['manual', 'xml', 'import'] as const;
export type BrokerInvoiceSource = (typeof BROKER_INVOICE_SOURCES)[number];
export const BROKER_INVOICE_SOURCE_LABELS: Record<BrokerInvoiceSource, string> = {
  manual: 'Ingresada a mano',
  xml: 'Leída del XML',
  // An imported paid payment's invoice number: the file carries no amounts (decision 0063).
  import: 'Importada (montos del pago)',
};

/** A peso of difference is rounding on one side or the other, not a mismatch. */
export const PESO_TOLERANCE = 1;
/** Ley 19.983: the receiver has 8 calendar days from reception to claim an invoice. */
export const CLAIM_DAYS = 8;

/** Whole pesos of `amount × percent / 100`, half-up. */
export function percentOf(amount: string, percent: string): string {
  return dec(amount).times(dec(percent)).div(100).round(0, Big.roundHalfUp).toFixed(0);
}

/** The IVA of a net amount: 19 %, half-up to the peso. */
export function vatOf(net: string): string {
  return dec(net).times(dec(VAT_RATE)).round(0, Big.roundHalfUp).toFixed(0);
}

/** The net of an amount that includes IVA: amount / 1,19, half-up to the peso. */
export function netOfGross(amountWithVat: string): string {
  return dec(amountWithVat)
    .div(dec(1).plus(dec(VAT_RATE)))
    .round(0, Big.roundHalfUp)
    .toFixed(0);
}

/**
 * The figures of a factura afecta for a payment of these pesos, exactly as `checkInvoice` expects them:
 * what an imported invoice number is recorded with, since the file carries no amounts (decision 0063).
 */
export function taxedInvoiceOfPayment(
  clp: string,
  includesVat: boolean,
): { netAmount: string; vatAmount: string; totalAmount: string } {
  const pesos = dec(clp).round(0, Big.roundHalfUp).toFixed(0);
  const netAmount = includesVat ? netOfGross(pesos) : pesos;
  const vatAmount = vatOf(netAmount);
  const totalAmount = includesVat ? pesos : dec(netAmount).plus(dec(vatAmount)).toFixed(0);
  return { netAmount, vatAmount, totalAmount };
}

export interface WithholdingRate {
  year: number;
  /** Percent with two decimals ('15.25'). */
  rate: string;
}

/**
 * The boleta's withholding rate of a year: that year's row, or the last year's before it (the
 * schedule ends at 17 % and stays there); null before the table's first year.
 */
export function withholdingRateOf(rates: readonly WithholdingRate[], year: number): string | null {
  let found: WithholdingRate | null = null;
  for (const row of rates) {
    if (row.year <= year && (found === null || row.year > found.year)) found = row;
  }
  return found?.rate ?? null;
}

/** The invoice's figures as recorded (whole pesos as decimal strings; null where the kind has none). */
export interface InvoiceFigures {
  kind: BrokerInvoiceKind;
  issuerRut: string;
  issueDate: string;
  netAmount: string | null;
  vatAmount: string | null;
  totalAmount: string | null;
  grossAmount: string | null;
  withholdingAmount: string | null;
  payableAmount: string | null;
}

/** What the payment expects of its invoice. */
export interface PaymentExpectation {
  brokerRut: string;
  /** The payment in pesos; null when the UF value of the day it needs is not loaded. */
  clp: string | null;
  /** The commission's amount includes IVA: the payment's pesos are the invoice's total, not its net. */
  includesVat: boolean;
  /** The withholding rate of the issue date's year (boleta); null when the table has none. */
  withholdingRate: string | null;
  /** Pesos a rounding may move the amounts (`roundingTolerance`); a peso when not given. */
  tolerance?: string;
}

export type CheckLineKey = 'issuerRut' | 'net' | 'vat' | 'total' | 'gross' | 'withholding' | 'payable';

export interface CheckLine {
  key: CheckLineKey;
  label: string;
  /** What the payment asks for; null when it cannot be known (the reason is in `note`). */
  expected: string | null;
  received: string;
  matches: boolean;
  note: string | null;
}

export interface InvoiceCheck {
  matches: boolean;
  lines: CheckLine[];
}

function amountLine(
  key: CheckLineKey,
  label: string,
  expected: string | null,
  received: string | null,
  missingNote: string,
  tolerance: string | null = String(PESO_TOLERANCE),
): CheckLine {
  const value = received ?? '0';
  if (expected === null)
    return { key, label, expected: null, received: value, matches: false, note: missingNote };
  const matches =
    tolerance === null
      ? dec(expected).eq(dec(value))
      : dec(expected).minus(dec(value)).abs().lte(dec(tolerance));
  return { key, label, expected, received: value, matches, note: null };
}

/**
 * The check, line by line (issue 33): the issuer is the broker; a factura afecta's net is the
 * payment's pesos (its total when the commission includes IVA), its IVA 19 % of its net and its total
 * net plus IVA; an exenta's total is the payment's pesos and its IVA 0; a boleta's gross is the
 * payment's pesos, its withholding the year's rate of its gross and its net to pay gross minus
 * withholding. Amounts within a peso match. A missing UF value or rate is a mismatch that says why,
 * never a guess.
 */
export function checkInvoice(invoice: InvoiceFigures, payment: PaymentExpectation): InvoiceCheck {
  const lines: CheckLine[] = [];
  const brokerRut = normalizeRut(payment.brokerRut) ?? payment.brokerRut;
  const issuerRut = normalizeRut(invoice.issuerRut) ?? invoice.issuerRut;
  lines.push({
    key: 'issuerRut',
    label: 'RUT emisor',
    expected: brokerRut,
    received: issuerRut,
    matches: brokerRut === issuerRut,
    note: null,
  });
  const clp = payment.clp;
  const tolerance = payment.tolerance ?? String(PESO_TOLERANCE);
  if (invoice.kind === 'taxed') {
    const net = invoice.netAmount ?? '0';
    const vat = invoice.vatAmount ?? '0';
    // The IVA is checked against the net the payment expects, never the net received (issue 53): a
    // wrong net with its own 19 % is still wrong.
    const expectedNet = clp === null ? null : payment.includesVat ? netOfGross(clp) : clp;
    const expectedVat = expectedNet === null ? null : vatOf(expectedNet);
    const expectedTotal = payment.includesVat
      ? clp
      : expectedNet === null
        ? null
        : dec(expectedNet).plus(dec(expectedVat!)).toFixed(0);
    lines.push(amountLine('net', 'Neto', expectedNet, net, UF_MISSING_LABEL, tolerance));
    lines.push(amountLine('vat', 'IVA (19 %)', expectedVat, vat, UF_MISSING_LABEL, tolerance));
    lines.push(amountLine('total', 'Total', expectedTotal, invoice.totalAmount, UF_MISSING_LABEL, tolerance));
  } else if (invoice.kind === 'exempt') {
    lines.push(amountLine('vat', 'IVA', '0', invoice.vatAmount, '', null));
    lines.push(amountLine('total', 'Total', clp, invoice.totalAmount, UF_MISSING_LABEL, tolerance));
  } else {
    const gross = invoice.grossAmount ?? '0';
    const withholding = invoice.withholdingAmount ?? '0';
    const rate = payment.withholdingRate;
    lines.push(amountLine('gross', 'Monto bruto', clp, gross, UF_MISSING_LABEL, tolerance));
    lines.push(
      amountLine(
        'withholding',
        rate === null ? 'Retención' : `Retención (${rate.replace('.', ',')} %)`,
        rate === null ? null : percentOf(gross, rate),
        withholding,
        `Tasa de retención no disponible para ${invoice.issueDate.slice(0, 4)}`,
      ),
    );
    lines.push(
      amountLine(
        'payable',
        'Líquido a pagar',
        dec(gross).minus(dec(withholding)).toFixed(0),
        invoice.payableAmount,
        '',
      ),
    );
  }
  return { matches: lines.every((line) => line.matches), lines };
}

export interface ClaimCountdown {
  /** The last day to claim: reception + 8 calendar days. */
  deadline: string;
  /** Days from today to the deadline (0 on the deadline itself; negative once past). */
  daysLeft: number;
  isExpired: boolean;
  label: string;
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string) =>
  Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) / DAY_MS;

/**
 * Ley 19.983 art. 3: the invoice may be claimed within the 8 calendar days following its reception.
 * Received on the 10th: 'Quedan 8 días' that day, the 18th is the last ('Hoy vence…'), from the
 * 19th 'Plazo de reclamo vencido'.
 */
export function claimCountdown(receivedDate: string, today: string): ClaimCountdown {
  const deadlineNumber = dayNumber(receivedDate) + CLAIM_DAYS;
  const deadline = new Date(deadlineNumber * DAY_MS).toISOString().slice(0, 10);
  const daysLeft = deadlineNumber - dayNumber(today);
  const isExpired = daysLeft < 0;
  const label = isExpired
    ? 'Plazo de reclamo vencido'
    : daysLeft === 0
      ? 'Hoy vence el plazo para reclamar la factura'
      : daysLeft === 1
        ? 'Queda 1 día para reclamar la factura'
        : `Quedan ${daysLeft} días para reclamar la factura`;
  return { deadline, daysLeft, isExpired, label };
}

/**
 * The pesos a rounding may move a payment (issue 53, decision 0053): `perUf` pesos for each UF paid
 * (a setting, $ 1 by default), never less than a peso.
 */
export function roundingTolerance(paymentUf: string, perUf: string): string {
  const allowed = dec(paymentUf).abs().times(dec(perUf)).round(0, Big.roundHalfUp);
  return allowed.lt(PESO_TOLERANCE) ? String(PESO_TOLERANCE) : allowed.toFixed(0);
}

export interface PaidAmountExplained {
  /** What is paid: the invoice's total to pay (a boleta's net to pay). */
  amountToPay: string;
  /** UF × the day's value: what the product records as the commission's pesos. */
  ufClp: string;
  /** amountToPay − ufClp. */
  difference: string;
  /** Why they differ, in Spanish; null when they do not. */
  cause: string | null;
}

/**
 * One amount paid, explained (issue 53, decision 0053): the invoice's total to pay beside UF × the
 * day's value, their difference and its cause — the IVA a commission without IVA adds, the boleta's
 * withholding, a rounding within the tolerance, or a difference an administrator accepted (with the
 * reason). The parts are named in that order; what is left beyond them is the rounding or the
 * accepted difference.
 */
export function explainPaidAmount(input: {
  kind: BrokerInvoiceKind;
  includesVat: boolean;
  amountToPay: string;
  ufClp: string;
  /** The boleta's withholding (its gross − its net to pay). */
  withholding: string | null;
  tolerance: string;
  acceptanceReason: string | null;
}): PaidAmountExplained {
  const difference = dec(input.amountToPay).minus(dec(input.ufClp));
  const parts: string[] = [];
  let rest = difference;
  if (input.kind === 'taxed' && !input.includesVat) {
    const vat = dec(vatOf(input.ufClp));
    parts.push(`IVA (19 %) de la factura: $ ${formatPesos(vat.toFixed(0))}`);
    rest = rest.minus(vat);
  }
  if (input.kind === 'fees' && input.withholding !== null) {
    parts.push(`retención de la boleta: −$ ${formatPesos(input.withholding)}`);
    rest = rest.plus(dec(input.withholding));
  }
  if (!rest.eq(0)) {
    const amount = `${rest.lt(0) ? '−' : ''}$ ${formatPesos(rest.abs().toFixed(0))}`;
    if (rest.abs().lte(dec(input.tolerance)))
      parts.push(`redondeo de ${amount} (dentro de la tolerancia de $ ${formatPesos(input.tolerance)})`);
    else if (input.acceptanceReason !== null)
      parts.push(`diferencia de ${amount} aceptada por un administrador: «${input.acceptanceReason}»`);
    else parts.push(`diferencia de ${amount} sin aceptar`);
  }
  const cause =
    parts.length === 0 ? null : `${parts[0]!.charAt(0).toUpperCase()}${parts.join('; ').slice(1)}`;
  return { amountToPay: input.amountToPay, ufClp: input.ufClp, difference: difference.toFixed(0), cause };
}

/** Whole pesos with Chilean thousands dots ('3.998.363'). */
function formatPesos(value: string): string {
  return value.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}
