// `npx tsx bench/pesos.ts` (issue 33): the reports with their pesos columns ('Valor UF', 'Monto CLP',
// 'Pagado CLP') against the very same statements without them, on the embedded database with a
// generated dataset (BENCH_PESOS_RESERVATIONS, default 20,000) and a year of UF values. Each
// statement runs alternately with and without, BENCH_PESOS_RUNS times (default 25); the medians and
// their ratio are printed against the target (≤ 10 % slower). Writes nothing but a
// temporary data folder, removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { generateDataset, SCALES } from '../scripts/demo-data';
import { asSystem } from '../src/server/db/actor';
import { openDatabase, queryRows } from '../src/server/db/client';
import * as reports from '../src/server/features/reports/reports.queries';

const RESERVATIONS = Number(process.env.BENCH_PESOS_RESERVATIONS ?? 20_000);
const RUNS = Number(process.env.BENCH_PESOS_RUNS ?? 25);
const NOW = new Date('2026-11-20T15:00:00Z');
const TODAY = '2026-11-20';

const without = (report: reports.ReportSql, ...keys: string[]): reports.ReportSql => ({
  ...report,
  columns: Object.fromEntries(Object.entries(report.columns).filter(([key]) => !keys.includes(key))),
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-pesos-'));
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate();
    const began = performance.now();
    await generateDataset(database.db, {
      scale: { ...SCALES.bench, clients: RESERVATIONS, reservations: RESERVATIONS, comments: 100 },
      seed: 20_261_120,
      now: NOW,
    });
    // A year of UF values up to today, and the paid payments frozen as the engine would have.
    await asSystem(database.db, async (tx) => {
      await tx.execute(sql`insert into uf_values (date, value, source)
        select d::date, round(38000 + extract(doy from d)::numeric * 5.5, 2), 'file'
          from generate_series(date '2025-11-20', date '2026-11-20', interval '1 day') d`);
      await tx.execute(sql`update broker_commissions bc set
          payment_1_uf_value = u1.value, payment_1_clp = round(bc.commission_amount * u1.value, 0)
        from uf_values u1 where u1.date = bc.payment_1_date`);
    });
    await database.db.execute(sql`analyze`);
    console.log(`Dataset: ${RESERVATIONS} reservations in ${Math.round(performance.now() - began)} ms.`);

    const [month] = await queryRows<{ month: string }>(
      database.db,
      sql`select to_char(commission_payment_month, 'YYYY-MM') as month from reservations
           where commission_payment_month is not null group by 1 order by count(*) desc limit 1`,
    );
    const [broker] = await queryRows<{ id: string }>(
      database.db,
      sql`select broker_id as id from broker_commissions group by 1 order by count(*) desc limit 1`,
    );
    const commission = reports.commissionReportSql(
      { kind: 'payment', month: month!.month, sort: 'reservationNumber', direction: 'asc' },
      TODAY,
    );
    const payments = reports.brokerPaymentsSql({ sort: 'daysPending', direction: 'desc' }, TODAY);
    const consolidated = reports.brokerConsolidatedSql({
      brokerId: broker!.id,
      sort: 'reservationNumber',
      direction: 'asc',
    });
    const cases: [string, reports.ReportSql, reports.ReportSql][] = [
      ['Informe de Comisiones (export chunk, 2,000 rows)', commission, without(commission, 'pesos')],
      ['Informe de Pagos Brokers (export chunk, 2,000 rows)', payments, without(payments, 'pesos')],
      ['Consolidado Brokers (export chunk, 2,000 rows)', consolidated, without(consolidated, 'paidClp')],
    ];
    console.log(`${RUNS} runs each, alternating; medians:`);
    for (const [label, withPesos, plain] of cases) {
      const times = { with: [] as number[], without: [] as number[] };
      const run = async (report: reports.ReportSql) => {
        const start = performance.now();
        const chunk = await reports.selectReportChunk(database.db, report, null, 2000);
        return { ms: performance.now() - start, rows: chunk.rows.length };
      };
      await run(withPesos);
      await run(plain);
      let rows = 0;
      for (let index = 0; index < RUNS; index++) {
        const a = await run(withPesos);
        const b = await run(plain);
        times.with.push(a.ms);
        times.without.push(b.ms);
        rows = a.rows;
      }
      const ratio = median(times.with) / median(times.without);
      console.log(
        `  ${label}: ${rows} rows, with ${median(times.with).toFixed(1)} ms, without ${median(times.without).toFixed(1)} ms, ` +
          `×${ratio.toFixed(3)} (${ratio <= 1.1 ? 'within' : 'OVER'} the 10 % target)`,
      );
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
