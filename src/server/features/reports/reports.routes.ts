import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ExportFormat, ReportColumns } from '../../../shared/reports/columns';
import {
  BROKER_CONSOLIDATED_COLUMNS,
  BROKER_PAYMENTS_REPORT_COLUMNS,
  BROKERS_REPORT_COLUMNS,
  COMMISSION_REPORT_COLUMNS,
  SALES_REPORT_COLUMNS,
} from '../../../shared/reports/definitions';
import { riskBody, riskResponse } from '../../../shared/schemas/payments';
import {
  brokerConsolidatedExportQuery,
  brokerConsolidatedQuery,
  brokerConsolidatedResponse,
  brokerPaymentsExportQuery,
  brokerPaymentsQuery,
  brokerPaymentsResponse,
  brokersReportExportQuery,
  brokersReportQuery,
  brokersReportResponse,
  commissionMonthsQuery,
  commissionMonthsResponse,
  commissionReportExportQuery,
  commissionReportQuery,
  commissionReportResponse,
  reservationRiskParams,
  salesReportExportQuery,
  salesReportQuery,
  salesReportResponse,
} from '../../../shared/schemas/reports';
import { sendExport } from '../../exports';
import { serviceContext } from '../../http/context';
import * as audit from '../audit/audit.service';
import type { ReportExport } from './reports.service';
import * as reports from './reports.service';

/** A report's export, recorded in the audit log with the filters asked (decision 0027). */
function send<Row>(
  request: FastifyRequest<{ Querystring: { format: ExportFormat } }>,
  reply: FastifyReply,
  columns: ReportColumns<Row>,
  exported: ReportExport<Row>,
) {
  const { format, ...filters } = request.query;
  const record = audit.exportRecorder(serviceContext(request), {
    fileName: exported.fileName,
    format,
    filters,
  });
  return sendExport(reply, { format, columns, ...exported, record });
}

/**
 * /api/reports: 'Informes' (spec part 2 §2). Each report: `GET /<report>` (a page with its totals)
 * and `GET /<report>/export?format=csv|xlsx` (the same filters and order, streamed).
 */
export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['reports'];

  app.get(
    '/commissions/months',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: commissionMonthsQuery, response: { 200: commissionMonthsResponse } },
    },
    async (request) => reports.commissionMonths(serviceContext(request), request.query.kind),
  );
  app.get(
    '/commissions',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: commissionReportQuery, response: { 200: commissionReportResponse } },
    },
    async (request) => reports.commissionReport(serviceContext(request), request.query),
  );
  app.get(
    '/commissions/export',
    {
      config: { access: { action: 'reports.export' }, heavy: 'export' },
      schema: { tags, querystring: commissionReportExportQuery },
    },
    async (request, reply) =>
      send(
        request,
        reply,
        COMMISSION_REPORT_COLUMNS,
        reports.exportCommissionReport(serviceContext(request), request.query),
      ),
  );

  app.get(
    '/brokers',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: brokersReportQuery, response: { 200: brokersReportResponse } },
    },
    async (request) => reports.brokersReport(serviceContext(request), request.query),
  );
  app.get(
    '/brokers/export',
    {
      config: { access: { action: 'reports.export' }, heavy: 'export' },
      schema: { tags, querystring: brokersReportExportQuery },
    },
    async (request, reply) =>
      send(
        request,
        reply,
        BROKERS_REPORT_COLUMNS,
        reports.exportBrokersReport(serviceContext(request), request.query),
      ),
  );

  app.get(
    '/sales',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: salesReportQuery, response: { 200: salesReportResponse } },
    },
    async (request) => reports.salesReport(serviceContext(request), request.query),
  );
  app.get(
    '/sales/export',
    {
      config: { access: { action: 'reports.export' }, heavy: 'export' },
      schema: { tags, querystring: salesReportExportQuery },
    },
    async (request, reply) =>
      send(
        request,
        reply,
        SALES_REPORT_COLUMNS,
        reports.exportSalesReport(serviceContext(request), request.query),
      ),
  );

  app.get(
    '/broker-payments',
    {
      config: { access: { action: 'reports.brokerPayments' } },
      schema: { tags, querystring: brokerPaymentsQuery, response: { 200: brokerPaymentsResponse } },
    },
    async (request) => reports.brokerPayments(serviceContext(request), request.query),
  );
  app.get(
    '/broker-payments/export',
    {
      config: { access: { action: ['reports.brokerPayments', 'reports.export'] }, heavy: 'export' },
      schema: { tags, querystring: brokerPaymentsExportQuery },
    },
    async (request, reply) =>
      send(
        request,
        reply,
        BROKER_PAYMENTS_REPORT_COLUMNS,
        reports.exportBrokerPayments(serviceContext(request), request.query),
      ),
  );

  app.get(
    '/broker-consolidated',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: brokerConsolidatedQuery, response: { 200: brokerConsolidatedResponse } },
    },
    async (request) => reports.brokerConsolidated(serviceContext(request), request.query),
  );
  app.get(
    '/broker-consolidated/export',
    {
      config: { access: { action: 'reports.export' }, heavy: 'export' },
      schema: { tags, querystring: brokerConsolidatedExportQuery },
    },
    async (request, reply) =>
      send(
        request,
        reply,
        BROKER_CONSOLIDATED_COLUMNS,
        await reports.exportBrokerConsolidated(serviceContext(request), request.query),
      ),
  );
  app.put(
    '/broker-consolidated/:reservationId/risk',
    {
      config: { access: 'staff' },
      schema: { tags, params: reservationRiskParams, body: riskBody, response: { 200: riskResponse } },
    },
    async (request) => ({
      commission: await reports.setRisk(serviceContext(request), request.params.reservationId, request.body),
    }),
  );
};
