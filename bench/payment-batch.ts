// `npx tsx bench/payment-batch.ts` (issue 33): a 500-payment 'Nómina de pago' built and exported, on
// the embedded database with a generated dataset (BENCH_BATCH_RESERVATIONS, default 5,000). Set-up
// (not timed): BENCH_BATCH_PAYMENTS payment flows (default 500) driven through the workflow engine to
// their last task, each with a broker's invoice (accepted) and bank data. Timed, BENCH_BATCH_RUNS times
// (default 5): the list of payments ready, the batch made of all of them, its CSV and its XLSX
// written to a sink — then the batch is cancelled so the next run makes it again. Target: built and
// exported ≤ 1 s. Writes nothing but a temporary data folder, removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { generateDataset, SCALES } from '../scripts/demo-data';
import { actingAs, asSystem } from '../src/server/db/actor';
import { openDatabase, queryRows } from '../src/server/db/client';
import { inProcessEventBus } from '../src/server/events/event-bus';
import { csvPieces } from '../src/server/exports/csv';
import { writeXlsx } from '../src/server/exports/xlsx';
import * as paymentBatches from '../src/server/features/payment-batches/payment-batches.service';
import * as workflows from '../src/server/features/workflows/workflows.service';
import { FIRST_PAYMENT_WORKFLOW } from '../src/shared/domain/workflow/names';
import type { FlowCommand } from '../src/shared/domain/workflow/types';
import type { SessionUser } from '../src/shared/schemas/auth';
import { BATCH_FILE_COLUMNS } from '../src/shared/schemas/payment-batches';

const RESERVATIONS = Number(process.env.BENCH_BATCH_RESERVATIONS ?? 5_000);
const PAYMENTS = Number(process.env.BENCH_BATCH_PAYMENTS ?? 500);
const RUNS = Number(process.env.BENCH_BATCH_RUNS ?? 5);
const NOW = new Date('2026-11-20T15:00:00Z');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const sink = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-batch-'));
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate();
    const began = performance.now();
    await generateDataset(database.db, {
      scale: { ...SCALES.bench, clients: RESERVATIONS, reservations: RESERVATIONS, comments: 100 },
      seed: 20_261_120,
      now: NOW,
    });
    const [admin] = await queryRows<SessionUser>(
      database.db,
      sql`select id, email, first_name as "firstName", last_name as "lastName", user_type as "userType",
                 coalesce(position, '') as position, is_seller as "isSeller", avatar_url as "avatarUrl",
                 true as "isAdmin"
            from profiles where user_type = 'Administrador' and is_active order by created_at limit 1`,
    );
    const db = actingAs(database.db, { userId: admin!.id });
    // Commissions of live reservations without a payment flow get their first one (the engine makes it).
    const unpaid = await queryRows<{ id: string; reservationId: string }>(
      database.db,
      sql`select c.id, c.reservation_id as "reservationId" from broker_commissions c
            join reservations r on r.id = c.reservation_id and not r.is_rescinded
           where not exists (select 1 from flows f where f.broker_commission_id = c.id)
           order by c.id limit ${PAYMENTS}`,
    );
    await db.transaction(async (tx) => {
      for (const commission of unpaid) {
        await workflows.createFlow(tx, {
          workflowName: FIRST_PAYMENT_WORKFLOW,
          reservationId: commission.reservationId,
          brokerCommissionId: commission.id,
          actorId: admin!.id,
          now: NOW,
          notices: false,
        });
      }
    });
    // Payment flows not completed nor cancelled, of live reservations: driven to their last task.
    const flows = await queryRows<{ id: string }>(
      database.db,
      sql`select f.id from flows f join reservations r on r.id = f.reservation_id
           where f.kind = 'payment' and f.status in ('pending', 'in_progress') and not r.is_rescinded
           order by f.id limit ${PAYMENTS}`,
    );
    if (flows.length < PAYMENTS)
      throw new Error(`only ${flows.length} payment flows open: raise the reservations`);
    for (const flow of flows) {
      await db.transaction(async (tx) => {
        const { state, definition } = await workflows.readFlow(tx, flow.id);
        if (state.status === 'pending')
          await workflows.runCommandIn(tx, admin!, NOW, flow.id, { type: 'start' }, { notices: false });
        const last = definition.tasks.at(-1)!.id;
        await workflows.runCommandsIn(
          tx,
          admin!,
          NOW,
          flow.id,
          (_definition, current) =>
            current.tasks
              .filter((task) => task.status !== 'completed' && task.taskId !== last)
              .map((task): FlowCommand => ({ type: 'setStatus', taskRowId: task.id, status: 'completed' })),
          { notices: false },
        );
      });
    }
    await asSystem(database.db, async (tx) => {
      await tx.execute(sql`update brokers set bank_name = 'Banco de Chile', bank_account_type = 'Cuenta Corriente',
                                 bank_account_number = lpad((abs(hashtext(id::text)) % 100000000)::text, 10, '0'),
                                 payment_email = 'pagos@' || replace(rut, '-', '') || '.cl'`);
      await tx.execute(sql`insert into uf_values (date, value, source) values ('2026-11-16', 40000.00, 'file')
                             on conflict (date) do nothing`);
      // The broker's invoice on each payment's invoice task, its difference accepted by an administrator.
      await tx.execute(sql`insert into broker_invoices (flow_task_id, flow_id, broker_id, kind, issuer_rut, folio,
                             issue_date, received_date, net_amount, vat_amount, total_amount, source,
                             mismatch_accepted_by, mismatch_accepted_at, mismatch_reason)
        select ft.id, f.id, b.id, 'taxed', b.rut, (row_number() over ())::text, '2026-11-16', '2026-11-16',
               round(c.commission_amount * 40000 / 1.19), round(c.commission_amount * 40000 / 1.19 * 0.19),
               round(c.commission_amount * 40000), 'manual', ${admin!.id}, now(), 'Bench'
          from flows f
          join flow_tasks ft on ft.flow_id = f.id
          join workflow_tasks wt on wt.id = ft.task_id and wt.records_broker_invoice
          join broker_commissions c on c.id = f.broker_commission_id
          join brokers b on b.id = c.broker_id
         where f.id = any(${`{${flows.map((flow) => flow.id).join(',')}}`}::uuid[])
        on conflict do nothing`);
    });
    await database.db.execute(sql`analyze`);
    console.log(
      `Dataset: ${RESERVATIONS} reservations, ${flows.length} payments at 'Fecha de Pago', in ${Math.round(performance.now() - began)} ms.`,
    );

    const ctx = { db, user: admin!, now: NOW, events: inProcessEventBus() };
    const timings = {
      list: [] as number[],
      create: [] as number[],
      csv: [] as number[],
      xlsx: [] as number[],
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
        .slice(0, PAYMENTS);
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
      lines = batch.paymentCount;
      timings.list.push(t1 - t0);
      timings.create.push(t2 - t1);
      timings.csv.push(t3 - t2);
      timings.xlsx.push(t4 - t3);
      timings.total.push(t4 - t0);
      if (bytes === 0) throw new Error('empty CSV');
      await paymentBatches.cancel(ctx, batch.id, batch.version);
    }
    const ms = (values: number[]) => `${Math.round(median(values))} ms`;
    console.log(`A batch of ${lines} payments, ${RUNS} runs, medians:`);
    console.log(`  payments ready (list):      ${ms(timings.list)}`);
    console.log(`  batch made (checks + save): ${ms(timings.create)}`);
    console.log(`  CSV written:                ${ms(timings.csv)}`);
    console.log(`  XLSX written:               ${ms(timings.xlsx)}`);
    const total = median(timings.total);
    console.log(
      `  built and exported (all):   ${Math.round(total)} ms — target ≤ 1000 ms: ${total <= 1000 ? 'met' : 'NOT met'}`,
    );
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
