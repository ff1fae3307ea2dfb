import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { BROKER_INVOICE_KINDS, BROKER_INVOICE_SOURCES } from '../../../shared/domain/broker-invoices';
import { type Executor, isoInstant, queryRows } from '../../db/client';
import { brokerInvoices } from '../../db/schema';

/** The only SQL that writes `broker_invoices` (decision 0039); reads join the flow, commission and broker. */

/** Locks the flow row: recording an invoice and completing its task run one at a time. */
export async function lockFlow(tx: Executor, flowId: string): Promise<boolean> {
  const rows = await queryRows(tx, sql`select f.id from flows f where f.id = ${flowId} for update`);
  return rows.length > 0;
}

/** A flow's kind ('sale' or 'payment'), or null when there is no such flow. */
export async function findFlowKind(db: Executor, flowId: string): Promise<string | null> {
  const [row] = await queryRows(
    db,
    sql`select f.kind from flows f where f.id = ${flowId}`,
    z.object({ kind: z.string() }),
  );
  return row?.kind ?? null;
}

const invoiceSubject = z.object({
  flowId: z.string(),
  flowKind: z.string(),
  flowStatus: z.string(),
  reservationId: z.string(),
  isSecondPayment: z.boolean(),
  subjectClosed: z.boolean(),
  taskRowId: z.string(),
  workflowTaskId: z.string(),
  taskName: z.string(),
  taskStatus: z.string(),
  recordsBrokerInvoice: z.boolean(),
  commissionAmount: z.string(),
  numberOfPayments: z.number().int(),
  firstPaymentPercentage: z.number().int(),
  commissionIncludesTax: z.boolean(),
  paymentDate: z.string().nullable(),
  paymentClp: z.string().nullable(),
  paymentUfValue: z.string().nullable(),
  brokerId: z.string(),
  brokerRut: z.string(),
  brokerName: z.string(),
  commissionId: z.string(),
});
export type InvoiceSubject = z.infer<typeof invoiceSubject>;

const subjectColumns = sql`
  f.id as "flowId", f.kind as "flowKind", f.status as "flowStatus", f.reservation_id as "reservationId",
  f.is_second_payment as "isSecondPayment",
  coalesce((select r.is_rescinded from reservations r where r.id = f.reservation_id), false) as "subjectClosed",
  ft.id as "taskRowId", wt.id as "workflowTaskId", wt.name as "taskName", ft.status as "taskStatus",
  wt.records_broker_invoice as "recordsBrokerInvoice",
  c.commission_amount::text as "commissionAmount", c.number_of_payments as "numberOfPayments",
  c.first_payment_percentage as "firstPaymentPercentage", c.commission_includes_tax as "commissionIncludesTax",
  (case when f.is_second_payment then c.payment_2_date else c.payment_1_date end)::text as "paymentDate",
  (case when f.is_second_payment then c.payment_2_clp else c.payment_1_clp end)::text as "paymentClp",
  (case when f.is_second_payment then c.payment_2_uf_value else c.payment_1_uf_value end)::text as "paymentUfValue",
  b.id as "brokerId", b.rut as "brokerRut", b.name as "brokerName", c.id as "commissionId"`;

const subjectFrom = sql`
  from flows f
  join flow_tasks ft on ft.flow_id = f.id
  join workflow_tasks wt on wt.id = ft.task_id
  join broker_commissions c on c.id = f.broker_commission_id
  join brokers b on b.id = c.broker_id`;

/** A payment flow's task with its payment and broker; null when the task is not the flow's. */
export async function findInvoiceSubject(
  db: Executor,
  flowId: string,
  taskRowId: string,
): Promise<InvoiceSubject | null> {
  const [row] = await queryRows(
    db,
    sql`select ${subjectColumns} ${subjectFrom} where f.id = ${flowId} and ft.id = ${taskRowId}`,
    invoiceSubject,
  );
  return row ?? null;
}

/** The flow's tasks that receive the broker's invoice, in flow order. */
export function listInvoiceSubjectsOf(db: Executor, flowId: string): Promise<InvoiceSubject[]> {
  return queryRows(
    db,
    sql`select ${subjectColumns} ${subjectFrom}
         where f.id = ${flowId} and wt.records_broker_invoice
         order by wt.sort_order`,
    invoiceSubject,
  );
}

/** Of these task rows, the ones that receive the broker's invoice, with their payment and broker. */
export function listInvoiceSubjectsAmong(
  db: Executor,
  taskRowIds: readonly string[],
): Promise<InvoiceSubject[]> {
  if (taskRowIds.length === 0) return Promise.resolve([]);
  return queryRows(
    db,
    sql`select ${subjectColumns} ${subjectFrom}
         where ft.id = any(${`{${taskRowIds.join(',')}}`}::uuid[]) and wt.records_broker_invoice`,
    invoiceSubject,
  );
}

/** The tasks that receive the broker's invoice of these flows, in flow order. */
export function listInvoiceSubjectsOfFlows(
  db: Executor,
  flowIds: readonly string[],
): Promise<InvoiceSubject[]> {
  if (flowIds.length === 0) return Promise.resolve([]);
  return queryRows(
    db,
    sql`select ${subjectColumns} ${subjectFrom}
         where f.id = any(${`{${flowIds.join(',')}}`}::uuid[]) and wt.records_broker_invoice
         order by f.id, wt.sort_order`,
    invoiceSubject,
  );
}

const invoiceRow = z.object({
  id: z.string(),
  flowTaskId: z.string(),
  brokerId: z.string(),
  kind: z.enum(BROKER_INVOICE_KINDS),
  issuerRut: z.string(),
  folio: z.string(),
  issueDate: z.string(),
  receivedDate: z.string(),
  netAmount: z.string().nullable(),
  vatAmount: z.string().nullable(),
  totalAmount: z.string().nullable(),
  grossAmount: z.string().nullable(),
  withholdingAmount: z.string().nullable(),
  payableAmount: z.string().nullable(),
  source: z.enum(BROKER_INVOICE_SOURCES),
  version: z.number().int(),
  acceptedAt: z.string().nullable(),
  acceptedByName: z.string().nullable(),
  acceptanceReason: z.string().nullable(),
});
export type InvoiceRow = z.infer<typeof invoiceRow>;

/** The invoice recorded on a task row, with who accepted its mismatch; null when none. */
export async function findInvoiceOfTask(db: Executor, taskRowId: string): Promise<InvoiceRow | null> {
  const [row] = await queryRows(db, sql`${invoiceSelect} where i.flow_task_id = ${taskRowId}`, invoiceRow);
  return row ?? null;
}

/** The invoices recorded on these task rows, by task row. */
export async function listInvoicesOfTasks(
  db: Executor,
  taskRowIds: readonly string[],
): Promise<Map<string, InvoiceRow>> {
  if (taskRowIds.length === 0) return new Map();
  const rows = await queryRows(
    db,
    sql`${invoiceSelect} where i.flow_task_id = any(${`{${taskRowIds.join(',')}}`}::uuid[])`,
    invoiceRow,
  );
  return new Map(rows.map((row) => [row.flowTaskId, row]));
}

const invoiceSelect = sql`select i.id, i.flow_task_id as "flowTaskId", i.broker_id as "brokerId", i.kind,
               i.issuer_rut as "issuerRut", i.folio, i.issue_date::text as "issueDate",
               i.received_date::text as "receivedDate",
               i.net_amount::text as "netAmount", i.vat_amount::text as "vatAmount",
               i.total_amount::text as "totalAmount", i.gross_amount::text as "grossAmount",
               i.withholding_amount::text as "withholdingAmount", i.payable_amount::text as "payableAmount",
               i.source, i.version,
               ${isoInstant(sql`i.mismatch_accepted_at`)} as "acceptedAt",
               nullif(trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')), '') as "acceptedByName",
               i.mismatch_reason as "acceptanceReason"
          from broker_invoices i
          left join profiles p on p.id = i.mismatch_accepted_by`;

/** The boleta's withholding rates by year (the table seeded by migration 0032). */
export function listWithholdingRates(db: Executor): Promise<{ year: number; rate: string }[]> {
  return queryRows(
    db,
    sql`select year, rate::text as rate from fee_withholding_rates order by year`,
    z.object({ year: z.number().int(), rate: z.string() }),
  );
}

/**
 * Whether the task's checklist (Configuración → Documentos) requires the broker's invoice document:
 * then the task needs the invoice recorded too (decision 0039).
 */
export async function isInvoiceDocumentRequired(db: Executor, workflowTaskId: string): Promise<boolean> {
  const [row] = await queryRows(
    db,
    sql`select exists(select 1 from document_type_requirements r
                        join document_types t on t.id = r.document_type_id and t.is_broker_invoice
                       where r.workflow_task_id = ${workflowTaskId}) as "required"`,
    z.object({ required: z.boolean() }),
  );
  return row?.required === true;
}

/** Whether the broker has another invoice of this kind with this folio (SII folios run per issuer and type). */
export async function isFolioTaken(
  db: Executor,
  brokerId: string,
  kind: string,
  folio: string,
  exceptId: string | null,
): Promise<boolean> {
  const [row] = await queryRows(
    db,
    sql`select exists(select 1 from broker_invoices
                       where broker_id = ${brokerId} and kind = ${kind} and folio = ${folio}
                         and (${exceptId}::uuid is null or id <> ${exceptId}::uuid)) as "taken"`,
    z.object({ taken: z.boolean() }),
  );
  return row?.taken === true;
}

export interface InvoiceValues {
  kind: (typeof BROKER_INVOICE_KINDS)[number];
  issuerRut: string;
  folio: string;
  issueDate: string;
  receivedDate: string;
  netAmount: string | null;
  vatAmount: string | null;
  totalAmount: string | null;
  grossAmount: string | null;
  withholdingAmount: string | null;
  payableAmount: string | null;
  source: (typeof BROKER_INVOICE_SOURCES)[number];
}

export async function insertInvoice(
  tx: Executor,
  subject: { flowTaskId: string; flowId: string; brokerId: string },
  values: InvoiceValues,
  userId: string,
): Promise<void> {
  await tx.insert(brokerInvoices).values({ ...subject, ...values, createdBy: userId, updatedBy: userId });
}

/**
 * Invoices of an import's paid payments (decision 0063), set-based: a task that already has one, or a
 * folio the broker already has for that kind, is left as it is. Answers how many were recorded.
 */
export async function insertImportedInvoices(
  tx: Executor,
  rows: readonly {
    subject: { flowTaskId: string; flowId: string; brokerId: string };
    values: InvoiceValues;
  }[],
  userId: string,
): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await tx
    .insert(brokerInvoices)
    .values(
      rows.map(({ subject, values }) => ({ ...subject, ...values, createdBy: userId, updatedBy: userId })),
    )
    .onConflictDoNothing()
    .returning({ id: brokerInvoices.id });
  return inserted.length;
}

/** The figures replaced (one version further); a changed invoice loses its acceptance. False when stale. */
export async function updateInvoice(
  tx: Executor,
  id: string,
  version: number,
  values: InvoiceValues & { brokerId: string },
  userId: string,
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .update(brokerInvoices)
    .set({
      ...values,
      mismatchAcceptedAt: null,
      mismatchAcceptedBy: null,
      mismatchReason: null,
      updatedBy: userId,
      updatedAt: now,
      version: sql`${brokerInvoices.version} + 1`,
    })
    .where(and(eq(brokerInvoices.id, id), eq(brokerInvoices.version, version)))
    .returning({ id: brokerInvoices.id });
  return rows.length === 1;
}

/** An administrator's acceptance of the mismatch; false when stale. */
export async function updateAcceptance(
  tx: Executor,
  id: string,
  version: number,
  acceptance: { userId: string; reason: string; at: Date },
): Promise<boolean> {
  const rows = await tx
    .update(brokerInvoices)
    .set({
      mismatchAcceptedAt: acceptance.at,
      mismatchAcceptedBy: acceptance.userId,
      mismatchReason: acceptance.reason,
      updatedBy: acceptance.userId,
      updatedAt: acceptance.at,
      version: sql`${brokerInvoices.version} + 1`,
    })
    .where(and(eq(brokerInvoices.id, id), eq(brokerInvoices.version, version)))
    .returning({ id: brokerInvoices.id });
  return rows.length === 1;
}

/**
 * The pesos per UF a rounding may move a payment (Configuración → Pagos, issue 53): read here, the
 * payment batches' setting (its owner writes it).
 */
export async function findTolerancePerUf(db: Executor): Promise<string> {
  const [row] = await queryRows(
    db,
    sql`select tolerance_per_uf::text as value from payment_settings where id`,
    z.object({ value: z.string() }),
  );
  return row?.value ?? '1';
}
