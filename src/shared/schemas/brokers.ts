import { z } from 'zod';
import { BROKER_ACCOUNT_TYPES, isAccountNumber, normaliseAccountNumber } from '../domain/payment-batches';
import {
  line,
  optionalEmail,
  optionalText,
  pageOf,
  requiredText,
  sortedPageQuery,
  versioned,
  yesNoAllFilter,
} from './common';
import { optionalRut, requiredDate, requiredRut } from './fields';

/** The broker fields of spec part 1 §3 and their rules (§5). Used by the API and by the form. */

export const BROKER_MESSAGES = {
  rutRequired: 'El RUT es obligatorio',
  rutInvalid: 'El RUT no es válido (revise el dígito verificador)',
  name: 'El nombre del broker es obligatorio',
  businessName: 'La razón social es obligatoria',
  constitutionDateRequired: 'La fecha de constitución es obligatoria',
  constitutionDateInvalid: 'Ingrese una fecha de constitución válida',
  constitutionNotary: 'La notaría de constitución es obligatoria',
  legalRepresentative: 'El nombre del representante legal es obligatorio',
  legalRepresentativeRutRequired: 'El RUT del representante legal es obligatorio',
  legalRepresentativeRutInvalid: 'El RUT del representante legal no es válido (revise el dígito verificador)',
  commercialAddress: 'La dirección comercial es obligatoria',
  commercialAddressCommune: 'La comuna es obligatoria',
  commercialContactName: 'El nombre del contacto comercial es obligatorio',
  kamName: 'El nombre del KAM es obligatorio',
  email: 'Ingrese un correo electrónico válido',
  accountType: 'Seleccione un tipo de cuenta de la lista',
  accountNumber: 'El número de cuenta debe tener entre 4 y 20 dígitos',
  bankIncomplete:
    'Complete el banco, el tipo y el número de cuenta, el titular y su RUT, o deje los cinco vacíos',
  holderRutInvalid: 'El RUT del titular no es válido (revise el dígito verificador)',
  accountRut: 'La Cuenta RUT es de BancoEstado: indique ese banco',
} as const;

const M = BROKER_MESSAGES;

const brokerFields = z.strictObject({
  // Company
  rut: requiredRut(M.rutRequired, M.rutInvalid),
  name: requiredText(M.name),
  businessName: requiredText(M.businessName),
  constitutionDate: requiredDate(M.constitutionDateRequired, M.constitutionDateInvalid),
  constitutionNotary: requiredText(M.constitutionNotary),
  // Legal representative
  legalRepresentative: requiredText(M.legalRepresentative),
  legalRepresentativeRut: requiredRut(M.legalRepresentativeRutRequired, M.legalRepresentativeRutInvalid),
  // Commercial
  commercialAddress: requiredText(M.commercialAddress),
  commercialAddressCommune: requiredText(M.commercialAddressCommune, 100),
  commercialContactName: requiredText(M.commercialContactName),
  commercialContactPhone: optionalText(30),
  commercialContactEmail: optionalEmail(M.email),
  // Operations
  operationsContactName: optionalText(),
  operationsContactPhone: optionalText(30),
  operationsContactEmail: optionalEmail(M.email),
  // Finance
  financeContactName: optionalText(),
  financeContactPhone: optionalText(30),
  financeContactEmail: optionalEmail(M.email),
  // KAM
  kamName: requiredText(M.kamName),
  kamPhone: optionalText(30),
  kamEmail: optionalEmail(M.email),
  kamReceivesCommission: z.boolean({ error: 'Indique si el KAM recibe comisión' }).default(false),
  // Bank data (issue 33, decision 0040): where the payment batch pays the broker; one clean line each (issue 53, the shared rule of 0058).
  bankName: optionalText(100),
  bankAccountType: z
    .enum(BROKER_ACCOUNT_TYPES, { error: M.accountType })
    .nullish()
    .transform((value) => value ?? null),
  bankAccountNumber: optionalText(30)
    .refine((value) => value === null || isAccountNumber(value), { error: M.accountNumber })
    .transform((value) => (value === null ? null : normaliseAccountNumber(value))),
  /** Whose the account is (issue 53): the beneficiary the bank file names, not the trade name. */
  bankHolderName: optionalText(200),
  bankHolderRut: optionalRut(M.holderRutInvalid),
  paymentEmail: optionalEmail(M.email),
});

/** The fields that decide where money goes: changed by the payments team, verified by another person. */
export const BANK_FIELDS = [
  'bankName',
  'bankAccountType',
  'bankAccountNumber',
  'bankHolderName',
  'bankHolderRut',
] as const;

/** The bank data of a broker: the five together or none; a Cuenta RUT at BancoEstado. */
function checkBankData(value: Record<(typeof BANK_FIELDS)[number], string | null>, ctx: z.RefinementCtx) {
  const given = BANK_FIELDS.map((path) => value[path]).filter((v) => v !== null);
  if (given.length > 0 && given.length < BANK_FIELDS.length) {
    for (const path of BANK_FIELDS) {
      if (value[path] === null) ctx.addIssue({ code: 'custom', path: [path], message: M.bankIncomplete });
    }
  }
  if (
    value.bankAccountType === 'Cuenta RUT' &&
    value.bankName !== null &&
    !/banco\s*estado/i.test(value.bankName.normalize('NFD').replace(/[\u0300-\u036f]/g, ''))
  ) {
    ctx.addIssue({ code: 'custom', path: ['bankName'], message: M.accountRut });
  }
}

export const brokerBody = brokerFields.superRefine(checkBankData);
export type BrokerBody = z.input<typeof brokerBody>;
export type BrokerValues = z.output<typeof brokerBody>;

export const brokerUpdateBody = brokerFields.extend(versioned).superRefine(checkBankData);
export type BrokerUpdateBody = z.input<typeof brokerUpdateBody>;

/** A row of /brokers (also the reservation screen's broker picker). */
export const brokerRow = z.object({
  id: z.uuid(),
  rut: z.string(),
  name: z.string(),
  businessName: z.string(),
  kamName: z.string(),
  kamReceivesCommission: z.boolean(),
});
export type BrokerRow = z.infer<typeof brokerRow>;

/**
 * The orders of /brokers, each read off an index (decision 0019): name (the spec's order), RUT,
 * razón social, KAM (then the broker's name).
 */
export const BROKER_SORTS = ['name', 'rut', 'businessName', 'kamName'] as const;
export type BrokerSort = (typeof BROKER_SORTS)[number];

/** GET /api/brokers: searched by name, RUT or razón social, filtered by KAM, sorted, paged. */
export const brokerListQuery = sortedPageQuery(BROKER_SORTS, { sort: 'name', direction: 'asc' }).extend({
  /** The KAM's name exactly as the brokers carry it (one of GET /api/brokers/kams). */
  kam: line().trim().min(1, { error: 'Indique el KAM' }).max(200, { error: 'KAM no válido' }).optional(),
  /** Whether the broker's KAM receives commission ('all' by default). */
  kamReceivesCommission: yesNoAllFilter('Filtro de comisión KAM no válido: use all, yes o no'),
});
export type BrokerListParams = z.output<typeof brokerListQuery>;
/** What a screen sends: any of the parameters (each has a default). */
export type BrokerListQuery = Partial<BrokerListParams>;

export const brokerPage = pageOf(brokerRow);
export type BrokerPage = z.infer<typeof brokerPage>;

/** GET /api/brokers/kams: the KAM names the brokers carry, once each, in order (the list's filter). */
export const brokerKams = z.object({ kams: z.array(z.string()) });
export type BrokerKams = z.infer<typeof brokerKams>;

export const BANK_STATUSES = ['none', 'unverified', 'verified'] as const;
export type BankStatus = (typeof BANK_STATUSES)[number];
export const BANK_STATUS_LABELS: Record<BankStatus, string> = {
  none: 'Sin datos bancarios',
  unverified: 'Cuenta por verificar',
  verified: 'Cuenta verificada',
};

/** POST /api/brokers/:id/bank-account/verify: the broker's version read (the change seen). */
export const bankVerifyBody = z.strictObject(versioned);

/** One broker with every field, for the form: carries the `version` an edit must send back. */
export const brokerResponse = z.object({
  id: z.uuid(),
  rut: z.string(),
  name: z.string(),
  businessName: z.string(),
  constitutionDate: z.string(),
  constitutionNotary: z.string(),
  legalRepresentative: z.string(),
  legalRepresentativeRut: z.string(),
  commercialAddress: z.string(),
  commercialAddressCommune: z.string(),
  commercialContactName: z.string(),
  commercialContactPhone: z.string().nullable(),
  commercialContactEmail: z.string().nullable(),
  operationsContactName: z.string().nullable(),
  operationsContactPhone: z.string().nullable(),
  operationsContactEmail: z.string().nullable(),
  financeContactName: z.string().nullable(),
  financeContactPhone: z.string().nullable(),
  financeContactEmail: z.string().nullable(),
  kamName: z.string(),
  kamPhone: z.string().nullable(),
  kamEmail: z.string().nullable(),
  kamReceivesCommission: z.boolean(),
  bankName: z.string().nullable(),
  bankAccountType: z.enum(BROKER_ACCOUNT_TYPES).nullable(),
  bankAccountNumber: z.string().nullable(),
  bankHolderName: z.string().nullable(),
  bankHolderRut: z.string().nullable(),
  paymentEmail: z.string().nullable(),
  /** The bank data's state (issue 53): none, 'Cuenta por verificar', verified. */
  bankStatus: z.enum(BANK_STATUSES),
  bankChangedByName: z.string().nullable(),
  bankChangedAt: z.string().nullable(),
  bankVerifiedByName: z.string().nullable(),
  bankVerifiedAt: z.string().nullable(),
  /** What the viewer may do (the server decides): change the bank data, verify the change. */
  canChangeBank: z.boolean(),
  canVerifyBank: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.number().int(),
});
export type Broker = z.infer<typeof brokerResponse>;

/** The answer of one broker's read, creation and edit (docs/code-style.md: one record, wrapped). */
export const brokerAnswer = z.object({ broker: brokerResponse });
export type BrokerAnswer = z.infer<typeof brokerAnswer>;
