// `npm run bench`: the production server against a large generated dataset, measured with autocannon.
//
// 1. Dataset: 100,000 reservations and clients with their flows (scripts/demo-data.ts, scale 'bench')
//    on the embedded database in .tmp/bench-data and, when PostgreSQL answers, on PostgreSQL too
//    (DATABASE_URL, or the database `inmoflujo_bench` of the local server, created as needed). Each
//    is reused while its marker matches the generator's version, scale and seed. Both engines are
//    measured in turn and reported side by side.
// 2. Builds if needed, starts `node dist/server/main.js` as a child process, signs in.
// 3. Runs autocannon on each endpoint in turn (warm-up, then the measured run) and prints p50, p99,
//    requests per second and their ratio to the /api/health baseline, against the targets of
//    DESIGN.md §6; endpoints that answer 404 (not built yet) are reported as not available.
//    Issue 33's state the generator does not make is added to the dataset, once (bench/pesos.ts,
//    bench/payment-batch.ts): a year of UF values with the paid payments' pesos frozen, and 500
//    payments ready for a 'Nómina de pago'; the batch is built and exported through the API, and
//    once the server has stopped each pesos report's export chunk is timed with and without its CLP
//    columns, in-process.
// 4. Adds the initial JavaScript of the built client (gzip) and writes everything to
//    bench/results/<timestamp>.json.
//
// 5. The hostile section (bench/hostile.ts, issue 52): every hostile file at its doors and every heavy
//    click, with the longest /api/health wait and the server's RSS growth; alone: `npx tsx bench/hostile.ts`.
//
// Knobs (environment): BENCH_DURATION (s, default 10), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (10),
// BENCH_SCALE (bench; 'demo' for a quick try), BENCH_SEED, BENCH_DATA_DIR (.tmp/bench-data),
// BENCH_REGENERATE=1 (generate again even if the marker matches), DATABASE_URL, BENCH_ENGINES
// (pglite,postgres by default; one of them to measure only that engine).
import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import autocannon, { type RequestSpec } from 'autocannon';
import { sql } from 'drizzle-orm';
import {
  type Baseline,
  cell,
  compareToBaseline,
  emptyBaseline,
  formatBaseline,
  formatComparison,
  parseBaseline,
  REGRESSION_RATIO,
  updatedBaseline,
} from '../scripts/bench-baseline';
import { buildIfNeeded } from '../scripts/build-if-needed.mjs';
import {
  COMMON_APARTMENT,
  COMMON_SURNAME,
  DEMO_EMAIL_DOMAIN,
  DEMO_PASSWORD,
  GENERATOR_VERSION,
  generateDataset,
  isEmpty,
  pendingTaskCounts,
  SCALES,
  type ScaleName,
} from '../scripts/demo-data';
import { INITIAL_JS_BUDGET_KB, initialJavaScript } from '../scripts/initial-js.mjs';
import { preparePesosData } from '../scripts/pesos-data';
import { freePort, login, startServer, stopServer } from '../scripts/server-process';
import { openDatabase, postgresPool, queryRows } from '../src/server/db/client';
import { santiagoDateOf } from '../src/shared/format';
import { type ApprovalTargets, approvalEndpoints, approvalTargets } from './approvals';
import { type AuditTargets, auditEndpoints, auditTargets } from './audit';
import { authorityEndpoints, measureVerifications } from './authority';
import { measureBackup } from './backups';
import {
  type BuyerAccountTargets,
  buyerAccountEndpoints,
  buyerAccountTargets,
  prepareBuyerPlans,
} from './buyer-accounts';
import {
  type DataRequestTargets,
  dataRequestEndpoints,
  measureScrub,
  measureSuppressions,
  prepareDataRequestTargets,
} from './data-requests';
import { type DocumentMeasurement, measureDocuments } from './documents';
import { type HostileStep, measureHostile } from './hostile';
import { benchImports, type ImportBenchResult } from './imports';
import { type ListTargets, listEndpoints, listTargets } from './lists';
import { notificationEndpoints } from './notifications';
import {
  BATCH_PAYMENTS,
  BATCH_TARGET_MS,
  type BatchMeasurement,
  measurePaymentBatch,
  type PaymentBatchTargets,
  paymentBatchEndpoints,
  paymentBatchTargets,
  preparePaymentBatch,
} from './payment-batch';
import { type PaymentTargets, paymentEndpoints, paymentTargets } from './payments';
import { measurePesos, PESOS_RATIO_TARGET, type PesosComparison, pesosEndpoints } from './pesos';
import { quoteEndpoints } from './quotes';
import {
  type ExportMeasurement,
  measureExports,
  type ReportTargets,
  reportEndpoints,
  reportTargets,
} from './reports';
import { type SaleFlowTargets, saleFlowEndpoints, saleFlowTargets } from './sale-flows';
import { type StockTargets, stockEndpoints, stockTargets } from './stock';

const config = {
  scale: (process.env.BENCH_SCALE ?? 'bench') as ScaleName,
  seed: Number(process.env.BENCH_SEED ?? 20_260_101),
  dataDir: process.env.BENCH_DATA_DIR ?? '.tmp/bench-data',
  databaseUrl: process.env.DATABASE_URL || undefined,
  engines: (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',').map((engine) => engine.trim()),
  duration: Number(process.env.BENCH_DURATION ?? 10),
  warmup: Number(process.env.BENCH_WARMUP ?? 2),
  /** Latency (p50/p99, judged against the targets) is measured with this many connections... */
  latencyConnections: Number(process.env.BENCH_LATENCY_CONNECTIONS ?? 1),
  /** ...and throughput (req/s, and p99 under load) with this many. */
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  regenerate: process.env.BENCH_REGENERATE === '1',
  /** `npm run bench -- --update-baseline`: this run's figures become the baseline (issue 61). */
  updateBaseline: process.argv.includes('--update-baseline'),
  /** Measure only the endpoints whose key or label contains one of these words (the baseline always). */
  only: (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((word) => word.trim().toLowerCase())
    .filter(Boolean),
};

function isSelected(endpoint: { key: string; label: string }): boolean {
  if (config.only.length === 0 || endpoint.key === 'health') return true;
  const name = `${endpoint.key} ${endpoint.label}`.toLowerCase();
  return config.only.some((word) => name.includes(word));
}
if (!(config.scale in SCALES))
  throw new Error(`BENCH_SCALE must be one of ${Object.keys(SCALES).join(', ')}`);

const ADMIN_EMAIL = `camila.fuentes@${DEMO_EMAIL_DOMAIN}`;
/** Every endpoint's p50 and p99 per engine, committed; each run is compared with it (issue 61). */
const BASELINE_FILE = 'bench/baseline.json';
const committedBaseline: Baseline = existsSync(BASELINE_FILE)
  ? parseBaseline(readFileSync(BASELINE_FILE, 'utf8'))
  : emptyBaseline();

/** Where one engine's dataset lives: the embedded database's folder, or a PostgreSQL URL. */
interface Target {
  engine: 'pglite' | 'postgres';
  databaseUrl?: string;
}

interface DatasetInfo {
  engine: 'pglite' | 'postgres';
  reused: boolean;
  generationSeconds: number | null;
  rows: Record<string, number>;
  badgeUser: { email: string; pendingTasks: number };
  maxPendingTasksPerUser: number;
  /** Issue 27: the holder with 50 reservations, and holders a suppression accepts. */
  dataRequests: DataRequestTargets | null;
  /** Issue 60: a reservation with a plan, and its project. */
  buyerAccounts: BuyerAccountTargets | null;
}

// ---------------------------------------------------------------------------------------------
// Dataset

interface Marker {
  generatorVersion: number;
  scale: ScaleName;
  seed: number;
  generatedAt?: string;
  generationSeconds?: number;
}

function markerMatches(path: string): Marker | null {
  if (!existsSync(path)) return null;
  try {
    const marker = JSON.parse(readFileSync(path, 'utf8')) as Marker;
    const same =
      marker.generatorVersion === GENERATOR_VERSION &&
      marker.scale === config.scale &&
      marker.seed === config.seed;
    return same ? marker : null;
  } catch {
    return null;
  }
}

async function prepareDataset(target: Target): Promise<DatasetInfo> {
  const markerPath =
    target.engine === 'pglite' ? join(config.dataDir, 'bench-dataset.json') : '.tmp/bench-postgres.json';
  let reused = true;
  let generationSeconds: number | null = null;
  if (target.engine === 'postgres') {
    const marker = config.regenerate ? null : markerMatches(markerPath);
    if (marker) generationSeconds = marker.generationSeconds ?? null;
    else if (!config.databaseUrl) {
      // Our own benchmark database: made afresh whenever the generator changed.
      await recreateDatabase(target.databaseUrl!);
      reused = false;
    } else reused = false;
  } else {
    const marker = config.regenerate ? null : markerMatches(markerPath);
    if (marker) {
      console.log(
        `Reusing the '${config.scale}' dataset in ${config.dataDir} (generated ${marker.generatedAt}).`,
      );
      generationSeconds = marker.generationSeconds ?? null;
    } else {
      rmSync(config.dataDir, { recursive: true, force: true });
      reused = false;
    }
  }

  const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    if (!reused && target.engine === 'postgres' && !(await isEmpty(database.db))) {
      console.log('DATABASE_URL already holds data: benchmarking it as it is.');
    } else if (!reused || (await isEmpty(database.db))) {
      reused = false;
      console.log(
        `Generating the '${config.scale}' dataset (seed ${config.seed}) on ${target.engine === 'postgres' ? 'PostgreSQL' : `the embedded database in ${config.dataDir}`}...`,
      );
      const summary = await generateDataset(database.db, {
        scale: config.scale,
        seed: config.seed,
        log: console.log,
      });
      generationSeconds = Math.round(summary.millis / 100) / 10;
      console.log(`Generated in ${generationSeconds} s.`);
      {
        const marker: Marker = {
          generatorVersion: GENERATOR_VERSION,
          scale: config.scale,
          seed: config.seed,
          generatedAt: new Date().toISOString(),
          generationSeconds,
        };
        // A fresh checkout has no .tmp yet: the marker's folder is made with it.
        mkdirSync(dirname(markerPath), { recursive: true });
        writeFileSync(markerPath, `${JSON.stringify({ ...marker, counts: summary.counts }, null, 2)}\n`);
      }
    }
    // Issue 33's state the generator does not make: a year of UF values with the paid payments'
    // pesos frozen, and payments ready for a 'Nómina de pago' (each only what is missing).
    const now = new Date();
    await preparePesosData(database.db, santiagoDateOf(now));
    const batch = await preparePaymentBatch(database.db, now);
    const plans = await prepareBuyerPlans(database.db, santiagoDateOf(now));
    console.log(
      `Buyer accounts: ${plans} plans made now (one per reservation with a reserva, promesa or pie).`,
    );
    console.log(
      `Pesos: UF values around today; payment batch: ${batch.payable} payments payable (${batch.driven} driven to 'Fecha de Pago', ${batch.invoiced} invoiced now).`,
    );
    const [rows] = await queryRows<Record<string, number>>(
      database.db,
      sql`select (select count(*) from reservations)::int as reservations,
                 (select count(*) from clients)::int as clients,
                 (select count(*) from brokers)::int as brokers,
                 (select count(*) from broker_commissions)::int as commissions,
                 (select count(*) from flows)::int as flows,
                 (select count(*) from flow_tasks)::int as flow_tasks,
                 (select count(*) from flow_task_assignees)::int as flow_task_assignees,
                 (select count(*) from units where kind = 'apartment')::int as apartments,
                 (select count(*) from units where kind <> 'apartment')::int as parking_and_storage,
                 (select count(*) from uf_values)::int as uf_values`,
    );
    const pending = await pendingTaskCounts(database.db);
    const dataRequests = await prepareDataRequestTargets(database.db);
    const buyerAccounts = await buyerAccountTargets(database.db);
    const top = pending[0];
    if (!top) throw new Error('No user has pending tasks: the badge cannot be measured');
    return {
      engine: database.kind,
      reused,
      generationSeconds,
      rows: rows!,
      badgeUser: { email: top.email, pendingTasks: top.count },
      maxPendingTasksPerUser: top.count,
      dataRequests,
      buyerAccounts,
    };
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Server

/** Drops and creates the database of a PostgreSQL URL (through the server's `postgres` database). */
async function recreateDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const pool = postgresPool(admin.toString());
  try {
    await pool.query(`drop database if exists "${name}" with (force)`);
    await pool.query(`create database "${name}"`);
  } finally {
    await pool.end();
  }
}

/** PostgreSQL to measure: DATABASE_URL, or the local server's benchmark database when it answers. */
async function postgresTarget(): Promise<Target | null> {
  if (config.databaseUrl) return { engine: 'postgres', databaseUrl: config.databaseUrl };
  const answers = await new Promise<boolean>((resolve) => {
    const socket = connect(5432, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
  return answers
    ? { engine: 'postgres', databaseUrl: 'postgres://postgres@127.0.0.1:5432/inmoflujo_bench' }
    : null;
}

// ---------------------------------------------------------------------------------------------
// Measurements

interface Endpoint {
  key: string;
  label: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  /** p99 target in ms (DESIGN.md §6), if any. */
  target?: number;
  as?: 'admin' | 'badge' | 'anonymous';
  body?: string;
  /**
   * Several requests each connection sends in turn (a write that alternates between two states); a
   * versioned write builds each request from what its connection read last (`setupRequest`,
   * `onResponse`).
   */
  requests?: RequestSpec[];
  /** Held around the measurement (open event streams): resolves with what releases it. */
  hold?: (origin: string, cookies: Record<string, string>) => Promise<() => Promise<void>>;
}

interface Measurement {
  key: string;
  label: string;
  path: string;
  status: 'ok' | 'not available' | 'error';
  /** 0 when no answer came (the server died or the connection failed: see `error`). */
  httpStatus: number;
  /** Why the endpoint could not be measured, when no HTTP status says it. */
  error?: string;
  /** Latency with `latencyConnections` (one request at a time by default). */
  p50?: number;
  p99?: number;
  /** p99 under load, with `connections` at once: mostly queueing on the one database thread. */
  loadedP99?: number;
  requestsPerSecond?: number;
  requests?: number;
  non2xx?: number;
  errors?: number;
  target?: number;
  met?: boolean;
  p99Ratio?: number;
  throughputRatio?: number;
  /** A comparison (issue 33's pesos): p50 is the measured statement's median, this the other's. */
  comparedMs?: number;
  /** p50 / comparedMs, judged against `ratioTarget`. */
  ratio?: number;
  ratioTarget?: number;
  /** p50 / the baseline's p50 on this engine (issue 61), and whether that is flagged (> 1.5×). */
  baselineRatio?: number;
  regressed?: boolean;
}

function endpoints(
  badgeEmail: string,
  saleFlow: SaleFlowTargets | null,
  payment: PaymentTargets | null,
  lists: ListTargets,
  approval: ApprovalTargets | null,
  report: ReportTargets | null,
  audit: AuditTargets,
  dataRequests: DataRequestTargets | null,
  stock: StockTargets | null = null,
  batch: PaymentBatchTargets | null = null,
  buyerAccounts: BuyerAccountTargets | null = null,
): Endpoint[] {
  return [
    { key: 'health', label: 'health (baseline)', method: 'GET', path: '/api/health', as: 'anonymous' },
    {
      key: 'login',
      label: 'login',
      method: 'POST',
      path: '/api/auth/login',
      as: 'anonymous',
      body: JSON.stringify({ email: badgeEmail, password: DEMO_PASSWORD }),
    },
    {
      key: 'clients',
      label: 'client list',
      method: 'GET',
      path: '/api/clients?page=1&pageSize=25',
      target: 25,
    },
    {
      key: 'clientSearch',
      label: 'client search',
      method: 'GET',
      path: `/api/clients?search=${encodeURIComponent(COMMON_SURNAME)}`,
      target: 25,
    },
    {
      key: 'reservations',
      label: 'reservation list',
      method: 'GET',
      path: '/api/reservations?page=1&pageSize=25',
      target: 25,
    },
    // The lists' orders and filters (issue 10): a project by client, a month by number, by name, a KAM's.
    ...listEndpoints(lists),
    // Flujo de Reservas (issue 12): the list searched by a common surname, a flow, a task status change.
    ...saleFlowEndpoints(saleFlow),
    // Pagos (issue 13): the list searched by apartment, a payment flow, a task completion.
    ...paymentEndpoints(payment),
    // Aprobaciones (issue 15): the user's open approvals, the chain's counts, an approval's detail.
    ...approvalEndpoints(approval),
    ...dataRequestEndpoints(dataRequests),
    // Informes (issue 16): every report's page at scale.
    ...reportEndpoints(report),
    // Auditoría (issue 17): a client edit (one log row per write), a record's Historial, the log.
    ...auditEndpoints(audit),
    { key: 'dashboard', label: 'dashboard', method: 'GET', path: '/api/dashboard', target: 100 },
    {
      key: 'searchApartment',
      label: 'global search (apartment)',
      method: 'GET',
      path: `/api/search?q=${COMMON_APARTMENT}`,
      target: 25,
    },
    {
      key: 'searchSurname',
      label: 'global search (surname)',
      method: 'GET',
      path: `/api/search?q=${encodeURIComponent(COMMON_SURNAME)}`,
      target: 25,
    },
    // Configuración (issue 11): small tables, searched without an index (decision in settings queries).
    {
      key: 'settingsProjects',
      label: 'settings: projects',
      method: 'GET',
      path: '/api/settings/projects',
      target: 25,
    },
    {
      key: 'settingsUsers',
      label: 'settings: user search',
      method: 'GET',
      path: '/api/settings/users?search=a',
      target: 25,
    },
    {
      key: 'settingsSaleFlow',
      label: 'settings: sale flow',
      method: 'GET',
      path: '/api/settings/sale-flow',
      target: 25,
    },
    {
      key: 'badge',
      label: 'badge count',
      method: 'GET',
      path: '/api/notifications/count',
      target: 15,
      as: 'badge',
    },
    ...notificationEndpoints(),
    // Cotizaciones (issue 59): a quote created, the list and its search (before stock takes the units).
    ...quoteEndpoints(stock),
    // Stock (issue 31): the grid, the picker, units in the global search, a reservation with a unit.
    ...stockEndpoints(stock),
    // Pesos (issue 33): Valores UF's month, a payment flow's invoices.
    ...pesosEndpoints(),
    ...paymentBatchEndpoints(batch),
    // Who may do what (issue 56): the Permisos tab and a grant; the gate itself is on every route above.
    ...authorityEndpoints(),
    // The buyer's account (issue 60): a reservation's account, 'Cuotas vencidas' (whole, one project).
    ...buyerAccountEndpoints(buyerAccounts),
  ];
}

async function measure(
  origin: string,
  endpoint: Endpoint,
  cookies: Record<string, string>,
): Promise<Measurement> {
  const headers: Record<string, string> = { origin };
  const as = endpoint.as ?? 'admin';
  if (as !== 'anonymous') headers.cookie = cookies[as]!;
  if (endpoint.body) headers['content-type'] = 'application/json';
  const url = `${origin}${endpoint.path}`;
  const base = { key: endpoint.key, label: endpoint.label, path: endpoint.path, target: endpoint.target };

  const probe = await fetch(url, { method: endpoint.method, headers, body: endpoint.body });
  await probe.arrayBuffer();
  if (probe.status === 404) return { ...base, status: 'not available', httpStatus: 404 };
  if (!probe.ok) return { ...base, status: 'error', httpStatus: probe.status };

  const options = {
    url: endpoint.requests ? origin : url,
    method: endpoint.method,
    headers,
    body: endpoint.body,
    ...(endpoint.requests ? { requests: endpoint.requests } : {}),
  };
  if (config.warmup > 0) {
    await autocannon({ ...options, connections: config.connections, duration: config.warmup });
    // autocannon ends the warm-up without waiting for the answers in flight, and the server still
    // works through them: on the embedded database, which runs one statement at a time, the latency
    // run's first request then waited behind up to nine of them (a p99 ten times the p50 on every slow
    // endpoint, issue 61). One request of our own, answered, comes after them all.
    // Its own answer does not matter (a heavy download may be refused while the warm-up's hold it).
    await fetch(url, { method: endpoint.method, headers, body: endpoint.body })
      .then((drained) => drained.arrayBuffer())
      .catch(() => undefined);
  }
  // The embedded database runs one statement at a time: with N connections a request waits for the
  // N - 1 before it, so latency is judged one request at a time and throughput under load.
  const latency = await autocannon({
    ...options,
    connections: config.latencyConnections,
    duration: config.duration,
  });
  const load = await autocannon({ ...options, connections: config.connections, duration: config.duration });
  // Not one answer within the run (each slower than it): autocannon then reports a p99 of 0, which
  // must not read as a target met.
  if (latency.requests.total === 0)
    return {
      ...base,
      status: 'error',
      httpStatus: probe.status,
      error: `no answer within ${config.duration} s at ${config.latencyConnections} connection(s); at ${config.connections}: p99 ${load.latency.p99} ms, ${load.requests.total} answers`,
      ...(endpoint.target === undefined ? {} : { met: false }),
    };
  return {
    ...base,
    status: 'ok',
    httpStatus: probe.status,
    p50: latency.latency.p50,
    p99: latency.latency.p99,
    loadedP99: load.latency.p99,
    requestsPerSecond: Math.round(load.requests.average * 10) / 10,
    requests: latency.requests.total + load.requests.total,
    non2xx: latency.non2xx + load.non2xx,
    errors: latency.errors + latency.timeouts + load.errors + load.timeouts,
    met: endpoint.target === undefined ? undefined : latency.latency.p99 <= endpoint.target,
  };
}

/** An endpoint measured, or reported as an error when measuring it threw (a dead server, a reset). */
async function measureOrReport(endpoint: Endpoint, run: () => Promise<Measurement>): Promise<Measurement> {
  try {
    return await run();
  } catch (error) {
    const cause =
      error instanceof Error
        ? error.cause instanceof Error
          ? error.cause.message
          : error.message
        : String(error);
    return {
      key: endpoint.key,
      label: endpoint.label,
      path: endpoint.path,
      ...(endpoint.target === undefined ? {} : { target: endpoint.target, met: false }),
      status: 'error',
      httpStatus: 0,
      error: cause,
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Report

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

function printTable(results: Measurement[], initialJs: { gzipBytes: number }): void {
  const rows = results.map((r) => {
    if (r.status !== 'ok')
      return [
        r.label,
        r.path,
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        r.target ? `≤ ${r.target}` : '',
        r.status === 'error'
          ? r.httpStatus
            ? `error ${r.httpStatus}`
            : `error: ${r.error}`
          : 'not available',
      ];
    const verdict =
      (r.ratio === undefined
        ? ''
        : `×${r.ratio.toFixed(3)} of ${r.comparedMs} ms (≤ ×${r.ratioTarget?.toFixed(2)}) `) +
      (r.met === undefined ? '' : r.met ? 'met' : 'MISSED');
    const flags = r.non2xx || r.errors ? ` (${r.non2xx} non-2xx, ${r.errors} errors)` : '';
    return [
      r.label,
      r.path,
      String(r.p50),
      String(r.p99),
      cell(r.loadedP99),
      cell(r.requestsPerSecond),
      r.p99Ratio === undefined ? '' : `${r.p99Ratio.toFixed(1)}×`,
      r.throughputRatio === undefined ? '—' : `${(r.throughputRatio * 100).toFixed(0)} %`,
      formatComparison({ ratio: r.baselineRatio, regressed: r.regressed ?? false }),
      r.target ? `≤ ${r.target}` : '',
      verdict + flags,
    ];
  });
  const header = [
    'endpoint',
    'path',
    'p50 ms',
    'p99 ms',
    `p99 @${config.connections}`,
    `req/s @${config.connections}`,
    'p99 / base',
    'req/s / base',
    'p50 / baseline',
    'p99 target',
    'result',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const numeric = new Set([2, 3, 4, 5, 6, 7, 8]);
  const line = (cells: string[]) => cells.map((cell, i) => pad(cell, widths[i]!, numeric.has(i))).join('  ');
  console.log(`\n${line(header)}`);
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  const kb = initialJs.gzipBytes / 1000;
  console.log(
    `\nInitial JavaScript (entry + modulepreloads, gzip -9): ${kb.toFixed(1)} KB (budget ${INITIAL_JS_BUDGET_KB} KB: ${kb <= INITIAL_JS_BUDGET_KB ? 'met' : 'MISSED'})`,
  );
}

// ---------------------------------------------------------------------------------------------

/** An export's two lines of the table: the whole download (CSV target 3 s) and the longest stall (100 ms). */
function exportResults(exported: ExportMeasurement): Measurement[] {
  const base = {
    path: exported.path,
    status: exported.httpStatus === 200 ? ('ok' as const) : ('error' as const),
  };
  const total = exported.format === 'csv' ? 3000 : undefined;
  return [
    {
      ...base,
      key: `export${exported.format}`,
      label: `export ${exported.format.toUpperCase()} of every reservation (whole download)`,
      httpStatus: exported.httpStatus,
      p50: exported.totalMs,
      p99: exported.totalMs,
      target: total,
      met: total === undefined ? undefined : exported.totalMs <= total,
    },
    {
      ...base,
      key: `export${exported.format}Stall`,
      label: `export ${exported.format.toUpperCase()}: longest /api/health wait`,
      httpStatus: exported.httpStatus,
      p50: exported.longestHealthMs,
      p99: exported.longestHealthMs,
      target: 100,
      met: exported.longestHealthMs <= 100,
    },
  ];
}

/** A hostile step: its longest /api/health wait, judged against its target (and its RSS growth). */
function hostileResult(step: HostileStep): Measurement {
  return {
    key: step.key,
    label: `hostile: ${step.label} (longest /api/health wait; RSS +${step.rssGrowthMb ?? '?'} MB; ${JSON.stringify(step.statuses)})`,
    path: '/api/health',
    status: 'ok',
    httpStatus: 200,
    p50: step.longestHealthMs,
    p99: step.longestHealthMs,
    target: step.healthTargetMs,
    met: step.met,
  };
}

function documentResults(documents: DocumentMeasurement): Measurement[] {
  const path = '/api/reservations/:id/documents';
  return [
    {
      key: 'documentUpload',
      label: 'documents: 20 MB upload (whole request)',
      path,
      status: documents.uploadStatus === 201 && documents.identical ? 'ok' : 'error',
      httpStatus: documents.uploadStatus,
      p50: documents.uploadMs,
      p99: documents.uploadMs,
    },
    {
      key: 'documentUploadRss',
      label: "documents: the server's RSS growth during a 20 MB upload (MB)",
      path,
      status: documents.uploadStatus === 201 ? 'ok' : 'error',
      httpStatus: documents.uploadStatus,
      p50: documents.rssGrowthMb,
      p99: documents.rssGrowthMb,
      target: 50,
      met: documents.rssGrowthMb <= 50,
    },
    {
      key: 'receiptPdf',
      label: `documents: receipt PDF (one at a time, ${documents.receiptRequests} requests)`,
      path: '/api/reservations/:id/receipt.pdf',
      status: documents.receiptStatus === 200 ? 'ok' : 'error',
      httpStatus: documents.receiptStatus,
      p50: documents.receiptP50,
      p99: documents.receiptP99,
      target: 300,
      met: documents.receiptP99 <= 300,
    },
  ];
}

function backupResults(backup: Awaited<ReturnType<typeof measureBackup>> & object): Measurement[] {
  const base = { path: '/api/backups', httpStatus: backup.httpStatus };
  const ok = backup.httpStatus === 201 ? ('ok' as const) : ('error' as const);
  return [
    {
      ...base,
      key: 'backup',
      label: `backup of the database (${(backup.bytes / 1e6).toFixed(1)} MB file)`,
      status: ok,
      p50: backup.totalMs,
      p99: backup.totalMs,
    },
    {
      ...base,
      key: 'backupStall',
      label: 'backup: longest /api/health wait',
      status: ok,
      p50: backup.longestHealthMs,
      p99: backup.longestHealthMs,
      target: 100,
      met: backup.longestHealthMs <= 100,
    },
    {
      ...base,
      key: 'restore',
      label: 'restore of that backup (npm run restore: checks, unpack, recovery, counts)',
      status: backup.restoreMs === null ? ('error' as const) : ('ok' as const),
      p50: backup.restoreMs ?? undefined,
      p99: backup.restoreMs ?? undefined,
    },
  ];
}

/** The batch's line (target: built and exported ≤ 1 s, judged on the slowest run) and its parts. */
function batchResults(batch: BatchMeasurement): Measurement[] {
  const base = { path: '/api/payment-batches', status: 'ok' as const, httpStatus: batch.httpStatus };
  const part = (key: string, label: string, ms: number): Measurement => ({
    ...base,
    key,
    label: `payment batch: ${label}`,
    p50: ms,
    p99: ms,
  });
  return [
    {
      ...base,
      key: 'paymentBatch',
      label: `payment batch of ${batch.payments} (of ${BATCH_PAYMENTS}) built and exported (median, slowest of ${batch.runs})`,
      p50: batch.totalMs,
      p99: batch.slowestMs,
      target: BATCH_TARGET_MS,
      met: batch.payments >= BATCH_PAYMENTS && batch.slowestMs <= BATCH_TARGET_MS,
    },
    part('paymentBatchList', 'payments ready (list)', batch.listMs),
    part('paymentBatchCreate', 'batch made (checks + save)', batch.createMs),
    part('paymentBatchCsv', 'CSV download', batch.csvMs),
    part('paymentBatchXlsx', 'XLSX download', batch.xlsxMs),
  ];
}

/** A report's export chunk with its CLP columns, against the same without (≤ 10 % slower). */
function pesosResult(compared: PesosComparison): Measurement {
  return {
    key: compared.key,
    label: `pesos: ${compared.label}, chunk of ${compared.rows} with CLP vs without (medians of ${compared.runs})`,
    path: '(in-process, reports.queries)',
    status: 'ok',
    httpStatus: 200,
    p50: compared.withMs,
    p99: compared.withMs,
    comparedMs: compared.withoutMs,
    ratio: compared.ratio,
    ratioTarget: PESOS_RATIO_TARGET,
    met: compared.ratio <= PESOS_RATIO_TARGET,
  };
}

/** One engine: its dataset, the production server on it, every endpoint measured. */
async function measureEngine(target: Target): Promise<{ dataset: DatasetInfo; results: Measurement[] }> {
  console.log(`\n━━ ${target.engine === 'pglite' ? 'Embedded database (PGlite)' : 'PostgreSQL'}`);
  const dataset = await prepareDataset(target);
  console.log(
    `Dataset: ${JSON.stringify(dataset.rows)}; badge user ${dataset.badgeUser.email} with ${dataset.badgeUser.pendingTasks} pending tasks (the most of any user).`,
  );
  // The server the endpoints are measured on; started again (on a new port) if it dies during one,
  // which is then reported as an error while the rest are measured (issue 29 §9).
  let server: ChildProcess | undefined;
  let origin = '';
  let cookies: Record<'admin' | 'badge', string> = { admin: '', badge: '' };
  const start = async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    console.log(`Starting the production server on ${origin}...`);
    const serverStart = Date.now();
    // A dataset the build must migrate first (a backup of its gigabytes, then the migrations and
    // the start's statistics) takes minutes before it answers.
    server = await startServer(port, {
      dataDir: config.dataDir,
      databaseUrl: target.databaseUrl,
      readyWithinMs: 20 * 60_000,
    });
    console.log(`Server ready in ${((Date.now() - serverStart) / 1000).toFixed(1)} s.`);
    cookies = {
      admin: await login(origin, ADMIN_EMAIL, DEMO_PASSWORD),
      badge: await login(origin, dataset.badgeUser.email, DEMO_PASSWORD),
    };
  };
  const isDead = () => !server || server.exitCode !== null || server.signalCode !== null;
  // Whatever ends this process, no server is left holding its port.
  const killServer = () => {
    if (!isDead()) server?.kill('SIGKILL');
  };
  process.once('exit', killServer);
  const stop = () => void (server ? stopServer(server) : Promise.resolve()).then(() => process.exit(130));
  process.once('SIGINT', stop);
  const results: Measurement[] = [];
  await start();
  try {
    console.log(
      `Measuring per endpoint: ${config.warmup} s warm-up, then ${config.duration} s with ${config.latencyConnections} connection(s) (latency, judged against the targets) and ${config.duration} s with ${config.connections} (throughput).`,
    );
    const saleFlow = await saleFlowTargets(origin, cookies.admin);
    const payment = await paymentTargets(origin, cookies.admin);
    const lists = await listTargets(origin, cookies.admin);
    const approval = await approvalTargets(origin, cookies.admin);
    const report = await reportTargets(origin, cookies.admin);
    const audit = await auditTargets(origin, cookies.admin, saleFlow?.flowId ?? null);
    const stock = await stockTargets(origin, cookies.admin);
    const batch = await paymentBatchTargets(origin, cookies.admin);
    for (const endpoint of endpoints(
      dataset.badgeUser.email,
      saleFlow,
      payment,
      lists,
      approval,
      report,
      audit,
      dataset.dataRequests,
      stock,
      batch,
      dataset.buyerAccounts,
    )) {
      if (!isSelected(endpoint)) continue;
      const result = await measureOrReport(endpoint, async () => {
        const release = endpoint.hold ? await endpoint.hold(origin, cookies) : null;
        return measure(origin, endpoint, cookies).finally(() => release?.());
      });
      if (isDead()) {
        console.log(`  The server died while measuring ${endpoint.label}: starting it again.`);
        await start();
      }
      const shown =
        result.status === 'ok'
          ? `p50 ${result.p50} ms, p99 ${result.p99} ms; at ${config.connections} connections p99 ${result.loadedP99} ms, ${result.requestsPerSecond} req/s`
          : `${result.status}${result.error ? ` (${result.error})` : ''}`;
      console.log(`  ${endpoint.label}: ${shown}`);
      results.push(result);
    }
    // Issue 27: suppressions, each timed once (irreversible: every run suppresses holders of its own).
    if (isSelected({ key: 'suppression', label: 'suppression' })) {
      const times = await measureSuppressions(origin, cookies.admin, dataset.dataRequests);
      if (times) {
        const median = times[Math.floor(times.length / 2)]!;
        const slowest = times.at(-1)!;
        console.log(`  suppression of a holder (${times.length}, one at a time): ${times.join(', ')} ms`);
        results.push({
          key: 'suppression',
          label: `suppression of a holder (median and slowest of ${times.length})`,
          path: '/api/data-requests/:id/suppress',
          status: 'ok',
          httpStatus: 200,
          p50: median,
          p99: slowest,
          target: 2000,
          met: slowest <= 2000,
        });
      }
    }
    // Issue 54: the scrub those suppressions left pending, at scale, with other users' longest wait.
    if (target.engine === 'pglite' && isSelected({ key: 'scrub', label: 'scrub' })) {
      const scrub = await measureScrub(origin, cookies.admin);
      if (scrub) {
        console.log(
          `  scrub after the suppressions: backup with the scrub ${scrub.backupWithScrubMs} ms, alone ${scrub.backupAloneMs} ms, scrub ≈ ${scrub.scrubMs} ms; longest /api/health wait ${scrub.longestHealthMs} ms over ${scrub.healthPolls} polls`,
        );
        results.push(
          {
            key: 'scrub',
            label: 'scrub of the suppressions (a backup with it minus one without)',
            path: 'POST /api/backups',
            status: 'ok',
            httpStatus: 201,
            p50: scrub.scrubMs,
            p99: scrub.backupWithScrubMs,
            target: 60_000,
            met: scrub.scrubMs <= 60_000,
          },
          {
            key: 'scrubHealth',
            label: 'longest /api/health wait during the scrub and its backup',
            path: '/api/health',
            status: 'ok',
            httpStatus: 200,
            p50: scrub.longestHealthMs,
            p99: scrub.longestHealthMs,
            target: 1000,
            met: scrub.longestHealthMs <= 1000,
          },
        );
      }
    }
    // Bank data (issues 53, 56): a broker's account changed and verified by a second person, pair by pair.
    if (isSelected({ key: 'bankVerify', label: 'bank verification' })) {
      const times = await measureVerifications(origin, cookies.admin);
      if (times) {
        const median = (values: number[]) => values[Math.floor(values.length / 2)]!;
        console.log(
          `  bank account change and verification (${times.pairs} pairs, one at a time): change ${times.changes.join(', ')} ms; verification ${times.verifications.join(', ')} ms`,
        );
        results.push(
          {
            key: 'bankChange',
            label: `bank account changed (median and slowest of ${times.pairs})`,
            path: 'PUT /api/brokers/:id',
            status: 'ok',
            httpStatus: 200,
            p50: median(times.changes),
            p99: times.changes.at(-1)!,
            target: 100,
            met: times.changes.at(-1)! <= 100,
          },
          {
            key: 'bankVerify',
            label: `bank account verified by a second person (median and slowest of ${times.pairs})`,
            path: 'POST /api/brokers/:id/bank-account/verify',
            status: 'ok',
            httpStatus: 200,
            p50: median(times.verifications),
            p99: times.verifications.at(-1)!,
            target: 100,
            met: times.verifications.at(-1)! <= 100,
          },
        );
      }
    }
    // Nómina de pago (issue 33): a 500-payment batch built and exported through the API.
    if (isSelected({ key: 'paymentBatch', label: 'payment batch' })) {
      const measured = await measurePaymentBatch(origin, cookies.admin);
      if (measured) {
        console.log(
          `  payment batch of ${measured.payments} (${measured.runs} runs, medians): list ${measured.listMs} ms, made ${measured.createMs} ms, CSV ${measured.csvMs} ms, XLSX ${measured.xlsxMs} ms; built and exported ${measured.totalMs} ms (slowest ${measured.slowestMs} ms)`,
        );
        results.push(...batchResults(measured));
      }
    }
    // Informes (issue 16): the CSV and the XLSX of every reservation, /api/health polled meanwhile.
    if (isSelected({ key: 'exports', label: 'exports' })) {
      for (const exported of (await measureExports(origin, cookies.admin)) ?? []) {
        console.log(
          `  export ${exported.format}: ${exported.rows ?? '?'} rows, ${(exported.bytes / 1e6).toFixed(1)} MB in ${exported.totalMs} ms; longest /api/health wait ${exported.longestHealthMs} ms over ${exported.healthPolls} polls`,
        );
        results.push(...exportResults(exported));
      }
    }
    // Respaldos (issue 30): a backup of the embedded database while it serves, then its restore.
    if (target.engine === 'pglite' && isSelected({ key: 'backup', label: 'backup' })) {
      const backup = await measureBackup(origin, cookies.admin, config.dataDir);
      if (backup) {
        console.log(
          `  backup: ${(backup.bytes / 1e6).toFixed(1)} MB (of ${((backup.sourceBytes ?? 0) / 1e6).toFixed(1)} MB) in ${backup.totalMs} ms; longest /api/health wait ${backup.longestHealthMs} ms over ${backup.healthPolls} polls; restore ${backup.restoreMs} ms (${JSON.stringify(backup.restored)})`,
        );
        results.push(...backupResults(backup));
      }
    }
    // Documentos (issue 35): a 20 MB upload with the server's memory sampled, and the receipt PDF.
    const serverPid = server?.pid;
    if (isSelected({ key: 'documents', label: 'documents' }) && serverPid !== undefined) {
      const documents = await measureDocuments(origin, cookies.admin, serverPid);
      if (documents) {
        console.log(
          `  documents: 20 MB upload ${documents.uploadMs} ms (HTTP ${documents.uploadStatus}), download ${documents.downloadMs} ms (identical: ${documents.identical}); server RSS ${documents.rssBeforeMb} MB, +${documents.rssGrowthMb} MB during the upload, +${documents.rssGrowthWithDownloadMb} MB with the download (peak ${documents.rssPeakMb} MB); receipt PDF (${documents.receiptBytes} B) p50 ${documents.receiptP50} ms, p99 ${documents.receiptP99} ms over ${documents.receiptRequests}`,
        );
        results.push(...documentResults(documents));
      }
    }
    // Issue 52: each hostile file at its doors and each heavy click, /api/health polled meanwhile.
    if (isSelected({ key: 'hostile', label: 'hostile' })) {
      for (const step of await measureHostile(origin, cookies.admin, serverPid, target.engine))
        results.push(hostileResult(step));
    }
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('exit', killServer);
    if (server) await stopServer(server);
  }
  // Pesos (issue 33): each report's export chunk with and without its CLP columns, in-process once
  // the server has stopped (the embedded database has one owner).
  if (isSelected({ key: 'pesos', label: 'pesos' })) {
    const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: config.dataDir });
    try {
      for (const compared of await measurePesos(database.db, santiagoDateOf(new Date()))) {
        console.log(
          `  pesos, ${compared.label}: ${compared.rows} rows, with ${compared.withMs} ms, without ${compared.withoutMs} ms, ×${compared.ratio.toFixed(3)} (medians of ${compared.runs})`,
        );
        results.push(pesosResult(compared));
      }
    } finally {
      await database.close();
    }
  }
  const health = results.find((r) => r.key === 'health');
  for (const r of results) {
    if (r.status !== 'ok' || !health?.p99 || !health.requestsPerSecond) continue;
    r.p99Ratio = r.p99! / health.p99;
    // The exports' lines are one download each: no throughput.
    if (r.requestsPerSecond !== undefined) r.throughputRatio = r.requestsPerSecond / health.requestsPerSecond;
  }
  // Issue 61: each p50 against the committed baseline of this engine.
  for (const r of results) {
    const compared = compareToBaseline(committedBaseline, target.engine, r);
    r.baselineRatio = compared.ratio;
    r.regressed = compared.regressed;
  }
  return { dataset, results };
}

/** The engines side by side: p50 / p99 / req/s of each endpoint on each. */
function printComparison(runs: { engine: string; results: Measurement[] }[]): void {
  if (runs.length < 2) return;
  const keys = runs[0]!.results.map((r) => r.key);
  const header = [
    'endpoint',
    ...runs.flatMap((run) => [`${run.engine} p50`, `p99`, `req/s`, 'p50 / baseline']),
  ];
  const rows = keys.map((key) => {
    const label = runs[0]!.results.find((r) => r.key === key)!.label;
    return [
      label,
      ...runs.flatMap((run) => {
        const r = run.results.find((candidate) => candidate.key === key);
        // A one-off row (an export, a backup) has no req/s: '—', not 'undefined'.
        return r?.status === 'ok'
          ? [
              cell(r.p50),
              cell(r.p99),
              cell(r.requestsPerSecond),
              formatComparison({ ratio: r.baselineRatio, regressed: r.regressed ?? false }),
            ]
          : ['', '', '', ''];
      }),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((text, i) => pad(text, widths[i]!, i > 0)).join('  ');
  console.log(`\nSide by side (ms; req/s at ${config.connections} connections)\n${line(header)}`);
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

/** Issue 61: names the endpoints flagged against the baseline, and writes it when asked to. */
function reportBaseline(runs: { engine: string; results: Measurement[] }[]): void {
  const flagged = runs.flatMap((run) =>
    run.results
      .filter((r) => r.regressed)
      .map((r) => {
        const before = committedBaseline.engines[run.engine]?.[r.key];
        return `  ${run.engine}: ${r.label}: p50 ${r.p50} ms, ${r.baselineRatio!.toFixed(2)}× the baseline's ${before?.p50} ms (set at ${before?.commit})`;
      }),
  );
  console.log(
    flagged.length === 0
      ? `\nAgainst the baseline (${BASELINE_FILE}): no p50 grew more than ${REGRESSION_RATIO}×.`
      : `\nAgainst the baseline (${BASELINE_FILE}), p50 grew more than ${REGRESSION_RATIO}×:\n${flagged.join('\n')}`,
  );
  if (!config.updateBaseline) {
    console.log('To make this run the baseline: npm run bench -- --update-baseline');
    return;
  }
  const commit = currentCommit();
  const measuredAt = new Date().toISOString();
  let next = committedBaseline;
  for (const run of runs)
    next = updatedBaseline(next, run.engine, run.results, commit, measuredAt, loadAtStart);
  writeFileSync(BASELINE_FILE, formatBaseline(next));
  console.log(`Baseline updated in ${BASELINE_FILE} with this run's figures (commit ${commit}): commit it.`);
}

/** The short hash of HEAD, with '+' when the worktree holds changes not committed. */
function currentCommit(): string {
  const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const changed = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
    encoding: 'utf8',
  }).trim();
  return changed ? `${hash}+` : hash;
}

/** The one-minute load average as the run began, kept with a baseline's figures. */
const loadAtStart = loadavg()[0];

async function main() {
  const startedAt = new Date();
  buildIfNeeded();
  const initialJs = initialJavaScript();
  const targets: Target[] = [];
  if (config.engines.includes('pglite') && !config.databaseUrl) targets.push({ engine: 'pglite' });
  if (config.engines.includes('postgres')) {
    const postgres = await postgresTarget();
    if (postgres) targets.push(postgres);
    else console.log('PostgreSQL does not answer on 127.0.0.1:5432: measuring the embedded database only.');
  }
  const runs: { engine: string; dataset: DatasetInfo; results: Measurement[] }[] = [];
  for (const target of targets) {
    const run = await measureEngine(target);
    runs.push({ engine: target.engine, ...run });
    console.log(`\n${target.engine}:`);
    printTable(run.results, initialJs);
  }
  printComparison(runs);
  reportBaseline(runs);

  // Imports (issue 32): a fresh database of their own per engine (bench/imports.ts), when asked for
  // or when everything is measured.
  const imports: ImportBenchResult[] = [];
  if (config.only.length === 0 || config.only.includes('import')) {
    for (const target of targets) {
      // PostgreSQL: a database of the imports' own next to the bench's, made afresh.
      let databaseUrl: string | undefined;
      if (target.engine === 'postgres' && target.databaseUrl) {
        const url = new URL(target.databaseUrl);
        url.pathname = `${url.pathname}_import`;
        databaseUrl = url.toString();
        await recreateDatabase(databaseUrl);
      }
      const result = await benchImports({ databaseUrl });
      imports.push(result);
      console.log(
        `\nimports (${result.engine}): ${result.clients.rows} clients ${result.clients.totalSeconds.toFixed(1)} s (+${result.clients.memoryGrowthMb.toFixed(0)} MB); ${result.reservations.rows} reservations dry run ${result.reservations.dryRunSeconds.toFixed(1)} s, apply ${result.reservations.applySeconds.toFixed(1)} s (server CPU ${result.reservations.applyCpuSeconds.toFixed(1)} s); longest /api/health wait ${result.longestHealthWaitMs.toFixed(0)} ms`,
      );
    }
  }

  const report = {
    startedAt: startedAt.toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    },
    config: { ...config, databaseUrl: config.databaseUrl ? '(set)' : undefined },
    initialJs: {
      ...initialJs,
      budgetKb: INITIAL_JS_BUDGET_KB,
      met: initialJs.gzipBytes / 1000 <= INITIAL_JS_BUDGET_KB,
    },
    engines: runs,
    imports,
  };
  mkdirSync('bench/results', { recursive: true });
  const file = join('bench/results', `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Results written to ${file}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
