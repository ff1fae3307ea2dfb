import { z } from 'zod';
import { UNIT_KINDS, UNIT_STATUSES } from '../domain/stock';
import { exportFormat, reportColumns } from '../reports/columns';
import {
  amount,
  closed,
  isoDate,
  line,
  optionalText,
  requiredNote,
  requiredText,
  searchText,
  uuid,
  versioned,
} from './common';

/**
 * Stock (decision 0032): a project's units, its price lists, its commercial policy, and the
 * availability grid ('Disponibilidad').
 */

const area = (label: string) =>
  amount(`Ingrese ${label} válidos (mayor o igual a 0, con hasta 2 decimales)`)
    .nullish()
    .transform((value) => value ?? null);

const floor = z
  .union([z.number(), closed(z.string(), 'piso')], {
    error: 'Ingrese un piso válido (número entero entre -10 y 200)',
  })
  .transform((value) => (typeof value === 'string' ? value.trim() : value))
  .refine((value) => value === '' || /^-?\d{1,3}$/.test(String(value)), {
    error: 'Ingrese un piso válido (número entero entre -10 y 200)',
  })
  .transform((value) => (value === '' ? null : Number(value)))
  .refine((value) => value === null || (value >= -10 && value <= 200), {
    error: 'Ingrese un piso válido (número entero entre -10 y 200)',
  })
  .nullish()
  .transform((value) => value ?? null);

export const unitKind = z.enum(UNIT_KINDS, { error: 'Seleccione el tipo de unidad' });
export const unitStatus = z.enum(UNIT_STATUSES, { error: 'Estado de unidad no válido' });

/** A unit as an administrator creates or edits it (its price comes from the price lists). */
export const unitFields = z.strictObject({
  kind: unitKind,
  number: requiredText('El número de la unidad es obligatorio', 20),
  floor,
  building: optionalText(40),
  typology: optionalText(20),
  orientation: optionalText(20),
  usableArea: area('los m² útiles'),
  terraceArea: area('los m² de terraza'),
  totalArea: area('los m² totales'),
});
export type UnitFields = z.input<typeof unitFields>;
export type UnitValues = z.output<typeof unitFields>;
export const updateUnitBody = unitFields.extend(versioned);

export const blockUnitBody = z.strictObject({
  reason: requiredNote('Indique el motivo del bloqueo', 300),
  ...versioned,
});
export const unblockUnitBody = z.strictObject(versioned);

export const projectParams = z.strictObject({ projectId: uuid('Proyecto no válido') });
export const unitParams = z.strictObject({ id: uuid('Unidad no válida') });

/** The live reservation holding a unit, as the grid's tooltip shows it. */
export const unitReservation = z.object({
  id: z.uuid(),
  reservationNumber: z.string(),
  clientName: z.string(),
  sellerName: z.string().nullable(),
  flowId: z.uuid().nullable(),
});

export const unitView = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  kind: unitKind,
  number: z.string(),
  floor: z.number().int().nullable(),
  building: z.string().nullable(),
  typology: z.string().nullable(),
  orientation: z.string().nullable(),
  usableArea: z.string().nullable(),
  terraceArea: z.string().nullable(),
  totalArea: z.string().nullable(),
  blockedReason: z.string().nullable(),
  /** The price of the newest list in force that names the unit; null when none does. */
  price: z.string().nullable(),
  status: unitStatus,
  reservation: unitReservation.nullable(),
  version: z.number().int(),
});
export type UnitView = z.infer<typeof unitView>;
export const unitResponse = z.object({ unit: unitView });

export const STOCK_MESSAGES = {
  kind: 'Tipo de unidad no válido',
  status: 'Estado de unidad no válido',
  typology: 'Máximo 20 caracteres',
} as const;

/** GET /api/stock/projects/:projectId/units: the grid's filters. */
export const unitGridQuery = z.strictObject({
  kind: z.enum(UNIT_KINDS, { error: STOCK_MESSAGES.kind }).optional(),
  typology: line().trim().max(20, { error: STOCK_MESSAGES.typology }).optional(),
  status: z.enum(UNIT_STATUSES, { error: STOCK_MESSAGES.status }).optional(),
});
export type UnitGridQuery = z.infer<typeof unitGridQuery>;

export const statusCounts = z.record(unitStatus, z.number().int());
export const unitGrid = z.object({
  project: z.object({ id: z.uuid(), name: z.string(), stage: z.string() }),
  /** Every unit the filters keep, in floor and number order (a project has at most a few thousand). */
  units: z.array(unitView),
  /** Counts over the whole project (not only the filtered units), per status and per typology. */
  counts: z.object({
    total: z.number().int(),
    byStatus: statusCounts,
    byTypology: z.array(
      z.object({ typology: z.string().nullable(), total: z.number().int(), available: z.number().int() }),
    ),
  }),
  typologies: z.array(z.string()),
  /** The price list in force today, if any. */
  currentPriceList: z.object({ id: z.uuid(), effectiveDate: z.string() }).nullable(),
});
export type UnitGrid = z.infer<typeof unitGrid>;

/** GET /api/stock/projects/:projectId/picker: available units of one kind, searched. */
export const unitPickerQuery = z.strictObject({
  kind: unitKind,
  search: searchText(40, 'Máximo 40 caracteres').optional(),
});
export const pickerUnit = z.object({
  id: z.uuid(),
  kind: unitKind,
  number: z.string(),
  floor: z.number().int().nullable(),
  typology: z.string().nullable(),
  orientation: z.string().nullable(),
  price: z.string().nullable(),
  priceListId: z.uuid().nullable(),
});
export type PickerUnit = z.infer<typeof pickerUnit>;
export const unitPickerResponse = z.object({ rows: z.array(pickerUnit), hasInventory: z.boolean() });
export type UnitPickerResponse = z.infer<typeof unitPickerResponse>;

/** The projects of the Disponibilidad selector, with how many units each has. */
export const stockProjects = z.object({
  projects: z.array(z.object({ id: z.uuid(), name: z.string(), stage: z.string(), units: z.number().int() })),
});

// --- Price lists ---------------------------------------------------------------------------------

/** One row of a price list as entered or imported: which unit (kind and number) and its price. */
export const priceRow = z.strictObject({
  kind: unitKind,
  number: requiredText('El número de la unidad es obligatorio', 20),
  price: amount('Ingrese un precio válido en UF (mayor o igual a 0, con hasta 2 decimales)'),
});
export type PriceRow = z.input<typeof priceRow>;

export const priceListBody = z.strictObject({
  effectiveDate: isoDate('Ingrese la fecha desde la que rige la lista'),
  note: optionalText(200),
  rows: z.array(priceRow).min(1, { error: 'La lista no tiene precios' }).max(20_000, {
    error: 'Una lista tiene como máximo 20.000 precios',
  }),
});
export type PriceListBody = z.input<typeof priceListBody>;

/** What applying a list would change, shown before it is applied. */
export const priceListDiff = z.object({
  /** Units whose price changes: from what to what. */
  changes: z.array(
    z.object({ unitId: z.uuid(), kind: unitKind, number: z.string(), from: z.string(), to: z.string() }),
  ),
  /** Units that get their first price. */
  newlyPriced: z.array(z.object({ unitId: z.uuid(), kind: unitKind, number: z.string(), to: z.string() })),
  unchanged: z.number().int(),
  /** Rows naming units the project does not have: listed, and nothing is applied while there are any. */
  unknown: z.array(z.object({ kind: unitKind, number: z.string() })),
  /** Rows naming the same unit twice. */
  repeated: z.array(z.object({ kind: unitKind, number: z.string() })),
  /** In words: '47 precios cambian, 3 unidades nuevas'. */
  summary: z.string(),
});
export type PriceListDiff = z.infer<typeof priceListDiff>;
export const priceListDiffResponse = z.object({ diff: priceListDiff });

export const priceListView = z.object({
  id: z.uuid(),
  effectiveDate: z.string(),
  priceCount: z.number().int(),
  note: z.string().nullable(),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  isCurrent: z.boolean(),
  /** Its date is after today (Santiago): it will be in force from then ('Programada'). */
  isScheduled: z.boolean(),
});
export type PriceListView = z.infer<typeof priceListView>;
export const priceListHistory = z.object({ rows: z.array(priceListView) });
export const priceListResponse = z.object({ priceList: priceListView, diff: priceListDiff });

// --- Commercial policy ---------------------------------------------------------------------------

const maxFraction = z
  .union([closed(z.string(), 'fracción'), z.number()], {
    error: 'Ingrese un máximo válido entre 0 % y 100 %',
  })
  .transform((value) => String(value).trim())
  .refine((value) => /^(0(\.\d{1,6})?|1(\.0{1,6})?)$/.test(value), {
    error: 'Ingrese un máximo válido entre 0 % y 100 %',
  })
  .nullable();

export const policyFields = z.strictObject({
  reservationAmount: amount('Ingrese un monto de reserva válido en UF').nullable(),
  maxColumnDiscount: maxFraction,
  maxAdditionalDiscount: maxFraction,
  maxOtherDiscount: maxFraction,
  maxSubsidyFraction: maxFraction,
});
export type PolicyFields = z.input<typeof policyFields>;
export type PolicyValues = z.output<typeof policyFields>;
/** Without `version` the first save creates the policy. */
export const policyBody = policyFields.extend({ version: z.number().int().min(1).optional() });
export const policyView = z.object({
  reservationAmount: z.string().nullable(),
  maxColumnDiscount: z.string().nullable(),
  maxAdditionalDiscount: z.string().nullable(),
  maxOtherDiscount: z.string().nullable(),
  maxSubsidyFraction: z.string().nullable(),
  version: z.number().int().nullable(),
});
export type PolicyView = z.infer<typeof policyView>;
export const policyResponse = z.object({ policy: policyView });

// --- Export ----------------------------------------------------------------------------------------

export const unitGridExportQuery = unitGridQuery.extend({ format: exportFormat });

/** One row of the Disponibilidad export. */
export interface UnitExportRow {
  kind: string;
  number: string;
  floor: number | null;
  building: string | null;
  typology: string | null;
  orientation: string | null;
  usableArea: string | null;
  terraceArea: string | null;
  totalArea: string | null;
  price: string | null;
  status: string;
  reservationNumber: string | null;
  clientName: string | null;
  sellerName: string | null;
}

export const UNIT_EXPORT_COLUMNS = reportColumns<UnitExportRow>()([
  { key: 'kind', header: 'Tipo', format: 'text' },
  { key: 'number', header: 'Número', format: 'text' },
  { key: 'floor', header: 'Piso', format: 'integer' },
  { key: 'building', header: 'Torre', format: 'text' },
  { key: 'typology', header: 'Tipología', format: 'text' },
  { key: 'orientation', header: 'Orientación', format: 'text' },
  { key: 'usableArea', header: 'm² útiles', format: 'area' },
  { key: 'terraceArea', header: 'm² terraza', format: 'area' },
  { key: 'totalArea', header: 'm² totales', format: 'area' },
  { key: 'price', header: 'Precio lista', format: 'uf' },
  { key: 'status', header: 'Estado', format: 'text' },
  { key: 'reservationNumber', header: 'N° Reserva', format: 'text' },
  { key: 'clientName', header: 'Cliente', format: 'text' },
  { key: 'sellerName', header: 'Vendedor', format: 'text' },
]);

/** POST …/price-lists/read: a CSV or XLSX file (base64, at most ~700 KB) read into rows, nothing applied. */
export const priceFileBody = z.strictObject({
  contentBase64: z
    .string()
    .max(1_000_000, { error: 'El archivo es demasiado grande (máximo 700 KB)' })
    .regex(/^[A-Za-z0-9+/=\s]*$/, { error: 'Archivo no válido' }),
});
export const priceFileResponse = z.object({
  rows: z.array(z.object({ kind: unitKind, number: z.string(), price: z.string() })),
  problems: z.array(z.string()),
});
export type PriceFileResponse = z.infer<typeof priceFileResponse>;
