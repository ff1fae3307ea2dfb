import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExportFormat } from '../../../shared/reports/columns';
import type { RiskBody } from '../../../shared/schemas/payments';
import type {
  BrokerConsolidatedPage,
  BrokerPaymentsPage,
  BrokersReportPage,
  CommissionReportKind,
  CommissionReportPage,
  SalesReportPage,
} from '../../../shared/schemas/reports';
import { api, exportHref } from '../../lib/api';

/** A report's request as the screen builds it (page, order, filters; undefined ones are left out). */
export type ReportQuery = Record<string, string | number | undefined>;

/** The reports' endpoints under /api/reports (each with its `/export`). */
export const REPORT_ENDPOINTS = {
  commissions: '/api/reports/commissions',
  brokers: '/api/reports/brokers',
  sales: '/api/reports/sales',
  brokerPayments: '/api/reports/broker-payments',
  brokerConsolidated: '/api/reports/broker-consolidated',
} as const;
export type ReportName = keyof typeof REPORT_ENDPOINTS;

export const reportKeys = {
  all: ['reports'] as const,
  months: (kind: CommissionReportKind) => ['reports', 'months', kind] as const,
  report: (name: ReportName, query: ReportQuery) => ['reports', name, query] as const,
};

/** The export's address: the report's filters and order (not its page) and the format. */
export function exportUrl(name: ReportName, query: ReportQuery, format: ExportFormat): string {
  return exportHref(REPORT_ENDPOINTS[name], query, format);
}

function useReport<Page>(name: ReportName, query: ReportQuery, enabled: boolean) {
  return useQuery({
    queryKey: reportKeys.report(name, query),
    queryFn: ({ signal }) => api<Page>(REPORT_ENDPOINTS[name], { query, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useCommissionMonths(kind: CommissionReportKind) {
  return useQuery({
    queryKey: reportKeys.months(kind),
    queryFn: ({ signal }) =>
      api<{ months: string[] }>(`${REPORT_ENDPOINTS.commissions}/months`, { query: { kind }, signal }).then(
        (answer) => answer.months,
      ),
  });
}

/** Runs only once a month is chosen (spec part 2 §5). */
export function useCommissionReport(query: ReportQuery, enabled: boolean) {
  return useReport<CommissionReportPage>('commissions', query, enabled);
}

/** Runs only once a broker or both dates are chosen. */
export function useBrokersReport(query: ReportQuery, enabled: boolean) {
  return useReport<BrokersReportPage>('brokers', query, enabled);
}

/** Runs only once a project or both dates are chosen. */
export function useSalesReport(query: ReportQuery, enabled: boolean) {
  return useReport<SalesReportPage>('sales', query, enabled);
}

export function useBrokerPaymentsReport(query: ReportQuery) {
  return useReport<BrokerPaymentsPage>('brokerPayments', query, true);
}

/** Runs only once a broker is chosen. */
export function useBrokerConsolidated(query: ReportQuery, enabled: boolean) {
  return useReport<BrokerConsolidatedPage>('brokerConsolidated', query, enabled);
}

/** 'Marcar En Riesgo' / 'Editar Riesgo' of a consolidated row; the report reloads after it. */
export function useSetConsolidatedRisk(reservationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RiskBody) =>
      api<{ commission: { atRisk: boolean; atRiskReason: string | null; version: number } }>(
        `${REPORT_ENDPOINTS.brokerConsolidated}/${reservationId}/risk`,
        { method: 'PUT', body },
      ).then((answer) => answer.commission),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.all }),
  });
}
