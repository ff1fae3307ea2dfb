import type { z } from 'zod';
import { type BankFileLayoutSpec, bankField, GENERIC_BANK_LAYOUT } from '../../../shared/domain/bank-file';
import { addDays, businessDaysBack } from '../../../shared/domain/business-days';
import { batchTotal, notPayableReasons, paymentReference } from '../../../shared/domain/payment-batches';
import type { FlowCommand } from '../../../shared/domain/workflow/types';
import { formatDate, santiagoDateOf, santiagoInstant } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { allow } from '../../../shared/policies';
import {
  type BankFileLayout,
  type BatchCandidate,
  type BatchCandidates,
  type BatchLine,
  bankFileLayout,
  MAX_BATCH_PAYMENTS,
  type PaymentBatchPage,
  type PaymentBatchView,
  type PaymentSettingsView,
  type paymentBatchListQuery,
  type paymentBatchPaidBody,
  type paymentSettingsBody,
} from '../../../shared/schemas/payment-batches';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { EXPORT_CHUNK_SIZE, keysetChunks } from '../../exports';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as brokerInvoices from '../broker-invoices/broker-invoices.service';
import * as mail from '../mail/mail.service';
import * as workflows from '../workflows/workflows.service';
import * as queries from './payment-batches.queries';

/**
 * 'Nómina de pago' (issue 33, decision 0040): the payments whose 'Fecha de Pago' is open, gathered
 * into a batch for the bank (saved, exported), then marked paid on a day — each payment's last task
 * completed through the workflow engine, all in one transaction, as if each were done by hand.
 */

type Viewer = ServiceContext['user'];

function requireStaff(user: Viewer) {
  if (!can(user, 'paymentBatches.manage')) throw new AppError('PAYMENT_BATCH_FORBIDDEN');
}

/** The payments ready, each with its bank data, amount and why it cannot be paid (if so). */
async function candidatesOf(
  db: Executor,
  options: { flowIds?: readonly string[]; limit: number },
): Promise<BatchCandidate[]> {
  const ready = await queries.listReadyPayments(db, options);
  const invoices = await brokerInvoices.invoiceStatesOf(
    db,
    ready.map((payment) => payment.flowId),
  );
  return ready.map((payment) => {
    const invoice = invoices.get(payment.flowId) ?? { state: 'missing' as const };
    const reasons = notPayableReasons(payment, invoice);
    return {
      flowId: payment.flowId,
      reservationId: payment.reservationId,
      reservationNumber: payment.reservationNumber,
      paymentNumber: payment.isSecondPayment ? (2 as const) : (1 as const),
      brokerId: payment.brokerId,
      brokerRut: payment.brokerRut,
      brokerName: payment.brokerName,
      bankName: payment.bankName,
      bankAccountType: payment.bankAccountType,
      bankAccountNumber: payment.bankAccountNumber,
      holderName: payment.holderName,
      holderRut: payment.holderRut,
      isBankVerified: payment.isBankVerified,
      email: payment.email,
      amountClp: invoice.state === 'ready' ? invoice.amountToPay : null,
      paidAmount: invoice.state === 'ready' ? invoice.explained : null,
      invoiceFolio: invoice.state === 'missing' ? null : invoice.folio,
      reference: paymentReference(payment.reservationNumber, payment.isSecondPayment),
      openBatchNumber: payment.openBatchNumber,
      isPayable: reasons.length === 0,
      notPayableReasons: reasons,
    };
  });
}

/** GET /api/payment-batches/candidates: what the 'Nómina de pago' tab offers to pay. */
export async function listCandidates(ctx: ServiceContext): Promise<BatchCandidates> {
  requireStaff(ctx.user);
  const rows = await candidatesOf(ctx.db, { limit: MAX_BATCH_PAYMENTS + 1 });
  return {
    rows: rows.slice(0, MAX_BATCH_PAYMENTS),
    isCapped: rows.length > MAX_BATCH_PAYMENTS,
    canCreate: true,
  };
}

/**
 * A batch of the chosen payments, in one transaction: each must still wait for its payment date and
 * be payable (bank data, invoice matching or accepted, in no other open batch). The lines copy the
 * bank data and amount as the file will carry them. A payment in another open batch meanwhile: the
 * database's unique index refuses it, with the same message.
 */
export async function create(ctx: ServiceContext, flowIds: readonly string[]): Promise<PaymentBatchView> {
  requireStaff(ctx.user);
  if (new Set(flowIds).size !== flowIds.length) throw new AppError('PAYMENT_BATCH_DUPLICATE_PAYMENT');
  const layout = (await settingsOf(ctx.db)).bankFileLayout ?? GENERIC_BANK_LAYOUT;
  if (flowIds.length > layout.maxRecords) {
    throw new AppError('PAYMENT_BATCH_TOO_MANY_FOR_BANK', {
      params: { layout: layout.name, max: layout.maxRecords },
    });
  }
  let batchId: string;
  try {
    batchId = await ctx.db.transaction(async (tx) => {
      const candidates = await candidatesOf(tx, { flowIds, limit: flowIds.length });
      if (candidates.length !== flowIds.length) throw new AppError('PAYMENT_BATCH_PAYMENT_GONE');
      const byFlow = new Map(candidates.map((candidate) => [candidate.flowId, candidate]));
      const items: queries.NewBatchItem[] = flowIds.map((flowId) => {
        const candidate = byFlow.get(flowId)!;
        if (!candidate.isPayable) {
          throw new AppError('PAYMENT_BATCH_PAYMENT_NOT_READY', {
            params: {
              payment: candidate.paymentNumber,
              reservation: candidate.reservationNumber,
              reason: candidate.notPayableReasons.join('. '),
            },
          });
        }
        return {
          flowId,
          brokerId: candidate.brokerId,
          brokerRut: candidate.brokerRut,
          brokerName: candidate.brokerName,
          bankName: candidate.bankName!,
          bankAccountType: candidate.bankAccountType!,
          bankAccountNumber: candidate.bankAccountNumber!,
          holderName: candidate.holderName!,
          holderRut: candidate.holderRut!,
          email: candidate.email,
          amountClp: candidate.amountClp!,
          reference: candidate.reference,
        };
      });
      const id = await queries.insertBatch(tx, {
        paymentCount: items.length,
        totalClp: batchTotal(items.map((item) => item.amountClp)),
        userId: ctx.user.id,
      });
      await queries.insertItems(tx, id, items);
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'payment_batch_items_open_flow_key'))
      throw new AppError('PAYMENT_BATCH_PAYMENT_TAKEN');
    throw error;
  }
  return get(ctx, batchId);
}

/** GET /api/payment-batches: the batches, newest first. */
export function list(
  ctx: ServiceContext,
  query: z.output<typeof paymentBatchListQuery>,
): Promise<PaymentBatchPage> {
  requireStaff(ctx.user);
  return queries.listBatches(ctx.db, query);
}

async function viewOf(db: Executor, user: Viewer, id: string, now: Date): Promise<PaymentBatchView> {
  const batch = await queries.findBatch(db, id);
  if (!batch) throw new AppError('PAYMENT_BATCH_NOT_FOUND');
  const lines = await queries.listLines(db, id, null, MAX_BATCH_PAYMENTS);
  const open = batch.status === 'open';
  const earliest =
    open && !can(user, 'flows.administer')
      ? (await earliestPaidDate(db, santiagoDateOf(now))).earliest
      : null;
  return {
    ...batch,
    lines: lines.map(({ sortOrder: _sortOrder, ...line }) => line),
    canExport: true,
    canMarkPaid: open,
    canChoosePaidDate: open,
    earliestPaidDate: earliest,
    canCancel: open,
  };
}

/** GET /api/payment-batches/:id: the batch with its lines and what the viewer may do. */
export function get(ctx: ServiceContext, id: string): Promise<PaymentBatchView> {
  requireStaff(ctx.user);
  return viewOf(ctx.db, ctx.user, id, ctx.now);
}

/** The bank file's lines in keyset chunks (checked first: once streaming, an error only cuts the file). */
export async function exportLines(
  ctx: ServiceContext,
  id: string,
): Promise<{ fileName: string; chunks: AsyncIterable<BatchLine[]>; layout: BankFileLayoutSpec }> {
  requireStaff(ctx.user);
  const batch = await queries.findBatch(ctx.db, id);
  if (!batch) throw new AppError('PAYMENT_BATCH_NOT_FOUND');
  const { bankFileLayout: layout } = await settingsOf(ctx.db);
  const chunks = keysetChunks(
    async (after: number | null, limit: number) =>
      (await queries.listLines(ctx.db, id, after, limit)).map(oneLineEach),
    (line) => line.sortOrder,
    EXPORT_CHUNK_SIZE,
  );
  return {
    fileName: `nomina_pago_${batch.number}_${santiagoDateOf(ctx.now)}`,
    chunks,
    layout: layout ?? GENERIC_BANK_LAYOUT,
  };
}

/** A line's texts each on one line (the generic CSV too: a value never adds a physical line). */
function oneLineEach<L extends BatchLine>(line: L): L {
  const out: Record<string, unknown> = { ...line };
  for (const [key, value] of Object.entries(line)) {
    if (typeof value === 'string') out[key] = bankField(value, ';');
  }
  return out as L;
}

/**
 * Marks the batch paid on `paidDate`: in one transaction, under the batch's lock (concurrent marks:
 * the first pays, the rest find it paid), each payment's last open task completed through the
 * workflow engine — today's date as a person completing it now; a past day (administrators) as the
 * task's completion date — so the engine's checks run and the commission's payment date and pesos
 * are frozen exactly as by hand. Any refusal refuses all: nothing is paid.
 */
export async function markPaid(
  ctx: ServiceContext,
  id: string,
  body: z.output<typeof paymentBatchPaidBody>,
): Promise<PaymentBatchView> {
  requireStaff(ctx.user);
  const today = santiagoDateOf(ctx.now);
  if (body.paidDate > today) throw new AppError('PAYMENT_BATCH_PAID_DATE_FUTURE');
  const { earliest, days } = await earliestPaidDate(ctx.db, today);
  if (!allow(ctx.user, 'paymentBatches.markPaid', { paidDate: body.paidDate, today, earliest }))
    throw new AppError('PAYMENT_BATCH_PAID_DATE_ADMIN_ONLY', {
      params: { days, earliest: formatDate(earliest) },
    });
  // A past day: the middle of that Santiago day, so its payment date is that day whatever the offset.
  const completedAt = body.paidDate === today ? undefined : santiagoInstant(body.paidDate, '12:00')!;
  const { view, outcomes } = await ctx.db.transaction(async (tx) => {
    const batch = await queries.lockBatch(tx, id);
    if (!batch) throw new AppError('PAYMENT_BATCH_NOT_FOUND');
    if (batch.status !== 'open') throw new AppError('PAYMENT_BATCH_NOT_OPEN');
    if (batch.version !== body.version) throw new AppError('STALE_VERSION');
    const outcomes: workflows.CommandOutcome[] = [];
    for (const payment of await queries.listBatchFlows(tx, id)) {
      const refused = (reason: string) =>
        new AppError('PAYMENT_BATCH_PAYMENT_REFUSED', {
          params: { payment: payment.paymentNumber, reservation: payment.reservationNumber, reason },
        });
      try {
        outcomes.push(
          await workflows.runCommandsIn(
            tx,
            ctx.user,
            ctx.now,
            payment.flowId,
            (_definition, state): FlowCommand[] => {
              const open = state.tasks.filter((task) => task.status !== 'completed');
              // The batch pays the flow's last task, and only while it is the one left.
              if (open.length !== 1) throw new AppError('PAYMENT_BATCH_PAYMENT_GONE');
              const taskRowId = open[0]!.id;
              return [
                completedAt
                  ? { type: 'setStatus', taskRowId, status: 'completed', completedAt, isBankDate: true }
                  : { type: 'setStatus', taskRowId, status: 'completed' },
              ];
            },
            { kind: 'payment' },
          ),
        );
      } catch (error) {
        if (error instanceof AppError) throw refused(error.message);
        throw error;
      }
    }
    await queries.updateBatchPaid(tx, id, { paidDate: body.paidDate, userId: ctx.user.id, at: ctx.now });
    return { view: await viewOf(tx, ctx.user, id, ctx.now), outcomes };
  });
  for (const outcome of outcomes) workflows.publishOutcome(ctx.events, outcome);
  return view;
}

/** The earliest bank date the payments team may record: N business days back (a setting). */
async function earliestPaidDate(db: Executor, today: string): Promise<{ earliest: string; days: number }> {
  const { paidDateBusinessDays: days } = await queries.findSettings(db);
  // N business days are never more than 2N + 20 calendar days back (weekends and holidays).
  const holidays = await mail.listHolidayDates(db, addDays(today, -(2 * days + 20)), today);
  return { earliest: businessDaysBack(today, days, holidays), days };
}

/** Cancels an open batch (its version read): its payments are free for another batch. */
export async function cancel(ctx: ServiceContext, id: string, version: number): Promise<PaymentBatchView> {
  requireStaff(ctx.user);
  return ctx.db.transaction(async (tx) => {
    const batch = await queries.lockBatch(tx, id);
    if (!batch) throw new AppError('PAYMENT_BATCH_NOT_FOUND');
    if (batch.status !== 'open') throw new AppError('PAYMENT_BATCH_NOT_OPEN');
    if (batch.version !== version) throw new AppError('STALE_VERSION');
    await queries.updateBatchCancelled(tx, id, { userId: ctx.user.id, at: ctx.now });
    return viewOf(tx, ctx.user, id, ctx.now);
  });
}

// --- Configuración → Pagos (issue 53) -------------------------------------------------------------

function layoutOf(stored: unknown): BankFileLayout | null {
  if (stored === null || stored === undefined) return null;
  const parsed = bankFileLayout.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** How money goes out: the tolerance per UF, the bank date's business days, the bank file's layout. */
export async function settingsOf(db: Executor): Promise<Omit<PaymentSettingsView, 'canEdit'>> {
  const stored = await queries.findSettings(db);
  return { ...stored, bankFileLayout: layoutOf(stored.bankFileLayout) };
}

/** GET /api/payment-batches/settings: the payments team and administrators read them. */
export async function getSettings(ctx: ServiceContext): Promise<PaymentSettingsView> {
  requireStaff(ctx.user);
  return { ...(await settingsOf(ctx.db)), canEdit: can(ctx.user, 'paymentSettings.manage') };
}

/** PUT /api/payment-batches/settings: administrators only, at the version read. */
export async function updateSettings(
  ctx: ServiceContext,
  body: z.output<typeof paymentSettingsBody>,
): Promise<PaymentSettingsView> {
  if (!can(ctx.user, 'paymentSettings.manage')) throw new AppError('PAYMENT_SETTINGS_FORBIDDEN');
  await ctx.db.transaction(async (tx) => {
    if (!(await queries.updateSettings(tx, body, ctx.user.id))) throw new AppError('STALE_VERSION');
  });
  return getSettings(ctx);
}
