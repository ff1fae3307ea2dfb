import { z } from 'zod';
import { ACCOUNT_TYPES } from '../domain/accounts';
import { UNIT_KINDS } from '../domain/stock';
import {
  amount,
  closed,
  isoDate,
  optionalIsoDate,
  optionalText,
  pageOf,
  requiredEmail,
  requiredText,
  rut,
  sortedPageQuery,
  uuid,
  yesNoAllFilter,
} from './common';

/** A discount fraction 0..1 with at most six decimals ("0.125"): the form edits it as a percent. */
export const discountFraction = z
  .union([closed(z.string(), 'fracción'), z.number()], {
    error: 'Ingrese un descuento válido entre 0 % y 100 %',
  })
  .transform((value) => String(value).trim())
  .refine((value) => /^(0(\.\d{1,6})?|1(\.0{1,6})?)$/.test(value), {
    error: 'Ingrese un descuento válido entre 0 % y 100 %',
  });

const optionalAmount = () =>
  amount()
    .optional()
    .transform((value) => value ?? '0');

// Figures the server always computes itself (spec §9). Some clients send them back; they are
// accepted only to be ignored — the stored values are recomputed from the inputs.
const computedReservationFigures = {
  totalPrice: z.unknown().optional(),
  minimumPrice: z.unknown().optional(),
  totalPayment: z.unknown().optional(),
  recoveryPayment: z.unknown().optional(),
};
const computedCommissionFigures = {
  netCommission: z.unknown().optional(),
  difference: z.unknown().optional(),
};

/** The fields of the reservation form (spec part 1 §2, §5). */
export const reservationFields = z.strictObject({
  reservationNumber: requiredText('El número de reserva es obligatorio', 50),
  clientId: uuid('Seleccione un cliente'),
  projectId: uuid('Seleccione un proyecto'),
  sellerId: uuid('Seleccione un vendedor').nullable(),
  reservationDate: isoDate('Ingrese la fecha de la reserva'),
  apartmentNumber: requiredText('El número de departamento es obligatorio', 20),
  parkingNumber: optionalText(50),
  storageNumber: optionalText(50),
  apartmentPrice: amount('Ingrese el precio del departamento (mayor o igual a 0, con hasta 2 decimales)'),
  parkingPrice: optionalAmount(),
  storagePrice: optionalAmount(),
  columnDiscount: discountFraction,
  additionalDiscount: discountFraction,
  otherDiscount: discountFraction,
  reservationPayment: optionalAmount(),
  promisePayment: optionalAmount(),
  downPayment: optionalAmount(),
  creditPayment: optionalAmount(),
  subsidyPayment: optionalAmount(),
  isWithBroker: z.boolean(),
  brokerId: uuid('Seleccione un broker').nullable(),
  /**
   * The project's units the reservation holds (decision 0032), when the project has an inventory:
   * then the numbers and prices above are the units' (the server sets them from the price list).
   */
  apartmentUnitId: uuid('Seleccione un departamento')
    .nullish()
    .transform((value) => value ?? null),
  parkingUnitIds: z
    .array(uuid('Seleccione un estacionamiento'))
    .max(10, { error: 'Como máximo 10 estacionamientos' })
    .default([]),
  storageUnitIds: z
    .array(uuid('Seleccione una bodega'))
    .max(10, { error: 'Como máximo 10 bodegas' })
    .default([]),
  /** An administrator's reason to exceed the project's commercial policy. */
  policyOverrideReason: optionalText(300),
  ...computedReservationFigures,
});

/**
 * The form's fields a reservation stores as given (the broker only with one; every figure computed,
 * the units resolved): one list for the service's writes, the import's comparison and the view.
 */
export const STORED_RESERVATION_FIELDS = [
  'reservationNumber',
  'clientId',
  'projectId',
  'sellerId',
  'reservationDate',
  'apartmentNumber',
  'parkingNumber',
  'storageNumber',
  'apartmentPrice',
  'parkingPrice',
  'storagePrice',
  'columnDiscount',
  'additionalDiscount',
  'otherDiscount',
  'reservationPayment',
  'promisePayment',
  'downPayment',
  'creditPayment',
  'subsidyPayment',
  'isWithBroker',
] as const satisfies readonly (keyof z.output<typeof reservationFields>)[];

const commissionObject = z.strictObject({
  commissionAmount: amount('Ingrese el monto de la comisión (mayor o igual a 0)'),
  commissionIncludesTax: z.boolean(),
  commissionForDiscount: z.boolean(),
  paysSecondary: z.boolean(),
  numberOfPayments: z.union([z.literal(1), z.literal(2)], { error: 'El número de pagos debe ser 1 o 2' }),
  firstPaymentPercentage: z.union([z.literal(25), z.literal(50), z.literal(100)], {
    error: 'El porcentaje del primer pago debe ser 25, 50 o 100',
  }),
  purchaseOrder: optionalText(50),
  invoice1: optionalText(50),
  invoice1Date: optionalIsoDate(),
  payment1Date: optionalIsoDate(),
  invoice2: optionalText(50),
  invoice2Date: optionalIsoDate(),
  payment2Date: optionalIsoDate(),
  ...computedCommissionFigures,
});

/** One payment is the whole commission; two payments split it 25/75 or 50/50. */
function paymentSplit(
  value: { numberOfPayments: 1 | 2; firstPaymentPercentage: 25 | 50 | 100 },
  ctx: z.RefinementCtx,
) {
  if (value.numberOfPayments === 1 && value.firstPaymentPercentage !== 100) {
    ctx.addIssue({
      code: 'custom',
      path: ['firstPaymentPercentage'],
      message: 'Con un solo pago, el primer pago es el 100 % de la comisión',
    });
  }
  if (value.numberOfPayments === 2 && value.firstPaymentPercentage === 100) {
    ctx.addIssue({
      code: 'custom',
      path: ['firstPaymentPercentage'],
      message: 'Con dos pagos, el primer pago debe ser el 25 % o el 50 % de la comisión',
    });
  }
}

/** The broker commission popup (spec part 1 §5, part 2 "Commission edit"). */
export const commissionFields = commissionObject.superRefine(paymentSplit);
export type CommissionFields = z.infer<typeof commissionFields>;

function brokerChoice(value: { isWithBroker: boolean; brokerId: string | null }, ctx: z.RefinementCtx) {
  if (value.isWithBroker && !value.brokerId) {
    ctx.addIssue({ code: 'custom', path: ['brokerId'], message: 'Seleccione el broker de la venta' });
  }
  if (!value.isWithBroker && value.brokerId) {
    ctx.addIssue({
      code: 'custom',
      path: ['brokerId'],
      message: 'Una reserva sin broker no puede tener un broker asignado',
    });
  }
}

/** POST /api/reservations: the reservation, and its commission when sold with a broker. */
export const createReservationBody = reservationFields
  .extend({ commission: commissionFields.optional() })
  .superRefine(brokerChoice);
export type CreateReservationBody = z.input<typeof createReservationBody>;

/** PUT /api/reservations/:id. `commission` is needed only when a broker is added to a reservation without one. */
export const updateReservationBody = reservationFields
  .extend({ version: z.number().int().min(1), commission: commissionFields.optional() })
  .superRefine(brokerChoice);
export type UpdateReservationBody = z.input<typeof updateReservationBody>;

/** PUT /api/reservations/:id/commission: creates (without version) or edits (with version) the commission. */
export const saveCommissionBody = commissionObject
  .extend({ version: z.number().int().min(1).optional() })
  .superRefine(paymentSplit);
export type SaveCommissionBody = z.input<typeof saveCommissionBody>;

/**
 * The orders of /reservas, each read off an index (decision 0019): reservation date (newest first,
 * the default; reservations_date_idx), number (its unique index), client (clients_name_idx), project
 * (projects_name_stage_idx). The money columns are not offered: no index orders them.
 */
export const RESERVATION_SORTS = [
  'reservationDate',
  'reservationNumber',
  'clientName',
  'projectName',
] as const;
export type ReservationSort = (typeof RESERVATION_SORTS)[number];

export const RESERVATION_LIST_MESSAGES = {
  project: 'Proyecto no válido',
  seller: 'Vendedor no válido',
  fromDate: 'La fecha «desde» no es válida',
  toDate: 'La fecha «hasta» no es válida',
  dateRange: 'La fecha «hasta» no puede ser anterior a la fecha «desde»',
  rescinded: 'Filtro de resciliadas no válido: use all, yes o no',
} as const;

/** GET /api/reservations: searched by number, filtered, sorted, paged. */
export const reservationListQuery = sortedPageQuery(
  RESERVATION_SORTS,
  { sort: 'reservationDate', direction: 'desc' },
  { searchMax: 50 },
)
  .extend({
    projectId: uuid(RESERVATION_LIST_MESSAGES.project).optional(),
    sellerId: uuid(RESERVATION_LIST_MESSAGES.seller).optional(),
    /** Reservation dates from and to these days, both included ('YYYY-MM-DD'). */
    fromDate: isoDate(RESERVATION_LIST_MESSAGES.fromDate).optional(),
    toDate: isoDate(RESERVATION_LIST_MESSAGES.toDate).optional(),
    /** 'yes': only rescinded ones; 'no': only live ones; 'all' (the default). */
    rescinded: yesNoAllFilter(RESERVATION_LIST_MESSAGES.rescinded),
  })
  .refine((query) => !query.fromDate || !query.toDate || query.fromDate <= query.toDate, {
    path: ['toDate'],
    error: RESERVATION_LIST_MESSAGES.dateRange,
  });
export type ReservationListParams = z.output<typeof reservationListQuery>;
/** What a screen sends: any of the parameters (each has a default). */
export type ReservationListQuery = Partial<ReservationListParams>;

export const reservationListRow = z.object({
  id: z.uuid(),
  reservationNumber: z.string(),
  reservationDate: z.string(),
  isRescinded: z.boolean(),
  clientName: z.string(),
  projectName: z.string(),
  projectStage: z.string(),
  apartmentNumber: z.string(),
  totalPrice: z.string(),
  minimumPrice: z.string(),
  totalPayment: z.string(),
});
export type ReservationListRow = z.infer<typeof reservationListRow>;

/** The sums of the money columns over every row the filters keep (not only the page). */
export const reservationListTotals = z.object({
  totalPrice: z.string(),
  minimumPrice: z.string(),
  totalPayment: z.string(),
});
export type ReservationListTotals = z.infer<typeof reservationListTotals>;

export const reservationListResponse = pageOf(reservationListRow).extend({
  /** Null when more rows match than the list counts (`totalIsCapped`): filter to see them. */
  totals: reservationListTotals.nullable(),
});
export type ReservationPage = z.infer<typeof reservationListResponse>;

export const commissionView = z.object({
  id: z.uuid(),
  brokerId: z.uuid(),
  commissionAmount: z.string(),
  commissionIncludesTax: z.boolean(),
  netCommission: z.string(),
  commissionForDiscount: z.boolean(),
  paysSecondary: z.boolean(),
  numberOfPayments: z.union([z.literal(1), z.literal(2)]),
  firstPaymentPercentage: z.union([z.literal(25), z.literal(50), z.literal(100)]),
  purchaseOrder: z.string().nullable(),
  invoice1: z.string().nullable(),
  invoice1Date: z.string().nullable(),
  payment1Date: z.string().nullable(),
  invoice2: z.string().nullable(),
  invoice2Date: z.string().nullable(),
  payment2Date: z.string().nullable(),
  difference: z.string(),
  atRisk: z.boolean(),
  atRiskReason: z.string().nullable(),
  penaltyAmount: z.string().nullable(),
  /** The pesos paid and the UF value of the payment's day, frozen with each payment date (issue 33). */
  payment1Clp: z.string().nullable(),
  payment1UfValue: z.string().nullable(),
  payment2Clp: z.string().nullable(),
  payment2UfValue: z.string().nullable(),
  version: z.number().int(),
  /** Payment dates become read-only once the respective payment flow exists. */
  hasFirstPaymentFlow: z.boolean(),
  hasSecondPaymentFlow: z.boolean(),
  /**
   * Whether this user may see the purchase order's and the invoices' folios (the facts of the
   * restricted document types, decision 0076): when false, `purchaseOrder`, `invoice1` and `invoice2`
   * are null whatever is stored, and a save leaves the stored ones as they are.
   */
  foliosShown: z.boolean(),
});
export type CommissionView = z.infer<typeof commissionView>;

export const promotionFields = z.strictObject({
  amount: amount('Ingrese el monto de la promoción (mayor o igual a 0, con hasta 2 decimales)'),
  beneficiary: requiredText('El beneficiario es obligatorio', 120),
  rut: rut('El RUT del beneficiario no es válido (revise el dígito verificador)'),
  bank: requiredText('El banco es obligatorio', 80),
  accountType: z.enum(ACCOUNT_TYPES, { error: 'Seleccione el tipo de cuenta' }),
  accountNumber: requiredText('El número de cuenta es obligatorio', 40),
  email: requiredEmail('Ingrese un correo electrónico válido'),
  purchaseOrder: optionalText(50),
  documentNumber: optionalText(50),
  documentDate: optionalIsoDate(),
  paymentDate: optionalIsoDate(),
});
export type PromotionFields = z.input<typeof promotionFields>;
export const updatePromotionBody = promotionFields.extend({ version: z.number().int().min(1) });

export const promotionView = z.object({
  id: z.uuid(),
  amount: z.string(),
  beneficiary: z.string(),
  rut: z.string(),
  bank: z.string(),
  accountType: z.enum(ACCOUNT_TYPES),
  accountNumber: z.string(),
  email: z.string(),
  purchaseOrder: z.string().nullable(),
  documentNumber: z.string().nullable(),
  documentDate: z.string().nullable(),
  paymentDate: z.string().nullable(),
  version: z.number().int(),
  /**
   * The payee's account as entered waits for a second person (issue 53, decision 0063): 'unverified'
   * ('Cuenta por verificar') until another payments user or an administrator verifies it; meanwhile
   * the promotion's payment date is refused.
   */
  accountStatus: z.enum(['unverified', 'verified']),
  /** Whether the viewer may press 'Verificar cuenta' (payments staff, never the account's author). */
  canVerifyAccount: z.boolean(),
});
export type PromotionView = z.infer<typeof promotionView>;

export const reservationView = z.object({
  id: z.uuid(),
  reservationNumber: z.string(),
  clientId: z.uuid(),
  projectId: z.uuid(),
  sellerId: z.uuid().nullable(),
  reservationDate: z.string(),
  apartmentNumber: z.string(),
  parkingNumber: z.string().nullable(),
  storageNumber: z.string().nullable(),
  apartmentPrice: z.string(),
  parkingPrice: z.string(),
  storagePrice: z.string(),
  totalPrice: z.string(),
  columnDiscount: z.string(),
  additionalDiscount: z.string(),
  otherDiscount: z.string(),
  minimumPrice: z.string(),
  reservationPayment: z.string(),
  promisePayment: z.string(),
  downPayment: z.string(),
  creditPayment: z.string(),
  subsidyPayment: z.string(),
  totalPayment: z.string(),
  recoveryPayment: z.string(),
  isWithBroker: z.boolean(),
  brokerId: z.uuid().nullable(),
  isRescinded: z.boolean(),
  version: z.number().int(),
  /**
   * The buyer, also when the client record was deleted afterwards (a reservation is a contract: its
   * buyer stays visible, marked `isDeleted`; decision 0014). Null only if the row is gone.
   */
  client: z
    .object({
      id: z.uuid(),
      rut: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      isDeleted: z.boolean(),
    })
    .nullable(),
  broker: z.object({ id: z.uuid(), name: z.string(), businessName: z.string() }).nullable(),
  commission: commissionView.nullable(),
  promotions: z.array(promotionView),
  reservationFlowId: z.uuid().nullable(),
  /** The units it holds with the prices it was made at and the list they came from (decision 0032). */
  units: z.array(
    z.object({
      unitId: z.uuid(),
      kind: z.enum(UNIT_KINDS),
      number: z.string(),
      price: z.string(),
      priceListId: z.uuid().nullable(),
      priceListDate: z.string().nullable(),
    }),
  ),
  policyOverrideReason: z.string().nullable(),
});
export type ReservationView = z.infer<typeof reservationView>;
export const reservationResponse = z.object({ reservation: reservationView });

export const reservationFormOptions = z.object({
  projects: z.array(z.object({ id: z.uuid(), name: z.string(), stage: z.string() })),
  sellers: z.array(z.object({ id: z.uuid(), firstName: z.string(), lastName: z.string() })),
  defaultSellerId: z.uuid().nullable(),
});
export type ReservationFormOptions = z.infer<typeof reservationFormOptions>;
