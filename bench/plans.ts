// `npx tsx bench/plans.ts` (issue 61): the statements of the bench's slow endpoints, each run with
// the plan PostgreSQL keeps for a kept or named statement (`generic`) and with a plan made for its
// values (`custom`), alternated, with their medians and `EXPLAIN (ANALYZE, BUFFERS)` of both. Runs on
// the bench's embedded database (`BENCH_DATA_DIR`, default .tmp/bench-data; stop the bench first) or
// on PostgreSQL (`DATABASE_URL`). The statements are the services' own, recorded as they run.
// PLANS_RUNS (default 7) runs per plan; PLANS_ONLY=word,... keeps the statements whose name holds one.

import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { COMMON_APARTMENT, COMMON_SURNAME } from '../scripts/demo-data';
import { createPglite, drizzleFor, type Executor } from '../src/server/db/client';
import { listLog } from '../src/server/features/audit/audit.queries';
import { listClients } from '../src/server/features/clients/clients.queries';
import * as reports from '../src/server/features/reports/reports.service';
import { globalSearch } from '../src/server/features/search/search.service';
import { clientListQuery } from '../src/shared/schemas/clients';
import { brokerPaymentsQuery, brokersReportQuery, salesReportQuery } from '../src/shared/schemas/reports';

const RUNS = Number(process.env.PLANS_RUNS ?? 7);
const ONLY = (process.env.PLANS_ONLY ?? '')
  .split(',')
  .map((word) => word.trim())
  .filter(Boolean);
const EVERY_DATE = { fromDate: '1900-01-01', toDate: '2100-12-31' };

interface Recorded {
  text: string;
  params: unknown[];
}

/** A raw connection: simple-protocol statements and the statements recorded from the services. */
interface Raw {
  exec(text: string): Promise<unknown[]>;
  record<T>(run: (db: Executor) => Promise<T>): Promise<Recorded[]>;
  close(): Promise<void>;
}

async function openRaw(): Promise<Raw> {
  const url = process.env.DATABASE_URL;
  if (url) {
    // The server's session settings (no JIT, no parallel workers: decision in db/client.ts).
    const client = new pg.Client({
      connectionString: url,
      options: '-c random_page_cost=1.1 -c jit=off -c max_parallel_workers_per_gather=0',
    });
    await client.connect();
    const db = drizzleFor(client as unknown as pg.PoolClient);
    return {
      exec: async (text) => {
        const result = (await client.query(text)) as pg.QueryResult | pg.QueryResult[];
        return Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows;
      },
      record: async (run) => {
        const recorded: Recorded[] = [];
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as { query: unknown }).query = (config: unknown, values?: unknown, ...rest: unknown[]) => {
          const given = (typeof config === 'string' ? { text: config } : config) as pg.QueryConfig;
          recorded.push({ text: given.text, params: (Array.isArray(values) ? values : given.values) ?? [] });
          return query(config, values, ...rest);
        };
        try {
          await run(db);
        } finally {
          (client as { query: unknown }).query = query;
        }
        return recorded;
      },
      close: () => client.end(),
    };
  }
  // The database lives in the data folder's `db` (openDatabase).
  const client: PGlite = await createPglite({
    dataDir: join(process.env.BENCH_DATA_DIR ?? '.tmp/bench-data', 'db'),
  });
  const db = drizzleFor(client);
  return {
    exec: async (text) => {
      const results = await client.exec(text);
      return results.at(-1)?.rows ?? [];
    },
    record: async (run) => {
      const recorded: Recorded[] = [];
      const query = client.query.bind(client);
      client.query = ((text: string, params: unknown[] = [], options?: unknown) => {
        recorded.push({ text, params });
        return query(text, params, options as never);
      }) as typeof client.query;
      try {
        await run(db);
      } finally {
        client.query = query;
      }
      return recorded;
    },
    close: () => client.close(),
  };
}

/** A parameter as an SQL literal for EXECUTE (text; PostgreSQL casts it to the parameter's type). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  const text = value instanceof Date ? value.toISOString() : String(value);
  return `'${text.replace(/'/g, "''")}'`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const raw = await openRaw();
  const ctx = (db: Executor) => ({ db, now: new Date() }) as never;
  const cases: [string, (db: Executor) => Promise<unknown>][] = [
    [
      'report: brokers (every date)',
      (db) => reports.brokersReport(ctx(db), brokersReportQuery.parse(EVERY_DATE)),
    ],
    ['report: sales (every date)', (db) => reports.salesReport(ctx(db), salesReportQuery.parse(EVERY_DATE))],
    ['report: broker payments', (db) => reports.brokerPayments(ctx(db), brokerPaymentsQuery.parse({}))],
    [
      'audit: the log searched by text',
      (db) => listLog(db, { search: 'valenzuela' }, { page: 1, pageSize: 50 }),
    ],
    ['client search', (db) => listClients(db, clientListQuery.parse({ search: COMMON_SURNAME }))],
    ['global search (apartment)', (db) => globalSearch(ctx(db), COMMON_APARTMENT)],
  ];
  try {
    for (const [name, run] of cases) {
      if (ONLY.length > 0 && !ONLY.some((word) => name.includes(word))) continue;
      const statements = (await raw.record(run)).filter((s) => s.params.length > 0);
      for (const [index, statement] of statements.entries()) {
        const label = `${name} #${index + 1}`;
        const args = statement.params.map(literal).join(', ');
        await raw.exec('deallocate all');
        await raw.exec(`prepare probe as ${statement.text}`);
        const times: Record<'generic' | 'custom', number[]> = { generic: [], custom: [] };
        for (let i = 0; i < RUNS + 1; i += 1) {
          for (const mode of ['generic', 'custom'] as const) {
            await raw.exec(`set plan_cache_mode = force_${mode}_plan`);
            const started = performance.now();
            await raw.exec(`execute probe(${args})`);
            if (i > 0) times[mode].push(performance.now() - started);
          }
        }
        console.log(
          `\n== ${label}: generic plan median ${median(times.generic).toFixed(1)} ms (max ${Math.max(...times.generic).toFixed(1)}), custom plan median ${median(times.custom).toFixed(1)} ms (max ${Math.max(...times.custom).toFixed(1)})`,
        );
        if (process.env.PLANS_EXPLAIN !== '0') {
          for (const mode of ['generic', 'custom'] as const) {
            await raw.exec(`set plan_cache_mode = force_${mode}_plan`);
            const plan = (await raw.exec(`explain (analyze, buffers) execute probe(${args})`)) as {
              'QUERY PLAN': string;
            }[];
            console.log(`-- ${mode}\n${plan.map((row) => row['QUERY PLAN']).join('\n')}`);
          }
        }
        await raw.exec('set plan_cache_mode = auto');
      }
    }
  } finally {
    await raw.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
