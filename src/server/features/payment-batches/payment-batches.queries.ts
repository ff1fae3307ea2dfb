import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { BatchLine, PaymentBatchRow } from '../../../shared/schemas/payment-batches';
import { PAYMENT_BATCH_STATUSES } from '../../../shared/schemas/payment-batches';
import { type Executor, isoInstant, queryRows } from '../../db/client';
import { type Page, selectPage } from '../../db/paging';

/** The only SQL that writes `payment_batches` and `payment_batch_items` (decision 0040). */

const readyPayment = z.object({
  flowId: z.string(),
  reservationId: z.string(),
  reservationNumber: z.string(),
  isSecondPayment: z.boolean(),
  lastTaskRowId: z.string(),
  brokerId: z.string(),
  brokerRut: z.string(),
  brokerName: z.string(),
  bankName: z.string().nullable(),
  bankAccountType: z.string().nullable(),
  bankAccountNumber: z.string().nullable(),
  holderName: z.string().nullable(),
  holderRut: z.string().nullable(),
  isBankVerified: z.boolean(),
  email: z.string().nullable(),
  openBatchNumber: z.number().int().nullable(),
});
export type ReadyPayment = z.infer<typeof readyPayment>;

/**
 * Payment flows in progress whose every task is completed but one, open (pending or in progress):
 * the last task ('Fecha de Pago'), reached once 'Notificación a Finanzas' is done. Read from the
 * definitions as data, never by a task's name. With the broker's bank data and the open batch the
 * payment is already in. `flowIds` narrows it (a batch being made); `limit` bounds the screen's list.
 *
 * The ready set is found first (a materialized CTE): the payment flows in progress
 * (flows_payment_in_progress_idx, ~5,800 at bench scale), each with its tasks not completed read off
 * its own index range and stopped at the second (ready: exactly one, and it open); only then joined
 * to the reservation, commission and broker and sorted. Left to the planner with the limit, it
 * walked the brokers in name order through every commission to find the flows in progress (60,000
 * probes: 1.0–1.6 s at bench scale on PostgreSQL, twice per batch made; 190–320 ms so, load ~13).
 * Starting from the open task rows instead, the planner scanned all of flow_tasks (3 s). The ready
 * set's reservation and commission are then read by key (a lateral that cannot be flattened): left
 * to a join, the planner (which cannot foresee how few flows are ready) hashed all 60,000
 * commissions, for the list and for every batch made: 158 → 102 ms (PostgreSQL, bench scale).
 */
export function listReadyPayments(
  db: Executor,
  options: { flowIds?: readonly string[]; limit: number },
): Promise<ReadyPayment[]> {
  const among = options.flowIds ? sql`and f.id = any(${`{${options.flowIds.join(',')}}`}::uuid[])` : sql``;
  return queryRows(
    db,
    sql`with ready as materialized (
          select f.id, f.reservation_id, f.broker_commission_id, f.is_second_payment, t.ids[1] as last_id
            from flows f
            cross join lateral (
              select array_agg(o.id) as ids, bool_and(o.status in ('pending', 'in_progress')) as is_open
                from (select ft.id, ft.status from flow_tasks ft
                       where ft.flow_id = f.id and ft.status <> 'completed' limit 2) o) t
           where f.kind = 'payment' and f.status = 'in_progress' ${among}
             and cardinality(t.ids) = 1 and t.is_open)
        select f.id as "flowId", f.reservation_id as "reservationId", r.reservation_number as "reservationNumber",
               f.is_second_payment as "isSecondPayment", f.last_id as "lastTaskRowId",
               b.id as "brokerId", b.rut as "brokerRut", b.name as "brokerName",
               b.bank_name as "bankName", b.bank_account_type as "bankAccountType",
               b.bank_account_number as "bankAccountNumber",
               b.bank_holder_name as "holderName", b.bank_holder_rut as "holderRut",
               b.bank_verified_at is not null as "isBankVerified",
               coalesce(b.payment_email, b.finance_contact_email) as "email",
               (select pb.number from payment_batch_items i join payment_batches pb on pb.id = i.batch_id
                 where i.flow_id = f.id and i.is_open) as "openBatchNumber"
          from ready f
          join lateral (select r.reservation_number, r.is_rescinded from reservations r
                         where r.id = f.reservation_id limit 1) r on true
          join lateral (select c.broker_id from broker_commissions c
                         where c.id = f.broker_commission_id limit 1) c on true
          join brokers b on b.id = c.broker_id
         where not r.is_rescinded
         order by b.name, r.reservation_number, f.is_second_payment, f.id
         limit ${options.limit}`,
    readyPayment,
  );
}

/** Locks the batch row: marking paid and cancelling run one at a time (the first wins). */
export async function lockBatch(
  tx: Executor,
  id: string,
): Promise<{ id: string; status: string; version: number } | null> {
  const [row] = await queryRows(
    tx,
    sql`select id, status, version from payment_batches where id = ${id} for update`,
    z.object({ id: z.string(), status: z.string(), version: z.number().int() }),
  );
  return row ?? null;
}

export async function insertBatch(
  tx: Executor,
  batch: { paymentCount: number; totalClp: string; userId: string },
): Promise<string> {
  const [row] = await queryRows(
    tx,
    sql`insert into payment_batches (payment_count, total_clp, created_by, updated_by)
        values (${batch.paymentCount}, ${batch.totalClp}, ${batch.userId}, ${batch.userId})
        returning id`,
    z.object({ id: z.string() }),
  );
  return row!.id;
}

export interface NewBatchItem {
  flowId: string;
  brokerId: string;
  brokerRut: string;
  brokerName: string;
  bankName: string;
  bankAccountType: string;
  bankAccountNumber: string;
  holderName: string;
  holderRut: string;
  email: string | null;
  amountClp: string;
  reference: string;
}

/** The batch's lines in one statement, in the order given. */
export async function insertItems(
  tx: Executor,
  batchId: string,
  items: readonly NewBatchItem[],
): Promise<void> {
  const rows = items.map(
    (item, index) =>
      sql`(${batchId}, ${item.flowId}, ${index + 1}, ${item.brokerId}, ${item.brokerRut}, ${item.brokerName},
           ${item.bankName}, ${item.bankAccountType}, ${item.bankAccountNumber}, ${item.holderName},
           ${item.holderRut}, ${item.email}, ${item.amountClp}, ${item.reference})`,
  );
  await tx.execute(
    sql`insert into payment_batch_items (batch_id, flow_id, sort_order, broker_id, broker_rut, broker_name,
          bank_name, bank_account_type, bank_account_number, holder_name, holder_rut, email, amount_clp, reference)
        values ${sql.join(rows, sql`, `)}`,
  );
}

/** The batch paid on a day, by a user; its payments leave the open batches. */
export async function updateBatchPaid(
  tx: Executor,
  id: string,
  paid: { paidDate: string; userId: string; at: Date },
): Promise<void> {
  await tx.execute(
    sql`update payment_batches
           set status = 'paid', paid_date = ${paid.paidDate}, paid_by = ${paid.userId},
               paid_at = ${paid.at.toISOString()}, updated_by = ${paid.userId}, updated_at = now(),
               version = version + 1
         where id = ${id}`,
  );
  await tx.execute(sql`update payment_batch_items set is_open = false where batch_id = ${id}`);
}

/** The batch cancelled: its payments may go into another batch. */
export async function updateBatchCancelled(
  tx: Executor,
  id: string,
  cancelled: { userId: string; at: Date },
): Promise<void> {
  await tx.execute(
    sql`update payment_batches
           set status = 'cancelled', cancelled_by = ${cancelled.userId}, cancelled_at = ${cancelled.at.toISOString()},
               updated_by = ${cancelled.userId}, updated_at = now(), version = version + 1
         where id = ${id}`,
  );
  await tx.execute(sql`update payment_batch_items set is_open = false where batch_id = ${id}`);
}

const personName = (alias: string) =>
  sql.raw(`nullif(trim(coalesce(${alias}.first_name, '') || ' ' || coalesce(${alias}.last_name, '')), '')`);

const batchRowColumns = {
  id: sql`pb.id`,
  number: sql`pb.number`,
  status: sql`pb.status`,
  paymentCount: sql`pb.payment_count`,
  totalClp: sql`pb.total_clp::text`,
  createdAt: isoInstant(sql`pb.created_at`),
  createdByName: personName('creator'),
  paidDate: sql`pb.paid_date::text`,
  paidByName: personName('payer'),
} satisfies Record<keyof PaymentBatchRow, unknown>;

const batchFrom = sql`payment_batches pb
  left join profiles creator on creator.id = pb.created_by
  left join profiles payer on payer.id = pb.paid_by`;

/** The batches, newest first (payment_batches_created_idx). */
export function listBatches(
  db: Executor,
  query: { page: number; pageSize: number },
): Promise<Page<PaymentBatchRow>> {
  return selectPage<PaymentBatchRow>(db, {
    columns: batchRowColumns,
    from: batchFrom,
    countFrom: sql`payment_batches pb`,
    orderBy: [sql`pb.created_at desc`, sql`pb.id desc`],
    page: query.page,
    pageSize: query.pageSize,
  });
}

const batchDetail = z.object({
  id: z.string(),
  number: z.number().int(),
  status: z.enum(PAYMENT_BATCH_STATUSES),
  paymentCount: z.number().int(),
  totalClp: z.string(),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  paidDate: z.string().nullable(),
  paidByName: z.string().nullable(),
  paidAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  version: z.number().int(),
});
export type BatchDetail = z.infer<typeof batchDetail>;

export async function findBatch(db: Executor, id: string): Promise<BatchDetail | null> {
  const columns = Object.entries(batchRowColumns).map(
    ([alias, expression]) => sql`${expression} as ${sql.identifier(alias)}`,
  );
  const [row] = await queryRows(
    db,
    sql`select ${sql.join(columns, sql`, `)}, ${isoInstant(sql`pb.paid_at`)} as "paidAt",
               ${isoInstant(sql`pb.cancelled_at`)} as "cancelledAt", pb.version
          from ${batchFrom} where pb.id = ${id}`,
    batchDetail,
  );
  return row ?? null;
}

const batchLineRow = z.object({
  sortOrder: z.number().int(),
  flowId: z.string(),
  reservationId: z.string(),
  reservationNumber: z.string(),
  paymentNumber: z.number().int(),
  brokerRut: z.string(),
  brokerName: z.string(),
  bankName: z.string(),
  bankAccountType: z.string(),
  bankAccountNumber: z.string(),
  holderName: z.string(),
  holderRut: z.string(),
  amountClp: z.string(),
  reference: z.string(),
  email: z.string().nullable(),
  accountChangedSince: z.boolean(),
});

/** A batch's lines in order, after `after` (keyset: the export reads them in chunks). */
export async function listLines(
  db: Executor,
  batchId: string,
  after: number | null,
  limit: number,
): Promise<(BatchLine & { sortOrder: number })[]> {
  return queryRows(
    db,
    sql`select i.sort_order as "sortOrder", i.flow_id as "flowId", f.reservation_id as "reservationId",
               r.reservation_number as "reservationNumber",
               (case when f.is_second_payment then 2 else 1 end)::int as "paymentNumber",
               i.broker_rut as "brokerRut", i.broker_name as "brokerName", i.bank_name as "bankName",
               i.bank_account_type as "bankAccountType", i.bank_account_number as "bankAccountNumber",
               i.holder_name as "holderName", i.holder_rut as "holderRut",
               i.amount_clp::text as "amountClp", i.reference, i.email,
               (b.bank_name, b.bank_account_type, b.bank_account_number, b.bank_holder_name, b.bank_holder_rut)
                 is distinct from (i.bank_name, i.bank_account_type, i.bank_account_number, i.holder_name, i.holder_rut)
                 as "accountChangedSince"
          from payment_batch_items i
          join brokers b on b.id = i.broker_id
          join flows f on f.id = i.flow_id
          join reservations r on r.id = f.reservation_id
         where i.batch_id = ${batchId} and i.sort_order > ${after ?? 0}
         order by i.sort_order
         limit ${limit}`,
    batchLineRow,
  );
}

/** The flows of a batch with their last open task, in the batch's order (marking it paid). */
export async function listBatchFlows(
  tx: Executor,
  batchId: string,
): Promise<{ flowId: string; reservationNumber: string; paymentNumber: number }[]> {
  return queryRows(
    tx,
    sql`select i.flow_id as "flowId", r.reservation_number as "reservationNumber",
               (case when f.is_second_payment then 2 else 1 end)::int as "paymentNumber"
          from payment_batch_items i
          join flows f on f.id = i.flow_id
          join reservations r on r.id = f.reservation_id
         where i.batch_id = ${batchId}
         order by i.sort_order`,
    z.object({ flowId: z.string(), reservationNumber: z.string(), paymentNumber: z.number().int() }),
  );
}

// --- payment_settings (one row, issue 53) ---------------------------------------------------------

const settingsRow = z.object({
  tolerancePerUf: z.string(),
  paidDateBusinessDays: z.number().int(),
  bankFileLayout: z.unknown().nullable(),
  version: z.number().int(),
});
export type StoredPaymentSettings = z.infer<typeof settingsRow>;

export async function findSettings(db: Executor): Promise<StoredPaymentSettings> {
  const [row] = await queryRows(
    db,
    sql`select tolerance_per_uf::text as "tolerancePerUf", paid_date_business_days as "paidDateBusinessDays",
               bank_file_layout as "bankFileLayout", version
          from payment_settings where id`,
    settingsRow,
  );
  return row!;
}

/** Saves the settings read at `version`; false when another change came first. */
export async function updateSettings(
  tx: Executor,
  values: { tolerancePerUf: string; paidDateBusinessDays: number; bankFileLayout: unknown; version: number },
  userId: string,
): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`update payment_settings
           set tolerance_per_uf = ${values.tolerancePerUf}, paid_date_business_days = ${values.paidDateBusinessDays},
               bank_file_layout = ${values.bankFileLayout === null ? null : JSON.stringify(values.bankFileLayout)}::jsonb,
               updated_by = ${userId}, updated_at = now(), version = version + 1
         where id and version = ${values.version}
         returning version`,
    z.object({ version: z.number().int() }),
  );
  return rows.length > 0;
}
