import type { z } from 'zod';
import { consolidatedStatus } from '../../../shared/domain/broker-consolidated';
import { dec, money } from '../../../shared/domain/decimal';
import { FIGURE_NOTES, LIVE_TOTALS_LABEL } from '../../../shared/domain/figures';
import { santiagoDateOf } from '../../../shared/format';
import type { ExportTotals } from '../../../shared/reports/columns';
import { COMMISSION_REPORT_TEXTS, REPORT_FILE_PREFIXES } from '../../../shared/reports/definitions';
import type { riskBody } from '../../../shared/schemas/payments';
import type {
  BrokerConsolidatedPage,
  BrokerConsolidatedQuery,
  BrokerConsolidatedRow,
  BrokerPaymentRow,
  BrokerPaymentsPage,
  BrokerPaymentsQuery,
  BrokersReportPage,
  BrokersReportQuery,
  BrokersReportRow,
  CommissionReportKind,
  CommissionReportPage,
  CommissionReportQuery,
  CommissionReportRow,
  SalesReportPage,
  SalesReportQuery,
  SalesReportRow,
} from '../../../shared/schemas/reports';
import type { ReadContext, ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { keysetChunks } from '../../exports';
import { AppError } from '../../http/app-error';
import * as commissions from '../commissions/commissions.service';
import * as queries from './reports.queries';

/**
 * 'Informes' (spec part 2 §2, §7, §9): every report readable by every signed-in user, sorted, paged
 * and summed in SQL; each export streams the same rows in the same order in keyset chunks. The
 * consolidated view's at-risk change is the commissions feature's, under the reservation's lock.
 */

/** What an export route streams: validated and checked before the first byte. */
export interface ReportExport<Row> {
  fileName: string;
  sheetName: string;
  chunks: AsyncIterable<Row[]>;
  totals?: () => Promise<ExportTotals<Row> | null>;
}

/** The totals row of a report whose sums leave the rescinded reservations out, saying so. */
async function liveTotals(db: Executor, report: queries.ReportSql): Promise<Record<string, string>> {
  return { reservationNumber: LIVE_TOTALS_LABEL, ...(await queries.selectReportSums(db, report)) };
}

type Sorted<Query> = Omit<Query, 'page' | 'pageSize'>;

function chunksOf<Row>(db: Executor, report: queries.ReportSql, map: (row: Row) => Row = (row) => row) {
  let cursor: queries.ReportCursor | null = null;
  return keysetChunks<Row, queries.ReportCursor | null>(
    async (after, limit) => {
      const chunk = await queries.selectReportChunk<Row>(db, report, after, limit);
      cursor = chunk.cursor;
      return chunk.rows.map(map);
    },
    () => cursor,
  );
}

function today(ctx: ReadContext): string {
  return santiagoDateOf(ctx.now ?? new Date());
}

/**
 * The pesos the statement read as one JSON value (one lookup of the commission per row), spread
 * into the row's columns: 'Monto CLP', 'Valor UF' and how they stand (decision 0034). Informe de
 * Comisiones' export reads them as columns of their own (`commissionReportSql`, 'export').
 */
type WithPesos<Row, Keys extends keyof Row> = Omit<Row, Keys> & { pesos?: Pick<Row, Keys> | null };

const NO_PESOS = { clpAmount: null, ufValue: null, clpState: null };

function withPesos(row: CommissionReportRow): CommissionReportRow {
  const { pesos, ...rest } = row as WithPesos<CommissionReportRow, 'clpAmount' | 'ufValue' | 'clpState'>;
  return { ...rest, ...(pesos ?? NO_PESOS) };
}

// --- Informe de Comisiones / Proyección Comisiones ------------------------------------------

export async function commissionMonths(
  ctx: ReadContext,
  kind: CommissionReportKind,
): Promise<{ months: string[] }> {
  return { months: await queries.listMonths(ctx.db, kind) };
}

export async function commissionReport(
  ctx: ReadContext,
  query: CommissionReportQuery,
): Promise<CommissionReportPage> {
  const page = await queries.selectReportPage<CommissionReportRow, 'commissionAmount' | 'netAmount'>(
    ctx.db,
    queries.commissionReportSql(query, today(ctx)),
    query.page,
    query.pageSize,
  );
  return {
    ...page,
    rows: page.rows.map(withPesos),
    totals: page.sums ?? { commissionAmount: '0.00', netAmount: '0.00' },
  };
}

export function exportCommissionReport(
  ctx: ReadContext,
  query: Sorted<CommissionReportQuery>,
): ReportExport<CommissionReportRow> {
  const report = queries.commissionReportSql(query, today(ctx), 'export');
  const texts = COMMISSION_REPORT_TEXTS[query.kind];
  return {
    fileName: `${texts.filePrefix}_${query.month}`,
    sheetName: texts.sheet,
    chunks: chunksOf<CommissionReportRow>(ctx.db, report),
    totals: () => liveTotals(ctx.db, report),
  };
}

// --- Informe de Brokers ----------------------------------------------------------------------

export async function brokersReport(ctx: ReadContext, query: BrokersReportQuery): Promise<BrokersReportPage> {
  const page = await queries.selectReportPage<BrokersReportRow, 'commissionAmount'>(
    ctx.db,
    queries.brokersReportSql(query),
    query.page,
    query.pageSize,
  );
  return { ...page, totals: page.sums ?? { commissionAmount: '0.00' } };
}

export function exportBrokersReport(
  ctx: ReadContext,
  query: Sorted<BrokersReportQuery>,
): ReportExport<BrokersReportRow> {
  const report = queries.brokersReportSql(query);
  return {
    fileName: `${REPORT_FILE_PREFIXES.brokers}_${today(ctx)}`,
    sheetName: 'Informe de Brokers',
    chunks: chunksOf(ctx.db, report),
    totals: () => liveTotals(ctx.db, report),
  };
}

// --- Informe de Ventas -----------------------------------------------------------------------

export async function salesReport(ctx: ReadContext, query: SalesReportQuery): Promise<SalesReportPage> {
  const page = await queries.selectReportPage<SalesReportRow, 'totalPrice' | 'minimumPrice' | 'totalPayment'>(
    ctx.db,
    queries.salesReportSql(query),
    query.page,
    query.pageSize,
  );
  return { ...page, totals: page.sums ?? { totalPrice: '0.00', minimumPrice: '0.00', totalPayment: '0.00' } };
}

export function exportSalesReport(
  ctx: ReadContext,
  query: Sorted<SalesReportQuery>,
): ReportExport<SalesReportRow> {
  const report = queries.salesReportSql(query);
  return {
    fileName: `${REPORT_FILE_PREFIXES.sales}_${today(ctx)}`,
    sheetName: 'Informe de Ventas',
    chunks: chunksOf(ctx.db, report),
    totals: async () => {
      const { reservationNumber, totalPayment } = await liveTotals(ctx.db, report);
      return { reservationNumber, totalPayment };
    },
  };
}

// --- Informe de Pagos Brokers ----------------------------------------------------------------

export async function brokerPayments(
  ctx: ReadContext,
  query: BrokerPaymentsQuery,
): Promise<BrokerPaymentsPage> {
  const { sums: _sums, ...page } = await queries.selectReportPage<BrokerPaymentRow, never>(
    ctx.db,
    queries.brokerPaymentsSql(query, today(ctx)),
    query.page,
    query.pageSize,
  );
  return page;
}

export function exportBrokerPayments(
  ctx: ReadContext,
  query: Sorted<BrokerPaymentsQuery>,
): ReportExport<BrokerPaymentRow> {
  return {
    fileName: `${REPORT_FILE_PREFIXES.brokerPayments}_${today(ctx)}`,
    sheetName: 'Informe de Pagos Brokers',
    chunks: chunksOf(ctx.db, queries.brokerPaymentsSql(query, today(ctx))),
  };
}

// --- Consolidado Brokers ---------------------------------------------------------------------

function withStatus(row: BrokerConsolidatedRow): BrokerConsolidatedRow {
  return { ...row, statusLabel: consolidatedStatus(row) };
}

async function requireBroker(ctx: ReadContext, brokerId: string) {
  if (!(await queries.brokerExists(ctx.db, brokerId))) throw new AppError('BROKER_NOT_FOUND');
}

type ConsolidatedSums = 'totalCommission' | 'totalPaid' | 'totalAtRisk';

function totalsOf(sums: Record<ConsolidatedSums, string> | null) {
  const total = dec(sums?.totalCommission ?? 0);
  const paid = dec(sums?.totalPaid ?? 0);
  return {
    totalCommission: money(total),
    totalPaid: money(paid),
    totalAtRisk: money(dec(sums?.totalAtRisk ?? 0)),
    totalPending: money(total.minus(paid)),
  };
}

export async function brokerConsolidated(
  ctx: ReadContext,
  query: BrokerConsolidatedQuery,
): Promise<BrokerConsolidatedPage> {
  await requireBroker(ctx, query.brokerId);
  const page = await queries.selectReportPage<BrokerConsolidatedRow, ConsolidatedSums>(
    ctx.db,
    queries.brokerConsolidatedSql(query),
    query.page,
    query.pageSize,
  );
  return {
    rows: page.rows.map(withStatus),
    total: page.total,
    totalIsCapped: page.totalIsCapped,
    totals: totalsOf(page.sums),
  };
}

export async function exportBrokerConsolidated(
  ctx: ReadContext,
  query: Sorted<BrokerConsolidatedQuery>,
): Promise<ReportExport<BrokerConsolidatedRow>> {
  await requireBroker(ctx, query.brokerId);
  const report = queries.brokerConsolidatedSql(query);
  return {
    fileName: `${REPORT_FILE_PREFIXES.brokerConsolidated}_${today(ctx)}`,
    sheetName: 'Consolidado Brokers',
    chunks: chunksOf(ctx.db, report, withStatus),
    totals: async () => {
      const totals = totalsOf(
        (await queries.selectReportSums(ctx.db, report)) as Record<ConsolidatedSums, string>,
      );
      // The summary cards of the screen, each on a row of its own under the column it sums.
      return [
        {
          reservationNumber: `Total Comisiones (${FIGURE_NOTES.rescindedAndAtRisk})`,
          commissionAmount: totals.totalCommission,
        },
        { reservationNumber: 'Total Pagado', paidAmount: totals.totalPaid },
        { reservationNumber: 'Total En Riesgo', paidAmount: totals.totalAtRisk },
        { reservationNumber: 'Total Pendiente', commissionAmount: totals.totalPending },
      ];
    },
  };
}

/**
 * 'Marcar En Riesgo' / 'Editar Riesgo' from the consolidated view (spec part 2 §4 'At risk': the view
 * can toggle it too): on with its reason or off, refused on a rescinded reservation, with the version
 * the user read — under the reservation's lock, as the rescission takes it.
 */
export async function setRisk(
  ctx: ServiceContext,
  reservationId: string,
  body: z.output<typeof riskBody>,
): Promise<{ atRisk: boolean; atRiskReason: string | null; version: number }> {
  return ctx.db.transaction((tx: Executor) =>
    commissions.setRiskOfReservationIn(
      tx,
      reservationId,
      { version: body.version, atRisk: body.atRisk, reason: body.reason ?? null },
      ctx.user.id,
    ),
  );
}
