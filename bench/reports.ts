// The reports for `npm run bench` (issue 16): every report's page at 100,000 reservations (p99 target
// 100 ms, one request at a time), and the exports of every reservation (the sales report over every
// date: 100,000 rows) as CSV and XLSX — the whole download's time (CSV target 3 s on the embedded
// database) and the longest wait of /api/health polled meanwhile (the event loop's longest stall,
// target 100 ms). The report filters are found through the API of the server being measured.
import { getJson, probeJson } from './api';

export interface ReportTargets {
  paymentMonth: string | null;
  projectionMonth: string | null;
  /** The broker with the most reservations among the newest ones (the consolidated view's widest). */
  brokerId: string | null;
  /** A project with reservations. */
  projectId: string | null;
}

/** The newest month with data of each commission report, a busy broker and a project; null before issue 16. */
export async function reportTargets(origin: string, cookie: string): Promise<ReportTargets | null> {
  const payment = await probeJson<{ months: string[] }>(
    origin,
    cookie,
    '/api/reports/commissions/months?kind=payment',
  );
  if (!payment) return null;
  const projection = await getJson<{ months: string[] }>(
    origin,
    cookie,
    '/api/reports/commissions/months?kind=projection',
  );
  const newest = await getJson<{ rows: { brokerName: string | null; reservationId: string }[] }>(
    origin,
    cookie,
    '/api/reports/brokers?fromDate=1900-01-01&toDate=2100-12-31&pageSize=100',
  );
  const brokers = await getJson<{ rows: { id: string; name: string }[] }>(
    origin,
    cookie,
    '/api/brokers?pageSize=100',
  );
  const counts = new Map<string, number>();
  for (const row of newest.rows)
    if (row.brokerName) counts.set(row.brokerName, (counts.get(row.brokerName) ?? 0) + 1);
  const busiest = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const options = await getJson<{ projects: { id: string }[] }>(
    origin,
    cookie,
    '/api/reservations/form-options',
  );
  return {
    paymentMonth: payment.months[0]?.slice(0, 7) ?? null,
    projectionMonth: projection.months[0]?.slice(0, 7) ?? null,
    brokerId: brokers.rows.find((broker) => broker.name === busiest)?.id ?? brokers.rows[0]?.id ?? null,
    projectId: options.projects[0]?.id ?? null,
  };
}

const EVERY_DATE = 'fromDate=1900-01-01&toDate=2100-12-31';

/** The report pages to measure (in `bench/run.ts`'s shape). */
export function reportEndpoints(targets: ReportTargets | null) {
  const none = '00000000-0000-4000-8000-000000000000';
  const month = (value: string | null | undefined) => value ?? '1990-01';
  return [
    {
      key: 'reportCommissions',
      label: 'report: commissions (newest month)',
      method: 'GET' as const,
      path: `/api/reports/commissions?kind=payment&month=${month(targets?.paymentMonth)}`,
      target: 100,
    },
    {
      key: 'reportCommissionsByNet',
      label: 'report: projection by net amount',
      method: 'GET' as const,
      path: `/api/reports/commissions?kind=projection&month=${month(targets?.projectionMonth)}&sort=netAmount&direction=desc`,
      target: 100,
    },
    {
      key: 'reportBrokers',
      label: 'report: brokers (one broker)',
      method: 'GET' as const,
      path: `/api/reports/brokers?brokerId=${targets?.brokerId ?? none}`,
      target: 100,
    },
    {
      key: 'reportBrokersAllDates',
      label: 'report: brokers (every date)',
      method: 'GET' as const,
      path: `/api/reports/brokers?${EVERY_DATE}`,
      target: 100,
    },
    {
      key: 'reportSales',
      label: 'report: sales (one project)',
      method: 'GET' as const,
      path: `/api/reports/sales?projectId=${targets?.projectId ?? none}`,
      target: 100,
    },
    {
      key: 'reportSalesAllDates',
      label: 'report: sales (every date, with the cards)',
      method: 'GET' as const,
      path: `/api/reports/sales?${EVERY_DATE}`,
      target: 100,
    },
    {
      key: 'reportBrokerPayments',
      label: 'report: broker payments',
      method: 'GET' as const,
      path: '/api/reports/broker-payments',
      target: 100,
    },
    {
      key: 'reportConsolidated',
      label: 'report: broker consolidated',
      method: 'GET' as const,
      path: `/api/reports/broker-consolidated?brokerId=${targets?.brokerId ?? none}`,
      target: 100,
    },
  ];
}

export interface ExportMeasurement {
  format: 'csv' | 'xlsx';
  path: string;
  httpStatus: number;
  bytes: number;
  /** Data rows (CSV: lines but the header and the totals). */
  rows: number | null;
  /** The whole download, first request byte to last response byte. */
  totalMs: number;
  /** The longest /api/health round trip while the export ran (the event loop's longest stall, at most). */
  longestHealthMs: number;
  healthPolls: number;
}

/** Downloads one export while polling /api/health, and measures both. */
async function measureExport(
  origin: string,
  cookie: string,
  format: 'csv' | 'xlsx',
): Promise<ExportMeasurement> {
  const path = `/api/reports/sales/export?${EVERY_DATE}&format=${format}`;
  let running = true;
  let longest = 0;
  let polls = 0;
  const poller = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${origin}/api/health`);
      await response.arrayBuffer();
      longest = Math.max(longest, performance.now() - started);
      polls += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${origin}${path}`, { headers: { cookie, origin } });
  const body = Buffer.from(await response.arrayBuffer());
  const totalMs = performance.now() - started;
  running = false;
  await poller;
  const rows = format === 'csv' ? body.toString('utf8').trim().split('\r\n').length - 2 : null;
  return {
    format,
    path,
    httpStatus: response.status,
    bytes: body.length,
    rows,
    totalMs: Math.round(totalMs),
    longestHealthMs: Math.round(longest),
    healthPolls: polls,
  };
}

/** The CSV and the XLSX of every reservation, one after the other; null before issue 16. */
export async function measureExports(origin: string, cookie: string): Promise<ExportMeasurement[] | null> {
  const probe = await fetch(`${origin}/api/reports/sales/export?${EVERY_DATE}&format=nope`, {
    headers: { cookie, origin },
  });
  await probe.arrayBuffer();
  if (probe.status === 404) return null;
  return [await measureExport(origin, cookie, 'csv'), await measureExport(origin, cookie, 'xlsx')];
}
