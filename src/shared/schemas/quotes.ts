import { z } from 'zod';
import { MAX_INSTALLMENTS } from '../domain/payment-plan';
import { UNIT_KINDS } from '../domain/stock';
import { clientBody } from './clients';
import {
  amount,
  closed,
  isoDate,
  optionalText,
  pageOf,
  requiredEmail,
  requiredText,
  sortedPageQuery,
  uuid,
  versioned,
} from './common';
import { optionalRut } from './fields';
import { discountFraction } from './reservations';

/** Cotizaciones (issue 59, decision 0071): what the API takes and answers. */

export const QUOTE_STATES = ['vigente', 'vencida', 'reservada'] as const;
export type QuoteState = (typeof QUOTE_STATES)[number];
export const QUOTE_STATE_LABELS: Record<QuoteState, string> = {
  vigente: 'Vigente',
  vencida: 'Vencida',
  reservada: 'Reservada',
};

export const QUOTE_MESSAGES = {
  prospectName: 'El nombre del prospecto es obligatorio',
  prospectEmail: 'Ingrese el correo electrónico del prospecto',
  prospectRut: 'El RUT no es válido (revise el dígito verificador)',
  apartment: 'Seleccione un departamento',
  installments: `Ingrese un número de cuotas entre 1 y ${MAX_INSTALLMENTS}`,
  downPayment: 'Ingrese un pie válido entre 0 % y 100 %',
  validityDays: 'Ingrese los días de vigencia: un número entero entre 1 y 90',
  maxInstallments: `Ingrese las cuotas máximas: un número entero entre 1 y ${MAX_INSTALLMENTS}`,
  state: 'Estado no válido: use vigente, vencida o reservada',
  project: 'Proyecto no válido',
  seller: 'Vendedor no válido',
  broker: 'Broker no válido',
  reservationNumber: 'El número de reserva es obligatorio',
} as const;

const M = QUOTE_MESSAGES;

/** POST /api/quotes: a prospect, units of one project, discounts and the plan's choices. */
export const createQuoteBody = z.strictObject({
  projectId: uuid('Seleccione un proyecto'),
  /** Who quotes; null: the signed-in user. */
  sellerId: uuid('Seleccione un vendedor')
    .nullish()
    .transform((value) => value ?? null),
  prospectName: requiredText(M.prospectName, 120),
  prospectEmail: requiredEmail(M.prospectEmail),
  prospectPhone: optionalText(30),
  prospectRut: optionalRut(M.prospectRut),
  apartmentUnitId: uuid(M.apartment),
  parkingUnitIds: z
    .array(uuid('Seleccione un estacionamiento'))
    .max(10, { error: 'Como máximo 10 estacionamientos' })
    .default([]),
  storageUnitIds: z
    .array(uuid('Seleccione una bodega'))
    .max(10, { error: 'Como máximo 10 bodegas' })
    .default([]),
  columnDiscount: discountFraction.default('0'),
  additionalDiscount: discountFraction.default('0'),
  otherDiscount: discountFraction.default('0'),
  reservationAmount: amount('Ingrese el monto de la reserva (mayor o igual a 0, con hasta 2 decimales)'),
  downPaymentFraction: z
    .union([closed(z.string(), 'fracción'), z.number()], { error: M.downPayment })
    .transform((value) => String(value).trim())
    .refine((value) => /^(0(\.\d{1,6})?|1(\.0{1,6})?)$/.test(value), { error: M.downPayment }),
  installments: z.coerce
    .number({ error: M.installments })
    .int({ error: M.installments })
    .min(1, { error: M.installments })
    .max(MAX_INSTALLMENTS, { error: M.installments }),
  subsidyAmount: amount('Ingrese el subsidio (mayor o igual a 0, con hasta 2 decimales)')
    .optional()
    .transform((value) => value ?? '0'),
});
export type CreateQuoteBody = z.input<typeof createQuoteBody>;

export const quoteUnitView = z.object({
  unitId: z.string(),
  kind: z.enum(UNIT_KINDS),
  number: z.string(),
  price: z.string(),
});

export const quoteView = z.object({
  id: z.string(),
  number: z.number().int(),
  state: z.enum(QUOTE_STATES),
  projectId: z.string(),
  projectName: z.string(),
  sellerId: z.string().nullable(),
  sellerName: z.string().nullable(),
  brokerId: z.string().nullable(),
  brokerName: z.string().nullable(),
  prospectName: z.string(),
  prospectEmail: z.string(),
  prospectPhone: z.string().nullable(),
  prospectRut: z.string().nullable(),
  quoteDate: z.string(),
  validUntil: z.string(),
  priceListId: z.string().nullable(),
  priceListDate: z.string().nullable(),
  ufDate: z.string(),
  ufValue: z.string(),
  units: z.array(quoteUnitView),
  apartmentPrice: z.string(),
  parkingPrice: z.string(),
  storagePrice: z.string(),
  columnDiscount: z.string(),
  additionalDiscount: z.string(),
  otherDiscount: z.string(),
  listPrice: z.string(),
  finalPrice: z.string(),
  reservationAmount: z.string(),
  downPaymentFraction: z.string(),
  downPayment: z.string(),
  installments: z.array(z.string()),
  subsidyAmount: z.string(),
  creditAmount: z.string(),
  /** The plan in pesos at the quote's UF value, line by line. */
  clp: z.object({
    listPrice: z.string(),
    finalPrice: z.string(),
    reservation: z.string(),
    downPayment: z.string(),
    installment: z.string(),
    subsidy: z.string(),
    credit: z.string(),
  }),
  reservationId: z.string().nullable(),
  reservationNumber: z.string().nullable(),
  sentCount: z.number().int(),
  lastSentAt: z.string().nullable(),
  createdAt: z.string(),
  version: z.number().int(),
});
export type QuoteView = z.infer<typeof quoteView>;
export const quoteResponse = z.object({ quote: quoteView });

export const QUOTE_SORTS = ['createdAt'] as const;

/** GET /api/quotes: searched by prospect (name, e-mail, RUT), filtered, newest first, paged. */
export const quoteListQuery = sortedPageQuery(QUOTE_SORTS, { sort: 'createdAt', direction: 'desc' }).extend({
  projectId: uuid(M.project).optional(),
  sellerId: uuid(M.seller).optional(),
  brokerId: uuid(M.broker).optional(),
  state: z.enum(QUOTE_STATES, { error: M.state }).optional(),
});
export type QuoteListQuery = Partial<z.output<typeof quoteListQuery>>;
export type QuoteListParams = z.output<typeof quoteListQuery>;

export const quoteRow = z.object({
  id: z.string(),
  number: z.number().int(),
  state: z.enum(QUOTE_STATES),
  projectName: z.string(),
  prospectName: z.string(),
  prospectEmail: z.string(),
  apartmentNumber: z.string(),
  sellerName: z.string().nullable(),
  brokerName: z.string().nullable(),
  quoteDate: z.string(),
  validUntil: z.string(),
  finalPrice: z.string(),
  reservationNumber: z.string().nullable(),
});
export type QuoteRow = z.infer<typeof quoteRow>;

export const quoteListResponse = pageOf(quoteRow).extend({
  /** How many quotes of the search and filters (but the state's) are in each state. */
  counts: z.object({ vigente: z.number().int(), vencida: z.number().int(), reservada: z.number().int() }),
});
export type QuoteListResponse = z.infer<typeof quoteListResponse>;

/** POST /api/quotes/:id/reserve: the reservation's number; the client when the RUT names none yet. */
export const reserveQuoteBody = z.strictObject({
  reservationNumber: requiredText(M.reservationNumber, 50),
  reservationDate: isoDate('Ingrese la fecha de la reserva').optional(),
  client: clientBody.optional(),
});
export type ReserveQuoteBody = z.input<typeof reserveQuoteBody>;

export const quoteSettingsView = z.object({
  projectId: z.string(),
  validityDays: z.number().int(),
  maxInstallments: z.number().int(),
  version: z.number().int().nullable(),
});
export type QuoteSettingsView = z.infer<typeof quoteSettingsView>;

export const saveQuoteSettingsBody = z.strictObject({
  validityDays: z.coerce
    .number({ error: M.validityDays })
    .int({ error: M.validityDays })
    .min(1, { error: M.validityDays })
    .max(90, { error: M.validityDays }),
  maxInstallments: z.coerce
    .number({ error: M.maxInstallments })
    .int({ error: M.maxInstallments })
    .min(1, { error: M.maxInstallments })
    .max(MAX_INSTALLMENTS, { error: M.maxInstallments }),
  version: versioned.version.optional(),
});

export const projectIdParams = z.strictObject({ projectId: uuid() });
