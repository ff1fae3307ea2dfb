// `npm run lighthouse`: Lighthouse (desktop preset) on the signed-in screens of the production build.
//
// 1. Builds if needed and measures a copy of the build (a rebuild in the same checkout cannot pull
//    the files away mid-run); the demo dataset (scripts/demo-dataset.ts) in its own data directory,
//    so a running `npm run demo` keeps its lock; the production server as a child on a free port.
// 2. Signs in as the demo administrator over the API; every Lighthouse request carries the cookie.
// 3. Runs Lighthouse on each page LIGHTHOUSE_RUNS times (3) in the system Chromium, prints the median
//    performance / accessibility / best-practices scores, LCP and TBT against issue 10's targets,
//    and what failed in the median run; writes everything to bench/results/lighthouse-<time>.json.
// A measurement, never a test: it exits 0 whatever the scores (1 only when it could not measure).
//
// Knobs (environment): LIGHTHOUSE_RUNS (3), LIGHTHOUSE_PAGES (/dashboard,/reservas),
// LIGHTHOUSE_DATA_DIR (.tmp/lighthouse-data), CHROMIUM_PATH (/usr/bin/chromium).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { buildIfNeeded } from './build-if-needed.mjs';
import { DEMO_PASSWORD } from './demo-data';
import { prepareDemoDataset } from './demo-dataset';
import { freePort, login, snapshotBuild, startServer, stopServer } from './server-process';

const config = {
  runs: Number(process.env.LIGHTHOUSE_RUNS ?? 3),
  pages: (process.env.LIGHTHOUSE_PAGES ?? '/dashboard,/reservas').split(',').map((page) => page.trim()),
  dataDir: process.env.LIGHTHOUSE_DATA_DIR ?? '.tmp/lighthouse-data',
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
};

/** Issue 10, item 12. */
const TARGETS = { performance: 95, accessibility: 100, tbtMs: 100 };

// The flags the machine's Chromium needs (see playwright.config.ts): no sandbox as root, and no
// background connections, which this machine's closed network refuses.
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Finding {
  id: string;
  title: string;
  score: number | null;
  displayValue?: string;
  items?: number;
  /** For accessibility failures: the first elements, as Lighthouse describes them. */
  examples?: { selector?: string; snippet?: string; explanation?: string }[];
}

interface Run {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  fcpMs: number;
  clsValue: number;
  /** Audits of the accessibility category that failed. */
  accessibilityFailures: Finding[];
  /** Audits of the best-practices category that failed (a console error, a deprecated API…). */
  bestPracticesFailures: Finding[];
  /** Performance audits and insights that scored below 0.9, with their estimated savings. */
  performanceFindings: Finding[];
  warnings: string[];
  /** The machine's one-minute load average when the run started: a busy machine inflates TBT. */
  loadAverage: number;
}

interface LhrAudit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  numericValue?: number;
  details?: { items?: { node?: { selector?: string; snippet?: string; explanation?: string } }[] };
}

interface Lhr {
  lighthouseVersion: string;
  finalDisplayedUrl: string;
  runtimeError?: { code: string; message: string };
  runWarnings: string[];
  categories: Record<string, { score: number | null; auditRefs: { id: string; group?: string }[] }>;
  audits: Record<string, LhrAudit>;
}

function finding(audit: LhrAudit): Finding {
  return {
    id: audit.id,
    title: audit.title,
    score: audit.score,
    displayValue: audit.displayValue,
    items: audit.details?.items?.length,
    examples: audit.details?.items
      ?.flatMap((item) => (item.node ? [item.node] : []))
      .slice(0, 10)
      .map(({ selector, snippet, explanation }) => ({ selector, snippet, explanation })),
  };
}

function summarise(lhr: Lhr, loadAverage: number): Run {
  const score = (key: string) => Math.round((lhr.categories[key]?.score ?? 0) * 100);
  const audits = lhr.audits;
  const failing = (category: string, below: number) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .map((ref) => audits[ref.id])
      .filter(
        (audit): audit is LhrAudit =>
          !!audit &&
          audit.score !== null &&
          audit.score < below &&
          ['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode),
      )
      .map(finding);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? Number.NaN),
    tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? Number.NaN),
    fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? Number.NaN),
    clsValue: Math.round((audits['cumulative-layout-shift']?.numericValue ?? Number.NaN) * 1000) / 1000,
    accessibilityFailures: failing('accessibility', 1),
    bestPracticesFailures: failing('best-practices', 1),
    performanceFindings: failing('performance', 0.9).filter((audit) => !isMetric(audit.id)),
    warnings: lhr.runWarnings.map(String),
    loadAverage,
  };
}

const METRICS = new Set([
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
]);
function isMetric(id: string): boolean {
  return METRICS.has(id);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Trace failures Lighthouse itself says to run again for (seen on a busy machine). */
const RETRIED = new Set(['NO_FCP', 'NO_NAVSTART', 'NO_LCP', 'PROTOCOL_TIMEOUT']);

async function audit(url: string, port: number, cookie: string): Promise<{ version: string; run: Run }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await auditOnce(url, port, cookie);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 3 || !code || !RETRIED.has(code)) throw error;
      console.log(`  ${new URL(url).pathname}: ${code}, running it again`);
    }
  }
}

async function auditOnce(url: string, port: number, cookie: string): Promise<{ version: string; run: Run }> {
  const load = Math.round(loadavg()[0]! * 10) / 10;
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      extraHeaders: { Cookie: cookie },
    },
    desktopConfig,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const lhr = result.lhr as unknown as Lhr;
  if (lhr.runtimeError)
    throw Object.assign(
      new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`),
      {
        code: lhr.runtimeError.code,
      },
    );
  if (!lhr.finalDisplayedUrl.endsWith(new URL(url).pathname))
    throw new Error(`${url} ended on ${lhr.finalDisplayedUrl}: was the session refused?`);
  return { version: lhr.lighthouseVersion, run: summarise(lhr, load) };
}

function verdict(ok: boolean): string {
  return ok ? 'met' : 'MISSED';
}

async function main() {
  const startedAt = new Date();
  buildIfNeeded();
  const logins = await prepareDemoDataset(config.dataDir);
  const admin = logins.find((row) => row.user_type === 'Administrador');
  if (!admin) throw new Error('The demo dataset has no administrator');

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  console.log(`Starting the production server on ${origin}...`);
  const entry = snapshotBuild('.tmp/lighthouse-build');
  const server = await startServer(port, { dataDir: config.dataDir, entry });
  const chrome = await chromeLauncher.launch({ chromePath: config.chromePath, chromeFlags: CHROME_FLAGS });
  const stop = () => {
    chrome.kill();
    void stopServer(server).then(() => process.exit(130));
  };
  process.once('SIGINT', stop);

  let version = '';
  const pages: {
    path: string;
    runs: Run[];
    median: Omit<
      Run,
      'accessibilityFailures' | 'bestPracticesFailures' | 'performanceFindings' | 'warnings' | 'loadAverage'
    >;
    medianRun: Run;
  }[] = [];
  try {
    const cookie = await login(origin, admin.email, DEMO_PASSWORD);
    console.log(`Signed in as ${admin.email}. Lighthouse (desktop preset), ${config.runs} runs per page.`);
    for (const path of config.pages) {
      const runs: Run[] = [];
      for (let i = 0; i < config.runs; i++) {
        const result = await audit(`${origin}${path}`, chrome.port, cookie);
        version = result.version;
        runs.push(result.run);
        const r = result.run;
        console.log(
          `  ${path} #${i + 1}: performance ${r.performance}, accessibility ${r.accessibility}, best practices ${r.bestPractices}; LCP ${r.lcpMs} ms, TBT ${r.tbtMs} ms (load average ${r.loadAverage})`,
        );
      }
      const medianOf = (
        key: 'performance' | 'accessibility' | 'bestPractices' | 'lcpMs' | 'tbtMs' | 'fcpMs' | 'clsValue',
      ) => median(runs.map((run) => run[key]));
      const medianScores = {
        performance: medianOf('performance'),
        accessibility: medianOf('accessibility'),
        bestPractices: medianOf('bestPractices'),
        lcpMs: medianOf('lcpMs'),
        tbtMs: medianOf('tbtMs'),
        fcpMs: medianOf('fcpMs'),
        clsValue: medianOf('clsValue'),
      };
      // The run whose performance score is the median one: its findings are the ones shown.
      const medianRun = [...runs].sort((a, b) => a.performance - b.performance)[Math.floor(runs.length / 2)]!;
      pages.push({ path, runs, median: medianScores, medianRun });
    }
  } finally {
    process.removeListener('SIGINT', stop);
    chrome.kill();
    await stopServer(server);
  }

  const busy = pages.flatMap((page) => page.runs).filter((run) => run.loadAverage > cpus().length);
  if (busy.length)
    console.log(
      `\nThe machine was busy during ${busy.length} run(s) (load average above ${cpus().length} cores): TBT and performance read worse than they are.`,
    );
  console.log(
    `\nLighthouse ${version}, desktop preset, median of ${config.runs} (targets: performance ≥ ${TARGETS.performance}, accessibility ${TARGETS.accessibility}, TBT ≤ ${TARGETS.tbtMs} ms)\n`,
  );
  const header = [
    'page',
    'performance',
    'accessibility',
    'best practices',
    'LCP ms',
    'TBT ms',
    'FCP ms',
    'CLS',
  ];
  const rows = pages.map(({ path, median: m }) => [
    path,
    `${m.performance} ${verdict(m.performance >= TARGETS.performance)}`,
    `${m.accessibility} ${verdict(m.accessibility >= TARGETS.accessibility)}`,
    String(m.bestPractices),
    String(m.lcpMs),
    `${m.tbtMs} ${verdict(m.tbtMs <= TARGETS.tbtMs)}`,
    String(m.fcpMs),
    String(m.clsValue),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  for (const { path, medianRun } of pages) {
    const shown = [
      ...medianRun.accessibilityFailures,
      ...medianRun.bestPracticesFailures,
      ...medianRun.performanceFindings,
    ];
    if (shown.length === 0) continue;
    console.log(`\n${path}, what scored below the mark in the median run:`);
    for (const f of shown)
      console.log(
        `  ${f.id}: ${f.title}${f.displayValue ? ` — ${f.displayValue}` : ''}${f.items ? ` (${f.items} items)` : ''}`,
      );
  }

  const report = {
    startedAt: startedAt.toISOString(),
    lighthouseVersion: version,
    preset: 'desktop',
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version },
    config,
    targets: TARGETS,
    pages,
  };
  mkdirSync('bench/results', { recursive: true });
  const file = join('bench/results', `lighthouse-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nResults written to ${file}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
