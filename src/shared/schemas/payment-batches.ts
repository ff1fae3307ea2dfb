import { z } from 'zod';
import { exportFormat, reportColumns } from '../reports/columns';
import { isoDate, pageOf, pageQuery, uuid, versioned } from './common';

/** 'Nómina de pago' (issue 33, decision 0040): the API contract. */

/** The most payments one batch takes (one bank file); the list of payments ready is read up to it. */
export const MAX_BATCH_PAYMENTS = 1000;

export const PAYMENT_BATCH_STATUSES = ['open', 'paid', 'cancelled'] as const;
export type PaymentBatchStatus = (typeof PAYMENT_BATCH_STATUSES)[number];
export const PAYMENT_BATCH_STATUS_LABELS: Record<PaymentBatchStatus, string> = {
  open: 'Abierta',
  paid: 'Pagada',
  cancelled: 'Anulada',
};

/** A payment whose 'Fecha de Pago' is open: payable, or not and why. */
export const batchCandidate = z.object({
  flowId: z.uuid(),
  reservationId: z.uuid(),
  reservationNumber: z.string(),
  paymentNumber: z.union([z.literal(1), z.literal(2)]),
  brokerId: z.uuid(),
  brokerRut: z.string(),
  brokerName: z.string(),
  bankName: z.string().nullable(),
  bankAccountType: z.string().nullable(),
  bankAccountNumber: z.string().nullable(),
  email: z.string().nullable(),
  /** The invoice's amount to pay (a factura's total, a boleta's net), whole pesos; null without one. */
  amountClp: z.string().nullable(),
  invoiceFolio: z.string().nullable(),
  reference: z.string(),
  /** The open batch the payment is in already, by number. */
  openBatchNumber: z.number().int().nullable(),
  isPayable: z.boolean(),
  /** Why it cannot go into a batch, in Spanish; null when it can. */
  notPayableReason: z.string().nullable(),
});
export type BatchCandidate = z.infer<typeof batchCandidate>;

export const batchCandidates = z.object({
  rows: z.array(batchCandidate),
  /** More payments are ready than one answer lists (MAX_BATCH_PAYMENTS). */
  isCapped: z.boolean(),
  /** What the viewer may do: make a batch of the payable ones. */
  canCreate: z.boolean(),
});
export type BatchCandidates = z.infer<typeof batchCandidates>;

export const paymentBatchCreateBody = z.strictObject({
  flowIds: z
    .array(uuid(), { error: 'Elija los pagos de la nómina' })
    .min(1, { error: 'Elija al menos un pago' })
    .max(MAX_BATCH_PAYMENTS, { error: `Una nómina lleva a lo más ${MAX_BATCH_PAYMENTS} pagos` }),
});
export type PaymentBatchCreateBody = z.input<typeof paymentBatchCreateBody>;

export const paymentBatchPaidBody = z.strictObject({
  paidDate: isoDate('Ingrese una fecha de pago válida'),
  ...versioned,
});
export type PaymentBatchPaidBody = z.input<typeof paymentBatchPaidBody>;

export const paymentBatchCancelBody = z.strictObject(versioned);

export const paymentBatchListQuery = pageQuery.omit({ search: true });
export type PaymentBatchListQuery = Partial<z.input<typeof paymentBatchListQuery>>;

export const paymentBatchRow = z.object({
  id: z.uuid(),
  number: z.number().int(),
  status: z.enum(PAYMENT_BATCH_STATUSES),
  paymentCount: z.number().int(),
  totalClp: z.string(),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  paidDate: z.string().nullable(),
  paidByName: z.string().nullable(),
});
export type PaymentBatchRow = z.infer<typeof paymentBatchRow>;
export const paymentBatchPage = pageOf(paymentBatchRow);
export type PaymentBatchPage = z.infer<typeof paymentBatchPage>;

/** One line of the bank file: the generic layout's columns (BATCH_FILE_COLUMNS). */
export const batchLine = z.object({
  flowId: z.uuid(),
  reservationId: z.uuid(),
  reservationNumber: z.string(),
  paymentNumber: z.number().int(),
  brokerRut: z.string(),
  brokerName: z.string(),
  bankName: z.string(),
  bankAccountType: z.string(),
  bankAccountNumber: z.string(),
  amountClp: z.string(),
  reference: z.string(),
  email: z.string().nullable(),
});
export type BatchLine = z.infer<typeof batchLine>;

export const paymentBatchView = paymentBatchRow.extend({
  paidAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  version: z.number().int(),
  lines: z.array(batchLine),
  /** What the viewer may do now (the server decides; the screen renders). */
  canExport: z.boolean(),
  canMarkPaid: z.boolean(),
  /** Administrators may record a past day; the payments team pays today. */
  canChoosePaidDate: z.boolean(),
  canCancel: z.boolean(),
});
export type PaymentBatchView = z.infer<typeof paymentBatchView>;
export const paymentBatchAnswer = z.object({ batch: paymentBatchView });
export type PaymentBatchAnswer = z.infer<typeof paymentBatchAnswer>;

export const paymentBatchExportQuery = z.strictObject({ format: exportFormat });

/** The file for the bank: a generic layout (one line per transfer), as CSV or XLSX. */
export const BATCH_FILE_COLUMNS = reportColumns<BatchLine>()([
  { key: 'brokerRut', header: 'RUT Beneficiario', format: 'text', width: 14 },
  { key: 'brokerName', header: 'Nombre Beneficiario', format: 'text', width: 32 },
  { key: 'bankName', header: 'Banco', format: 'text', width: 22 },
  { key: 'bankAccountType', header: 'Tipo de Cuenta', format: 'text', width: 18 },
  { key: 'bankAccountNumber', header: 'Número de Cuenta', format: 'text', width: 20 },
  { key: 'amountClp', header: 'Monto', format: 'clp' },
  { key: 'reference', header: 'Referencia', format: 'text', width: 36 },
  { key: 'email', header: 'Correo Electrónico', format: 'text', width: 30 },
]);
