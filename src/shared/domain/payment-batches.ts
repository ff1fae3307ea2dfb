import { ACCOUNT_TYPES } from './accounts';
import { dec, toFixed } from './decimal';

/**
 * 'Nómina de pago' (issue 33, decision 0040): the bank data a broker is paid to, why a payment
 * cannot go into a batch, and a batch's total. Pure; the server and the screens call it.
 */

/** The account types a broker may be paid to: the agencies' three and BancoEstado's Cuenta RUT. */
export const BROKER_ACCOUNT_TYPES = [...ACCOUNT_TYPES, 'Cuenta RUT'] as const;
export type BrokerAccountType = (typeof BROKER_ACCOUNT_TYPES)[number];

/** An account number as banks print it ('00-123-45678-9', '123 456') reduced to its digits. */
export function normaliseAccountNumber(value: string): string {
  return value.replace(/[\s.-]/g, '');
}

/** 4 to 20 digits once spaces, dots and hyphens are taken out. */
export function isAccountNumber(value: string): boolean {
  return /^[0-9]{4,20}$/.test(normaliseAccountNumber(value));
}

export interface PayeeBankData {
  bankName: string | null;
  bankAccountType: string | null;
  bankAccountNumber: string | null;
}

/** Why a broker cannot be paid by the bank file, in Spanish; null when it can. */
export function bankDataProblem(broker: PayeeBankData): string | null {
  const missing = [
    broker.bankName ? null : 'banco',
    broker.bankAccountType ? null : 'tipo de cuenta',
    broker.bankAccountNumber ? null : 'número de cuenta',
  ].filter((part): part is string => part !== null);
  if (missing.length === 0) return null;
  if (missing.length === 3) return 'El broker no tiene datos bancarios';
  return `Faltan datos bancarios del broker: ${missing.join(', ')}`;
}

/** 'Cuenta por verificar' (issue 53): bank data nobody but its author has looked at yet. */
export const ACCOUNT_UNVERIFIED = 'Cuenta por verificar';

/** The last four digits of an account, all a notice or a warning shows ('···· 5678'). */
export function lastFour(accountNumber: string): string {
  return `···· ${accountNumber.slice(-4)}`;
}

/** The pesos to transfer for an invoice: a factura's total; a boleta's net to pay (the withholding stays). */
export function amountToPay(invoice: {
  kind: 'taxed' | 'exempt' | 'fees';
  totalAmount: string | null;
  payableAmount: string | null;
}): string | null {
  return invoice.kind === 'fees' ? invoice.payableAmount : invoice.totalAmount;
}

/** A batch's total in whole pesos ('0' for none). */
export function batchTotal(amounts: readonly string[]): string {
  return toFixed(
    amounts.reduce((sum, amount) => sum.plus(dec(amount)), dec(0)),
    0,
  );
}

/** The transfer's reference the bank shows the broker: reservation and payment ('Reserva 1234 pago 1'). */
export function paymentReference(reservationNumber: string, isSecondPayment: boolean): string {
  return `Comision reserva ${reservationNumber} pago ${isSecondPayment ? 2 : 1}`.slice(0, 60);
}

/** How a payment's invoice stands for the batch (read by the server with the invoice's own check). */
export type BatchInvoiceState =
  | { state: 'missing' }
  | { state: 'mismatch'; folio: string }
  | { state: 'ready'; folio: string; amountToPay: string | null };

/**
 * Every reason a payment whose 'Fecha de Pago' is open cannot go into a new batch, as sentences, all
 * at once (issue 53); none when it can: already in an open batch, no bank data, a changed account no
 * second person has verified, no invoice recorded, an invoice that does not match the payment and
 * was not accepted, an invoice without the amount to pay.
 */
export function notPayableReasons(
  payment: PayeeBankData & { openBatchNumber: number | null; isBankVerified: boolean },
  invoice: BatchInvoiceState,
): string[] {
  const reasons: string[] = [];
  if (payment.openBatchNumber !== null)
    reasons.push(`Ya está en la nómina abierta N° ${payment.openBatchNumber}`);
  const bank = bankDataProblem(payment);
  if (bank !== null) reasons.push(bank);
  else if (!payment.isBankVerified)
    reasons.push(
      `${ACCOUNT_UNVERIFIED}: otra persona de pagos debe verificar el cambio de cuenta del broker`,
    );
  if (invoice.state === 'missing') reasons.push('Falta registrar la factura del broker');
  else if (invoice.state === 'mismatch')
    reasons.push(
      `La factura folio ${invoice.folio} no cuadra con el pago y un administrador no ha aceptado la diferencia`,
    );
  else if (invoice.amountToPay === null) reasons.push('La factura no indica el monto a pagar');
  return reasons;
}
