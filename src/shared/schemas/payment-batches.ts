import { z } from 'zod';
import { BANK_FILE_FIELD_KEYS } from '../domain/bank-file';
import { exportFormat, reportColumns } from '../reports/columns';
import { isoDate, pageOf, pageQuery, requiredText, uuid, versioned } from './common';

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
  /** Whose the account is: the beneficiary the bank file names (issue 53). */
  holderName: z.string().nullable(),
  holderRut: z.string().nullable(),
  /** False: 'Cuenta por verificar' (a change no second person has verified). */
  isBankVerified: z.boolean(),
  email: z.string().nullable(),
  /** The invoice's amount to pay (a factura's total, a boleta's net), whole pesos; null without one. */
  amountClp: z.string().nullable(),
  /**
   * One amount paid, explained (issue 53, decision 0053): the invoice's total to pay beside UF × the
   * day's value, their difference and its cause; null without a ready invoice or the day's UF.
   */
  paidAmount: z
    .object({
      amountToPay: z.string(),
      ufClp: z.string(),
      difference: z.string(),
      cause: z.string().nullable(),
    })
    .nullable(),
  invoiceFolio: z.string().nullable(),
  reference: z.string(),
  /** The open batch the payment is in already, by number. */
  openBatchNumber: z.number().int().nullable(),
  isPayable: z.boolean(),
  /** Every reason it cannot go into a batch, in Spanish (issue 53); none when it can. */
  notPayableReasons: z.array(z.string()),
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
  /** The beneficiary as the batch was made: the account's holder (issue 53). */
  holderName: z.string(),
  holderRut: z.string(),
  amountClp: z.string(),
  reference: z.string(),
  email: z.string().nullable(),
  /** The broker's account changed after the batch was made: the batch keeps the data it was made with. */
  accountChangedSince: z.boolean(),
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
  /** Both may record the bank's date (issue 53)... */
  canChoosePaidDate: z.boolean(),
  /** ...the payments team from this day (N business days back); administrators any past day (null). */
  earliestPaidDate: z.string().nullable(),
  canCancel: z.boolean(),
});
export type PaymentBatchView = z.infer<typeof paymentBatchView>;
export const paymentBatchAnswer = z.object({ batch: paymentBatchView });
export type PaymentBatchAnswer = z.infer<typeof paymentBatchAnswer>;

/** CSV and XLSX in the generic columns, or `bank`: the file in the layout chosen in Configuración. */
export const paymentBatchExportQuery = z.strictObject({
  format: z.union([exportFormat, z.literal('bank')], { error: 'Formato no válido: use csv, xlsx o bank' }),
});

/** The file for the bank: a generic layout (one line per transfer), as CSV or XLSX. */
export const BATCH_FILE_COLUMNS = reportColumns<BatchLine>()([
  { key: 'holderRut', header: 'RUT Beneficiario', format: 'text', width: 14 },
  { key: 'holderName', header: 'Nombre Beneficiario', format: 'text', width: 32 },
  { key: 'bankName', header: 'Banco', format: 'text', width: 22 },
  { key: 'bankAccountType', header: 'Tipo de Cuenta', format: 'text', width: 18 },
  { key: 'bankAccountNumber', header: 'Número de Cuenta', format: 'text', width: 20 },
  { key: 'amountClp', header: 'Monto', format: 'clp' },
  { key: 'reference', header: 'Referencia', format: 'text', width: 36 },
  { key: 'email', header: 'Correo Electrónico', format: 'text', width: 30 },
]);

// --- Configuración → Pagos (issue 53, decisions 0052 and 0053) ------------------------------------

/** What a bank file's column may carry: a batch line's fields, by key. */
export const BANK_FILE_FIELDS = BANK_FILE_FIELD_KEYS;
export type BankFileField = (typeof BANK_FILE_FIELDS)[number];
export const BANK_FILE_FIELD_LABELS: Record<BankFileField, string> = {
  holderRut: 'RUT del titular',
  holderName: 'Nombre del titular',
  bankName: 'Banco',
  bankAccountType: 'Tipo de cuenta',
  bankAccountNumber: 'Número de cuenta',
  amountClp: 'Monto ($)',
  reference: 'Referencia',
  email: 'Correo electrónico',
  brokerRut: 'RUT del broker',
  brokerName: 'Nombre del broker',
  reservationNumber: 'N° de reserva',
  paymentNumber: 'N° de pago',
};

export const BANK_FILE_SEPARATORS = [';', ',', '|', 'tab'] as const;
export const BANK_FILE_ENCODINGS = ['utf-8', 'windows-1252'] as const;
/** The most records a layout may allow per file (the generic layout's). */
export const MAX_BANK_FILE_RECORDS = MAX_BATCH_PAYMENTS;

/** A bank's file as data: columns in order, separator, header, encoding, the bank's record limit. */
export const bankFileLayout = z.strictObject({
  name: requiredText('Indique el nombre del formato', 60),
  columns: z
    .array(
      z.strictObject({
        field: z.enum(BANK_FILE_FIELDS, { error: 'Elija un dato de la lista' }),
        header: requiredText('Indique el encabezado de la columna', 60),
      }),
      { error: 'Indique las columnas' },
    )
    .min(1, { error: 'El formato necesita al menos una columna' })
    .max(20, { error: 'Un formato lleva a lo más 20 columnas' }),
  separator: z.enum(BANK_FILE_SEPARATORS, { error: 'Elija un separador de la lista' }),
  hasHeader: z.boolean(),
  encoding: z.enum(BANK_FILE_ENCODINGS, { error: 'Elija una codificación de la lista' }),
  maxRecords: z
    .number({ error: 'Indique el máximo de registros por archivo' })
    .int({ error: 'Indique un número entero' })
    .min(1, { error: 'Al menos un registro por archivo' })
    .max(MAX_BANK_FILE_RECORDS, { error: `A lo más ${MAX_BANK_FILE_RECORDS} registros por archivo` }),
});
export type BankFileLayout = z.infer<typeof bankFileLayout>;

export const paymentSettingsView = z.object({
  /** Pesos per UF a payment's amount may differ from UF × the day's value without acceptance. */
  tolerancePerUf: z.string(),
  /** Business days back the payments team may date a batch paid. */
  paidDateBusinessDays: z.number().int(),
  /** The bank file's layout; null: the generic one. */
  bankFileLayout: bankFileLayout.nullable(),
  version: z.number().int(),
  canEdit: z.boolean(),
});
export type PaymentSettingsView = z.infer<typeof paymentSettingsView>;
export const paymentSettingsAnswer = z.object({ settings: paymentSettingsView });

export const paymentSettingsBody = z.strictObject({
  tolerancePerUf: z
    .string({ error: 'Indique la diferencia aceptada por UF' })
    .trim()
    .regex(/^\d{1,4}(\.\d{1,2})?$/, { error: 'Indique un monto en pesos, con hasta 2 decimales' })
    .refine((value) => Number(value) <= 1000, { error: 'A lo más $ 1.000 por UF' }),
  paidDateBusinessDays: z
    .number({ error: 'Indique los días hábiles' })
    .int({ error: 'Indique un número entero' })
    .min(0, { error: 'No puede ser negativo' })
    .max(60, { error: 'A lo más 60 días hábiles' }),
  bankFileLayout: bankFileLayout.nullable(),
  ...versioned,
});
export type PaymentSettingsBody = z.input<typeof paymentSettingsBody>;
