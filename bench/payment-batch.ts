// 'Nómina de pago' (issue 33, decision 0040) for `npm run bench`, and standalone
// (`npx tsx bench/payment-batch.ts`). Target: a 500-payment batch built and exported ≤ 1 s.
//
// Set-up (`preparePaymentBatch`, not timed, on the dataset before the server starts): every broker
// gets bank data, and payments are made ready until BENCH_BATCH_PAYMENTS (default 500) are payable —
// first the payments already waiting for 'Fecha de Pago' get the broker's invoice (its difference
// accepted by an administrator), then, if still short, open payment flows are driven through the
// workflow engine to their last task and get theirs. What is already ready is left as it is, so a
// reused dataset is prepared once.
//
// Timed (`measurePaymentBatch`, through the production server's API, BENCH_BATCH_RUNS times, default
// 5): the list of payments ready, the batch made of the payable ones, its CSV and its XLSX downloaded
// — then the batch is cancelled (not timed) so the next run makes it again. Also measured as an
// endpoint: a payment flow's invoices (`paymentBatchEndpoints`).
//
// Standalone: the same on a generated embedded database of BENCH_BATCH_RESERVATIONS (default 5,000)
// in a temporary folder (removed at the end), timed through the services in-process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { generateDataset, SCALES } from '../scripts/demo-data';
import { actingAs, asSystem } from '../src/server/db/actor';
import { type Database, openDatabase, queryRows } from '../src/server/db/client';
import { inProcessEventBus } from '../src/server/events/event-bus';
import { csvPieces } from '../src/server/exports/csv';
import { writeXlsx } from '../src/server/exports/xlsx';
import { bankFilePieces } from '../src/server/features/payment-batches/bank-file';
import * as paymentBatches from '../src/server/features/payment-batches/payment-batches.service';
import * as workflows from '../src/server/features/workflows/workflows.service';
import { FIRST_PAYMENT_WORKFLOW } from '../src/shared/domain/workflow/names';
import type { FlowCommand } from '../src/shared/domain/workflow/types';
import { santiagoDateOf } from '../src/shared/format';
import { actionsOf } from '../src/shared/permissions';
import type { SessionUser } from '../src/shared/schemas/auth';
import { BATCH_FILE_COLUMNS } from '../src/shared/schemas/payment-batches';
import { getJson, probeJson } from './api';

export const BATCH_PAYMENTS = Number(process.env.BENCH_BATCH_PAYMENTS ?? 500);
const RUNS = Number(process.env.BENCH_BATCH_RUNS ?? 5);
/** The issue's target for the whole: built and exported. */
export const BATCH_TARGET_MS = 1000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function firstAdmin(db: Database): Promise<SessionUser> {
  const [admin] = await queryRows<SessionUser>(
    db,
    sql`select id, email, first_name as "firstName", last_name as "lastName", user_type as "userType",
               coalesce(position, '') as position, is_seller as "isSeller", avatar_url as "avatarUrl"
          from profiles where user_type = 'Administrador' and is_active order by created_at limit 1`,
  );
  if (!admin) throw new Error('No active administrator in the dataset');
  admin.actions = actionsOf(admin.userType);
  return admin;
}

/** The broker's invoice (taxed, its difference accepted) on each invoice task of these flows. */
async function recordInvoices(db: Database, adminId: string, flowIds: readonly string[], today: string) {
  if (flowIds.length === 0) return;
  await asSystem(db, async (tx) => {
    await tx.execute(sql`insert into broker_invoices (flow_task_id, flow_id, broker_id, kind, issuer_rut, folio,
                           issue_date, received_date, net_amount, vat_amount, total_amount, source,
                           mismatch_accepted_by, mismatch_accepted_at, mismatch_reason)
      select ft.id, f.id, b.id, 'taxed', b.rut,
             (coalesce((select max(folio::bigint) from broker_invoices), 1000) + row_number() over ())::text,
             ${today}::date, ${today}::date,
             round(c.commission_amount * 40000 / 1.19), round(c.commission_amount * 40000 / 1.19 * 0.19),
             round(c.commission_amount * 40000), 'manual', ${adminId}, now(), 'Bench'
        from flows f
        join flow_tasks ft on ft.flow_id = f.id
        join workflow_tasks wt on wt.id = ft.task_id and wt.records_broker_invoice
        join broker_commissions c on c.id = f.broker_commission_id
        join brokers b on b.id = c.broker_id
       where f.id = any(${`{${flowIds.join(',')}}`}::uuid[])
      on conflict do nothing`);
  });
}

/**
 * Makes `count` payments payable (see the header); answers how many are. Bench data: the brokers'
 * bank data and the invoices are written with SQL, the flows moved by the engine.
 */
export async function preparePaymentBatch(
  db: Database,
  now: Date,
  count = BATCH_PAYMENTS,
): Promise<{ payable: number; driven: number; invoiced: number }> {
  const admin = await firstAdmin(db);
  const today = santiagoDateOf(now);
  const acting = actingAs(db, { userId: admin.id });
  const ctx = { db: acting, user: admin, now, events: inProcessEventBus() };
  await asSystem(db, async (tx) => {
    // The demo generator gives every broker a verified account (issue 53); a dataset made before it
    // gets one here, held by the broker and verified.
    await tx.execute(sql`update brokers set bank_name = 'Banco de Chile', bank_account_type = 'Cuenta Corriente',
                               bank_account_number = lpad((abs(hashtext(id::text)) % 100000000)::text, 10, '0'),
                               bank_holder_name = business_name, bank_holder_rut = rut,
                               payment_email = 'pagos@' || replace(rut, '-', '') || '.cl'
                         where bank_account_number is null`);
    await tx.execute(sql`update brokers set bank_verified_at = now()
                          where bank_verified_at is null and bank_name is not null`);
  });
  const payableNow = async () => {
    const candidates = await paymentBatches.listCandidates(ctx);
    return { rows: candidates.rows, payable: candidates.rows.filter((row) => row.isPayable).length };
  };
  let { rows, payable } = await payableNow();
  let invoiced = 0;
  let driven = 0;
  if (payable < count) {
    // The payments already waiting for their date, short of an invoice only.
    const missing = rows
      .filter((row) => !row.isPayable && row.openBatchNumber === null && row.invoiceFolio === null)
      .map((row) => row.flowId);
    await recordInvoices(db, admin.id, missing, today);
    invoiced += missing.length;
    ({ rows, payable } = await payableNow());
  }
  if (payable < count) {
    const need = count - payable;
    const ready = new Set(rows.map((row) => row.flowId));
    const openFlows = async () =>
      (
        await queryRows<{ id: string }>(
          db,
          sql`select f.id from flows f join reservations r on r.id = f.reservation_id
               where f.kind = 'payment' and f.status in ('pending', 'in_progress') and not r.is_rescinded
               order by f.id limit ${2 * need + ready.size}`,
        )
      )
        .map((flow) => flow.id)
        .filter((id) => !ready.has(id));
    let chosen = await openFlows();
    if (chosen.length < 2 * need) {
      // Commissions of live reservations without a payment flow get their first one (the engine makes it).
      const unpaid = await queryRows<{ id: string; reservationId: string }>(
        db,
        sql`select c.id, c.reservation_id as "reservationId" from broker_commissions c
              join reservations r on r.id = c.reservation_id and not r.is_rescinded
             where not exists (select 1 from flows f where f.broker_commission_id = c.id)
             order by c.id limit ${2 * need - chosen.length}`,
      );
      await acting.transaction(async (tx) => {
        for (const commission of unpaid) {
          await workflows.createFlow(tx, {
            workflowName: FIRST_PAYMENT_WORKFLOW,
            reservationId: commission.reservationId,
            brokerCommissionId: commission.id,
            actorId: admin.id,
            now,
            notices: false,
          });
        }
      });
      chosen = await openFlows();
    }
    const moved: string[] = [];
    for (const flowId of chosen) {
      if (moved.length >= need) break;
      try {
        await acting.transaction(async (tx) => {
          const { state, definition } = await workflows.readFlow(tx, flowId);
          if (state.status === 'pending')
            await workflows.runCommandIn(tx, admin, now, flowId, { type: 'start' }, { notices: false });
          const last = definition.tasks.at(-1)!.id;
          await workflows.runCommandsIn(
            tx,
            admin,
            now,
            flowId,
            (_definition, current) =>
              current.tasks
                .filter((task) => task.status !== 'completed' && task.taskId !== last)
                .map((task): FlowCommand => ({ type: 'setStatus', taskRowId: task.id, status: 'completed' })),
            { notices: false },
          );
        });
        moved.push(flowId);
      } catch {
        // A flow the engine will not move this way (a task held by someone else): the next one.
      }
    }
    driven = moved.length;
    await recordInvoices(db, admin.id, moved, today);
    invoiced += moved.length;
    ({ payable } = await payableNow());
  }
  await db.execute(sql`analyze`);
  return { payable, driven, invoiced };
}

export interface BatchMeasurement {
  payments: number;
  runs: number;
  httpStatus: number;
  /** Medians, ms. */
  listMs: number;
  createMs: number;
  csvMs: number;
  xlsxMs: number;
  totalMs: number;
  /** The slowest run's total. */
  slowestMs: number;
}

/** One request's time, the body read; throws on an unexpected status. */
async function timed(
  origin: string,
  cookie: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ ms: number; status: number; json: unknown }> {
  const headers: Record<string, string> = { cookie, origin };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  const response = await fetch(`${origin}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text.slice(0, 200)}`);
  const json = response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null;
  return { ms, status: response.status, json };
}

/** The batch built and exported through the API, `runs` times; null before issue 33's batches. */
export async function measurePaymentBatch(
  origin: string,
  cookie: string,
  runs = RUNS,
  count = BATCH_PAYMENTS,
): Promise<BatchMeasurement | null> {
  const probe = await probeJson<unknown>(origin, cookie, '/api/payment-batches/candidates');
  if (!probe) return null;
  const timings = { list: [] as number[], create: [] as number[], csv: [] as number[], xlsx: [] as number[] };
  const totals: number[] = [];
  let payments = 0;
  for (let run = 0; run < runs; run++) {
    const list = await timed(origin, cookie, '/api/payment-batches/candidates');
    const rows = (list.json as { rows: { flowId: string; isPayable: boolean }[] }).rows;
    const chosen = rows
      .filter((row) => row.isPayable)
      .map((row) => row.flowId)
      .slice(0, count);
    const created = await timed(origin, cookie, '/api/payment-batches', {
      method: 'POST',
      body: { flowIds: chosen },
    });
    const batch = (created.json as { batch: { id: string; version: number; paymentCount: number } }).batch;
    try {
      const csv = await timed(origin, cookie, `/api/payment-batches/${batch.id}/export?format=csv`);
      const xlsx = await timed(origin, cookie, `/api/payment-batches/${batch.id}/export?format=xlsx`);
      timings.list.push(list.ms);
      timings.create.push(created.ms);
      timings.csv.push(csv.ms);
      timings.xlsx.push(xlsx.ms);
      totals.push(list.ms + created.ms + csv.ms + xlsx.ms);
      payments = batch.paymentCount;
    } finally {
      await timed(origin, cookie, `/api/payment-batches/${batch.id}/cancel`, {
        method: 'POST',
        body: { version: batch.version },
      });
    }
  }
  const ms = (values: number[]) => Math.round(median(values));
  return {
    payments,
    runs,
    httpStatus: 200,
    listMs: ms(timings.list),
    createMs: ms(timings.create),
    csvMs: ms(timings.csv),
    xlsxMs: ms(timings.xlsx),
    totalMs: ms(totals),
    slowestMs: Math.round(Math.max(...totals)),
  };
}

export interface PaymentBatchTargets {
  /** A payment flow with the broker's invoice recorded. */
  flowId: string;
}

/** A payable payment (it has its invoice); null before issue 33's batches or with none ready. */
export async function paymentBatchTargets(
  origin: string,
  cookie: string,
): Promise<PaymentBatchTargets | null> {
  const candidates = await probeJson<{ rows: { flowId: string; isPayable: boolean }[] }>(
    origin,
    cookie,
    '/api/payment-batches/candidates',
  );
  const payable = candidates?.rows.find((row) => row.isPayable);
  if (!payable) return null;
  // Read once: the endpoint answers.
  await getJson(origin, cookie, `/api/payment-flows/${payable.flowId}/invoices`);
  return { flowId: payable.flowId };
}

/** A payment flow's invoices, as the payment flow's screen reads them (in `bench/run.ts`'s shape). */
export function paymentBatchEndpoints(targets: PaymentBatchTargets | null) {
  if (!targets) return [];
  return [
    {
      key: 'batchInvoices',
      label: "payment batch: a payment flow's invoices",
      method: 'GET' as const,
      path: `/api/payment-flows/${targets.flowId}/invoices`,
    },
  ];
}

const sink = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

async function main() {
  const reservations = Number(process.env.BENCH_BATCH_RESERVATIONS ?? 5_000);
  const now = new Date('2026-11-20T15:00:00Z');
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-batch-'));
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate();
    const began = performance.now();
    await generateDataset(database.db, {
      scale: { ...SCALES.bench, clients: reservations, reservations, comments: 100 },
      seed: 20_261_120,
      now,
    });
    const prepared = await preparePaymentBatch(database.db, now);
    console.log(
      `Dataset: ${reservations} reservations, ${prepared.payable} payments payable at 'Fecha de Pago', in ${Math.round(performance.now() - began)} ms.`,
    );
    const admin = await firstAdmin(database.db);
    const ctx = {
      db: actingAs(database.db, { userId: admin.id }),
      user: admin,
      now,
      events: inProcessEventBus(),
    };
    const timings = {
      list: [] as number[],
      create: [] as number[],
      csv: [] as number[],
      xlsx: [] as number[],
      bank: [] as number[],
      total: [] as number[],
    };
    let lines = 0;
    for (let run = 0; run < RUNS; run++) {
      const t0 = performance.now();
      const ready = await paymentBatches.listCandidates(ctx);
      const t1 = performance.now();
      const chosen = ready.rows
        .filter((row) => row.isPayable)
        .map((row) => row.flowId)
        .slice(0, BATCH_PAYMENTS);
      const batch = await paymentBatches.create(ctx, chosen);
      const t2 = performance.now();
      let bytes = 0;
      for await (const piece of csvPieces(
        BATCH_FILE_COLUMNS,
        (await paymentBatches.exportLines(ctx, batch.id)).chunks,
      ))
        bytes += piece.length;
      const t3 = performance.now();
      await writeXlsx(
        sink(),
        'Nómina',
        BATCH_FILE_COLUMNS,
        (await paymentBatches.exportLines(ctx, batch.id)).chunks,
      );
      const t4 = performance.now();
      // The file in the bank's layout (issue 53): the generic one unless Configuración → Pagos says otherwise.
      const exported = await paymentBatches.exportLines(ctx, batch.id);
      let bankBytes = 0;
      for await (const piece of bankFilePieces(exported.layout, exported.chunks)) bankBytes += piece.length;
      const t5 = performance.now();
      if (bankBytes === 0) throw new Error('empty bank file');
      lines = batch.paymentCount;
      timings.list.push(t1 - t0);
      timings.create.push(t2 - t1);
      timings.csv.push(t3 - t2);
      timings.xlsx.push(t4 - t3);
      timings.bank.push(t5 - t4);
      timings.total.push(t5 - t0);
      if (bytes === 0) throw new Error('empty CSV');
      await paymentBatches.cancel(ctx, batch.id, batch.version);
    }
    const ms = (values: number[]) => `${Math.round(median(values))} ms`;
    console.log(`A batch of ${lines} payments, ${RUNS} runs, medians:`);
    console.log(`  payments ready (list):      ${ms(timings.list)}`);
    console.log(`  batch made (checks + save): ${ms(timings.create)}`);
    console.log(`  CSV written:                ${ms(timings.csv)}`);
    console.log(`  XLSX written:               ${ms(timings.xlsx)}`);
    console.log(`  bank file written (layout): ${ms(timings.bank)}`);
    const total = median(timings.total);
    console.log(
      `  built and exported (all):   ${Math.round(total)} ms — target ≤ ${BATCH_TARGET_MS} ms: ${total <= BATCH_TARGET_MS ? 'met' : 'NOT met'}`,
    );
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
