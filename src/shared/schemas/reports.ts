import { z } from 'zod';
import { exportFormat } from '../reports/columns';
import { isoDate, pageOf, sortedPageQuery, uuid } from './common';

/**
 * The reports (spec part 2 §2 'Informes', §7, §9): each a sorted, paged list with its totals summed in
 * SQL over every matching row, and its export (`…/export?format=csv|xlsx`, same filters and order).
 */

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const MONTH_MESSAGE = 'Seleccione un mes válido';

/** A report's export takes its filters and order, not its page, plus `format` (csv or xlsx). */
const NOT_PAGED = { page: true, pageSize: true } as const;

// --- Informe de Comisiones / Proyección Comisiones ---------------------------------------------

export const COMMISSION_REPORT_KINDS = ['payment', 'projection'] as const;
export type CommissionReportKind = (typeof COMMISSION_REPORT_KINDS)[number];
export const commissionReportKind = z.enum(COMMISSION_REPORT_KINDS, { error: 'Tipo de informe no válido' });

export const COMMISSION_REPORT_SORTS = [
  'reservationNumber',
  'clientName',
  'projectName',
  'apartmentNumber',
  'brokerName',
  'commissionAmount',
  'netAmount',
] as const;
export type CommissionReportSort = (typeof COMMISSION_REPORT_SORTS)[number];

export const commissionMonthsQuery = z.strictObject({ kind: commissionReportKind });
export const commissionMonthsResponse = z.object({ months: z.array(z.string()) });

export const commissionReportQuery = sortedPageQuery(COMMISSION_REPORT_SORTS, {
  sort: 'reservationNumber',
  direction: 'asc',
}).extend({
  kind: commissionReportKind,
  month: z.string({ error: MONTH_MESSAGE }).regex(MONTH, { error: MONTH_MESSAGE }),
});
export type CommissionReportQuery = z.output<typeof commissionReportQuery>;
export const commissionReportExportQuery = commissionReportQuery
  .omit(NOT_PAGED)
  .extend({ format: exportFormat });

export const commissionReportRow = z.object({
  reservationId: z.string(),
  reservationNumber: z.string(),
  isRescinded: z.boolean(),
  /** 'Vigente' or 'Resciliada' (shared/domain/figures.ts): the exports' 'Estado'. */
  statusLabel: z.string(),
  clientName: z.string(),
  projectName: z.string(),
  apartmentNumber: z.string(),
  brokerName: z.string().nullable(),
  commissionAmount: z.string().nullable(),
  netAmount: z.string(),
  /** The commission in pesos: paid parts frozen, unpaid ones at today's UF value (issue 33). */
  clpAmount: z.string().nullable(),
  /** The UF value used: today's while any part is unpaid, else the last payment's. */
  ufValue: z.string().nullable(),
  /** 'Pagado', 'Estimado' or 'Valor UF no disponible'; null without a commission. */
  clpState: z.string().nullable(),
  saleFlowId: z.string().nullable(),
});
export type CommissionReportRow = z.infer<typeof commissionReportRow>;
export const commissionReportTotals = z.object({ commissionAmount: z.string(), netAmount: z.string() });
export const commissionReportResponse = pageOf(commissionReportRow).extend({
  totals: commissionReportTotals,
});
export type CommissionReportPage = z.infer<typeof commissionReportResponse>;

// --- Date-ranged reports: Informe de Brokers, Informe de Ventas --------------------------------

export const REPORT_DATE_TYPES = ['reservation', 'promise', 'deed'] as const;
export type ReportDateType = (typeof REPORT_DATE_TYPES)[number];
export const REPORT_DATE_TYPE_LABELS: Record<ReportDateType, string> = {
  reservation: 'Fecha de Reserva',
  promise: 'Promesa',
  deed: 'Escritura',
};

const DATED_SORTS = [
  'reservationDate',
  'promiseDate',
  'deedDate',
  'reservationNumber',
  'clientName',
  'projectName',
  'brokerName',
] as const;

export const BROKERS_REPORT_SORTS = [...DATED_SORTS, 'commissionAmount'] as const;
export type BrokersReportSort = (typeof BROKERS_REPORT_SORTS)[number];
export const SALES_REPORT_SORTS = [...DATED_SORTS, 'apartmentNumber', 'totalPayment'] as const;
export type SalesReportSort = (typeof SALES_REPORT_SORTS)[number];

export const BROKER_OR_DATES_MESSAGE = 'Seleccione un broker o un rango de fechas completo';
export const PROJECT_OR_DATES_MESSAGE = 'Seleccione un proyecto o un rango de fechas completo';
export const DATE_ORDER_MESSAGE = 'La fecha de inicio no puede ser posterior a la fecha de término';

const datedFilters = {
  dateType: z.enum(REPORT_DATE_TYPES, { error: 'Tipo de fecha no válido' }).default('reservation'),
  fromDate: isoDate('Ingrese una fecha de inicio válida').optional(),
  toDate: isoDate('Ingrese una fecha de término válida').optional(),
};

function datesInOrder(query: { fromDate?: string | undefined; toDate?: string | undefined }) {
  return !query.fromDate || !query.toDate || query.fromDate <= query.toDate;
}

/** No query runs until the subject (broker, project) or a full date range is chosen (spec §5). */
function subjectOrDates(subject: 'brokerId' | 'projectId', message: string) {
  return (query: Record<string, unknown>, ctx: z.RefinementCtx) => {
    if (!query[subject] && !(query.fromDate && query.toDate)) ctx.addIssue({ code: 'custom', message });
    if (!datesInOrder(query)) ctx.addIssue({ code: 'custom', message: DATE_ORDER_MESSAGE, path: ['toDate'] });
  };
}

const brokersReportBase = sortedPageQuery(BROKERS_REPORT_SORTS, {
  sort: 'reservationDate',
  direction: 'desc',
}).extend({
  brokerId: uuid().optional(),
  ...datedFilters,
});
export const brokersReportQuery = brokersReportBase.superRefine(
  subjectOrDates('brokerId', BROKER_OR_DATES_MESSAGE),
);
export type BrokersReportQuery = z.output<typeof brokersReportQuery>;
export const brokersReportExportQuery = brokersReportBase
  .omit(NOT_PAGED)
  .extend({ format: exportFormat })
  .superRefine(subjectOrDates('brokerId', BROKER_OR_DATES_MESSAGE));

export const brokersReportRow = z.object({
  reservationId: z.string(),
  reservationNumber: z.string(),
  isRescinded: z.boolean(),
  /** 'Vigente' or 'Resciliada' (shared/domain/figures.ts): the exports' 'Estado'. */
  statusLabel: z.string(),
  clientName: z.string(),
  projectName: z.string(),
  brokerName: z.string().nullable(),
  reservationDate: z.string(),
  promiseDate: z.string().nullable(),
  deedDate: z.string().nullable(),
  commissionAmount: z.string().nullable(),
  saleFlowId: z.string().nullable(),
});
export type BrokersReportRow = z.infer<typeof brokersReportRow>;
export const brokersReportResponse = pageOf(brokersReportRow).extend({
  totals: z.object({ commissionAmount: z.string() }),
});
export type BrokersReportPage = z.infer<typeof brokersReportResponse>;

const salesReportBase = sortedPageQuery(SALES_REPORT_SORTS, {
  sort: 'reservationDate',
  direction: 'desc',
}).extend({
  projectId: uuid().optional(),
  ...datedFilters,
});
export const salesReportQuery = salesReportBase.superRefine(
  subjectOrDates('projectId', PROJECT_OR_DATES_MESSAGE),
);
export type SalesReportQuery = z.output<typeof salesReportQuery>;
export const salesReportExportQuery = salesReportBase
  .omit(NOT_PAGED)
  .extend({ format: exportFormat })
  .superRefine(subjectOrDates('projectId', PROJECT_OR_DATES_MESSAGE));

export const salesReportRow = z.object({
  reservationId: z.string(),
  reservationNumber: z.string(),
  isRescinded: z.boolean(),
  /** 'Vigente' or 'Resciliada' (shared/domain/figures.ts): the exports' 'Estado'. */
  statusLabel: z.string(),
  clientName: z.string(),
  projectName: z.string(),
  apartmentNumber: z.string(),
  brokerName: z.string().nullable(),
  reservationDate: z.string(),
  promiseDate: z.string().nullable(),
  deedDate: z.string().nullable(),
  totalPayment: z.string(),
  saleFlowId: z.string().nullable(),
});
export type SalesReportRow = z.infer<typeof salesReportRow>;
/** The cards: Precio Lista (the three prices), Precio Mínimo, Total Escrituración (the five payments). */
export const salesReportTotals = z.object({
  totalPrice: z.string(),
  minimumPrice: z.string(),
  totalPayment: z.string(),
});
export const salesReportResponse = pageOf(salesReportRow).extend({ totals: salesReportTotals });
export type SalesReportPage = z.infer<typeof salesReportResponse>;

// --- Informe de Pagos Brokers ------------------------------------------------------------------

export const BROKER_PAYMENTS_SORTS = [
  'daysPending',
  'reservationNumber',
  'projectName',
  'brokerName',
  'taskName',
  'daysLate',
] as const;
export type BrokerPaymentsSort = (typeof BROKER_PAYMENTS_SORTS)[number];
export const brokerPaymentsQuery = sortedPageQuery(BROKER_PAYMENTS_SORTS, {
  sort: 'daysPending',
  direction: 'desc',
});
export type BrokerPaymentsQuery = z.output<typeof brokerPaymentsQuery>;
export const brokerPaymentsExportQuery = brokerPaymentsQuery.omit(NOT_PAGED).extend({ format: exportFormat });

export const brokerPaymentRow = z.object({
  flowTaskId: z.string(),
  flowId: z.string(),
  reservationNumber: z.string(),
  projectName: z.string(),
  apartmentNumber: z.string(),
  brokerName: z.string().nullable(),
  paymentLabel: z.string(),
  stageName: z.string(),
  taskName: z.string(),
  assigneeName: z.string().nullable(),
  startedDate: z.string().nullable(),
  daysToComplete: z.number().int().nullable(),
  daysPending: z.number().int(),
  daysLate: z.number().int(),
  /** The payment's UF, its pesos (frozen once paid, today's estimate while unpaid) and the UF value used. */
  paymentUf: z.string().nullable(),
  clpAmount: z.string().nullable(),
  ufValue: z.string().nullable(),
  clpState: z.string().nullable(),
});
export type BrokerPaymentRow = z.infer<typeof brokerPaymentRow>;
export const brokerPaymentsResponse = pageOf(brokerPaymentRow);
export type BrokerPaymentsPage = z.infer<typeof brokerPaymentsResponse>;

// --- Consolidado Brokers -----------------------------------------------------------------------

export const BROKER_CONSOLIDATED_SORTS = [
  'reservationNumber',
  'clientName',
  'projectName',
  'apartmentNumber',
  'commissionAmount',
  'payment1Date',
  'payment2Date',
  'paidAmount',
] as const;
export type BrokerConsolidatedSort = (typeof BROKER_CONSOLIDATED_SORTS)[number];
const consolidatedBase = sortedPageQuery(BROKER_CONSOLIDATED_SORTS, {
  sort: 'reservationNumber',
  direction: 'asc',
}).extend({ brokerId: uuid('Seleccione un broker') });
export const brokerConsolidatedQuery = consolidatedBase;
export type BrokerConsolidatedQuery = z.output<typeof brokerConsolidatedQuery>;
export const brokerConsolidatedExportQuery = consolidatedBase
  .omit(NOT_PAGED)
  .extend({ format: exportFormat });

export const brokerConsolidatedRow = z.object({
  commissionId: z.string(),
  reservationId: z.string(),
  reservationNumber: z.string(),
  isRescinded: z.boolean(),
  clientName: z.string(),
  projectName: z.string(),
  apartmentNumber: z.string(),
  commissionAmount: z.string(),
  numberOfPayments: z.number().int(),
  firstPaymentPercentage: z.number().int(),
  payment1Date: z.string().nullable(),
  payment2Date: z.string().nullable(),
  paidAmount: z.string(),
  /** The pesos paid (frozen with each payment); null when a paid day had no UF value. */
  paidClp: z.string().nullable(),
  atRisk: z.boolean(),
  atRiskReason: z.string().nullable(),
  statusLabel: z.string(),
  firstFlowId: z.string().nullable(),
  version: z.number().int(),
});
export type BrokerConsolidatedRow = z.infer<typeof brokerConsolidatedRow>;
export const brokerConsolidatedTotals = z.object({
  totalCommission: z.string(),
  totalPaid: z.string(),
  totalAtRisk: z.string(),
  totalPending: z.string(),
});
export type BrokerConsolidatedTotals = z.infer<typeof brokerConsolidatedTotals>;
export const brokerConsolidatedResponse = pageOf(brokerConsolidatedRow).extend({
  totals: brokerConsolidatedTotals,
});
export type BrokerConsolidatedPage = z.infer<typeof brokerConsolidatedResponse>;

export const reservationRiskParams = z.strictObject({ reservationId: uuid() });
