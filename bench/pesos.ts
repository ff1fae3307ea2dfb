// Pesos (issue 33, decision 0034) for `npm run bench`, and standalone (`npx tsx bench/pesos.ts`).
//
// The reports with their pesos columns ('Valor UF', 'Monto CLP', 'Pagado CLP') against the very same
// statements without them: each report's export chunk (2,000 rows) runs alternately with and
// without, BENCH_PESOS_RUNS times (default 25); the medians and their ratio are judged against the
// issue's target (≤ 10 % slower). `npm run bench` runs it on its own dataset (in-process, once the
// server has stopped: the embedded database has one owner) after `preparePesosData` (scripts/pesos-data.ts) gave that
// dataset a year of UF values and froze the paid payments' pesos as the engine would have. It also
// measures Configuración → Valores UF's month (`pesosEndpoints`).
//
// Standalone: a generated embedded database of BENCH_PESOS_RESERVATIONS (default 20,000) in a
// temporary folder, removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type SQL, sql } from 'drizzle-orm';
import { generateDataset, SCALES } from '../scripts/demo-data';
import { preparePesosData } from '../scripts/pesos-data';
import { type Database, openDatabase, queryRows } from '../src/server/db/client';
import * as reports from '../src/server/features/reports/reports.queries';
import { santiagoDateOf } from '../src/shared/format';

const RUNS = Number(process.env.BENCH_PESOS_RUNS ?? 25);
/** The target: with the pesos columns at most 10 % slower than without. */
export const PESOS_RATIO_TARGET = 1.1;

/** The report minus the named columns, and minus the lookups that gave only those. */
const without = (report: reports.ReportSql, ...keys: string[]): reports.ReportSql => {
  const kept = (columns: Record<string, SQL>) =>
    Object.fromEntries(Object.entries(columns).filter(([key]) => !keys.includes(key)));
  const lookups = report.lookups
    ?.map((lookup) => ({ ...lookup, columns: kept(lookup.columns) }))
    .filter((lookup) => Object.keys(lookup.columns).length > 0);
  return { ...report, columns: kept(report.columns), ...(lookups ? { lookups } : {}) };
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export interface PesosComparison {
  key: string;
  label: string;
  rows: number;
  /** Medians, ms. */
  withMs: number;
  withoutMs: number;
  ratio: number;
  runs: number;
}

/** Each report's export chunk with and without its pesos columns, alternately; the medians. */
export async function measurePesos(db: Database, today: string, runs = RUNS): Promise<PesosComparison[]> {
  const [month] = await queryRows<{ month: string }>(
    db,
    sql`select to_char(commission_payment_month, 'YYYY-MM') as month from reservations
         where commission_payment_month is not null group by 1 order by count(*) desc limit 1`,
  );
  const [broker] = await queryRows<{ id: string }>(
    db,
    sql`select broker_id as id from broker_commissions group by 1 order by count(*) desc limit 1`,
  );
  if (!month || !broker) return [];
  const commission = reports.commissionReportSql(
    { kind: 'payment', month: month.month, sort: 'reservationNumber', direction: 'asc' },
    today,
    'export',
  );
  const payments = reports.brokerPaymentsSql({ sort: 'daysPending', direction: 'desc' }, today);
  const consolidated = reports.brokerConsolidatedSql({
    brokerId: broker.id,
    sort: 'reservationNumber',
    direction: 'asc',
  });
  const cases: [string, string, reports.ReportSql, reports.ReportSql][] = [
    [
      'pesosCommissions',
      'Informe de Comisiones',
      commission,
      without(commission, 'clpAmount', 'ufValue', 'clpState'),
    ],
    [
      'pesosBrokerPayments',
      'Informe de Pagos Brokers',
      payments,
      without(payments, 'paymentUf', 'clpAmount', 'ufValue', 'clpState'),
    ],
    ['pesosConsolidated', 'Consolidado Brokers', consolidated, without(consolidated, 'paidClp')],
  ];
  const results: PesosComparison[] = [];
  for (const [key, label, withPesos, plain] of cases) {
    const times = { with: [] as number[], without: [] as number[] };
    const run = async (report: reports.ReportSql) => {
      const start = performance.now();
      const chunk = await reports.selectReportChunk(db, report, null, 2000);
      return { ms: performance.now() - start, rows: chunk.rows.length };
    };
    await run(withPesos);
    await run(plain);
    let rows = 0;
    for (let index = 0; index < runs; index++) {
      const a = await run(withPesos);
      const b = await run(plain);
      times.with.push(a.ms);
      times.without.push(b.ms);
      rows = a.rows;
    }
    const withMs = median(times.with);
    const withoutMs = median(times.without);
    results.push({
      key,
      label,
      rows,
      withMs: Math.round(withMs * 10) / 10,
      withoutMs: Math.round(withoutMs * 10) / 10,
      ratio: Math.round((withMs / withoutMs) * 1000) / 1000,
      runs,
    });
  }
  return results;
}

/** Configuración → Valores UF: the current month (in `bench/run.ts`'s shape). */
export function pesosEndpoints() {
  return [
    {
      key: 'pesosUfMonth',
      label: 'pesos: Valores UF of the month',
      method: 'GET' as const,
      path: `/api/uf-values?month=${santiagoDateOf(new Date()).slice(0, 7)}`,
    },
  ];
}

async function main() {
  const reservations = Number(process.env.BENCH_PESOS_RESERVATIONS ?? 20_000);
  const now = new Date('2026-11-20T15:00:00Z');
  const today = santiagoDateOf(now);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-pesos-'));
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate();
    const began = performance.now();
    await generateDataset(database.db, {
      scale: { ...SCALES.bench, clients: reservations, reservations, comments: 100 },
      seed: 20_261_120,
      now,
    });
    await preparePesosData(database.db, today);
    await database.db.execute(sql`analyze`);
    console.log(`Dataset: ${reservations} reservations in ${Math.round(performance.now() - began)} ms.`);
    console.log(`${RUNS} runs each, alternating; medians of the export chunk (2,000 rows at most):`);
    for (const result of await measurePesos(database.db, today)) {
      console.log(
        `  ${result.label}: ${result.rows} rows, with ${result.withMs} ms, without ${result.withoutMs} ms, ` +
          `×${result.ratio.toFixed(3)} (${result.ratio <= PESOS_RATIO_TARGET ? 'within' : 'OVER'} the 10 % target)`,
      );
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
