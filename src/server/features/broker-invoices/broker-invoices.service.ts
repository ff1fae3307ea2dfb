import type { z } from 'zod';
import {
  BROKER_INVOICE_KIND_LABELS,
  checkInvoice,
  claimCountdown,
  explainPaidAmount,
  type InvoiceCheck,
  type PaidAmountExplained,
  type PaymentExpectation,
  roundingTolerance,
  taxedInvoiceOfPayment,
  withholdingRateOf,
} from '../../../shared/domain/broker-invoices';
import { decodeXmlBytes, readDte } from '../../../shared/domain/dte';
import { amountToPay } from '../../../shared/domain/payment-batches';
import { formatRut } from '../../../shared/domain/rut';
import { paymentUf, ufToClp } from '../../../shared/domain/uf';
import { santiagoDateOf } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { allow } from '../../../shared/policies';
import type {
  brokerInvoiceAcceptanceBody,
  brokerInvoiceBody,
  brokerInvoiceXmlBody,
  FlowInvoices,
  InvoiceTaskView,
} from '../../../shared/schemas/broker-invoices';
import type { ReadContext, ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as commissions from '../commissions/commissions.service';
import * as ufValues from '../uf-values/uf-values.service';
import * as queries from './broker-invoices.queries';

/**
 * The broker's invoice on the payment task that receives it (issue 33, decision 0039): recorded by
 * hand or from the SII's XML by the payments team, checked against the payment line by line, a
 * mismatch accepted by an administrator with a reason. Completing the task asks `requireInvoicesIn`
 * under the flow's lock (the workflow engine's one path, as the documents' checklist).
 */

type Viewer = ServiceContext['user'];

/** What the payment expects of the invoice: frozen pesos once dated, else at the issue date's UF. */
async function expectationOf(
  db: Executor,
  subject: queries.InvoiceSubject,
  invoice: Pick<queries.InvoiceRow, 'kind' | 'issueDate'>,
) {
  const ufValue = subject.paymentDate ? null : await ufValues.valueOn(db, invoice.issueDate);
  const rates = invoice.kind === 'fees' ? await queries.listWithholdingRates(db) : [];
  return expectationWith(subject, invoice, ufValue, rates, await queries.findTolerancePerUf(db));
}

/** The expectation from what was read: the issue date's UF value (unused once dated) and the withholding rates. */
function expectationWith(
  subject: queries.InvoiceSubject,
  invoice: Pick<queries.InvoiceRow, 'kind' | 'issueDate'>,
  issueDateUfValue: string | null,
  rates: readonly { year: number; rate: string }[],
  tolerancePerUf: string,
) {
  let clp: string | null;
  let ufValue: string | null;
  let ufDate: string;
  let basis: 'frozen' | 'issueDate';
  if (subject.paymentDate) {
    basis = 'frozen';
    clp = subject.paymentClp;
    ufValue = subject.paymentUfValue;
    ufDate = subject.paymentDate;
  } else {
    basis = 'issueDate';
    ufDate = invoice.issueDate;
    ufValue = issueDateUfValue;
    clp = ufValue === null ? null : ufToClp(paymentUf(subject, subject.isSecondPayment ? 2 : 1), ufValue);
  }
  const payment: PaymentExpectation = {
    brokerRut: subject.brokerRut,
    clp,
    includesVat: subject.commissionIncludesTax,
    withholdingRate: withholdingRateOf(rates, Number(invoice.issueDate.slice(0, 4))),
    // $ 1 per UF paid by default (Configuración → Pagos, issue 53): rounding, not a mismatch.
    tolerance: roundingTolerance(paymentUf(subject, subject.isSecondPayment ? 2 : 1), tolerancePerUf),
  };
  return {
    payment,
    expected: { clp, basis, ufValue, ufDate, includesVat: subject.commissionIncludesTax },
  };
}

/** A payment flow's invoice as a payment batch reads it (decision 0040). */
export type FlowInvoiceState =
  | { state: 'missing' }
  | { state: 'mismatch'; folio: string }
  | {
      state: 'ready';
      folio: string;
      kind: queries.InvoiceRow['kind'];
      amountToPay: string | null;
      /** The amount paid beside UF × the day's value, with the cause of their difference (issue 53). */
      explained: PaidAmountExplained | null;
    };

/**
 * Each payment flow's invoice, for a payment batch (decision 0040): missing, not matching the payment
 * with no administrator's acceptance, or ready (matching or accepted) — the same check as the task's
 * panel, read in a few statements for many flows. Were a flow to have several invoice tasks, each must
 * be ready (the first that is not says why).
 */
export async function invoiceStatesOf(
  db: Executor,
  flowIds: readonly string[],
): Promise<Map<string, FlowInvoiceState>> {
  const states = new Map<string, FlowInvoiceState>();
  if (flowIds.length === 0) return states;
  const subjects = await queries.listInvoiceSubjectsOfFlows(db, flowIds);
  const invoices = await queries.listInvoicesOfTasks(
    db,
    subjects.map((subject) => subject.taskRowId),
  );
  const undated = subjects.filter((subject) => subject.paymentDate === null);
  const dates = undated.flatMap((subject) => {
    const invoice = invoices.get(subject.taskRowId);
    return invoice ? [invoice.issueDate] : [];
  });
  const values = await ufValues.valuesOn(db, [...new Set(dates)]);
  const rates = [...invoices.values()].some((invoice) => invoice.kind === 'fees')
    ? await queries.listWithholdingRates(db)
    : [];
  const tolerancePerUf = await queries.findTolerancePerUf(db);
  for (const subject of subjects) {
    const earlier = states.get(subject.flowId);
    if (earlier && earlier.state !== 'ready') continue;
    const invoice = invoices.get(subject.taskRowId) ?? null;
    if (invoice === null) {
      states.set(subject.flowId, { state: 'missing' });
      continue;
    }
    const { payment } = expectationWith(
      subject,
      invoice,
      values.get(invoice.issueDate) ?? null,
      rates,
      tolerancePerUf,
    );
    const check = checkInvoice(invoice, payment);
    const toPay = amountToPay(invoice);
    states.set(
      subject.flowId,
      check.matches || invoice.acceptedAt !== null
        ? {
            state: 'ready',
            folio: invoice.folio,
            kind: invoice.kind,
            amountToPay: toPay,
            explained:
              toPay === null || payment.clp === null
                ? null
                : explainPaidAmount({
                    kind: invoice.kind,
                    includesVat: payment.includesVat,
                    amountToPay: toPay,
                    ufClp: payment.clp,
                    withholding: invoice.withholdingAmount,
                    tolerance: payment.tolerance!,
                    acceptanceReason: invoice.acceptedAt === null ? null : invoice.acceptanceReason,
                  }),
          }
        : { state: 'mismatch', folio: invoice.folio },
    );
  }
  return states;
}

/** Why completing the task is refused now: no invoice (when its checklist asks for it), or a mismatch not accepted. */
async function refusalOf(
  db: Executor,
  subject: queries.InvoiceSubject,
  invoice: queries.InvoiceRow | null,
  check: InvoiceCheck | null,
): Promise<AppError | null> {
  if (invoice === null) {
    return (await queries.isInvoiceDocumentRequired(db, subject.workflowTaskId))
      ? new AppError('BROKER_INVOICE_MISSING')
      : null;
  }
  if (check === null || check.matches || invoice.acceptedAt !== null) return null;
  const lines = check.lines.filter((line) => !line.matches).map((line) => line.label);
  return new AppError('BROKER_INVOICE_MISMATCH', { params: { lines: lines.join(', ') } });
}

async function checkOf(db: Executor, subject: queries.InvoiceSubject, invoice: queries.InvoiceRow | null) {
  if (invoice === null) return { check: null, expected: null };
  const { payment, expected } = await expectationOf(db, subject, invoice);
  return { check: checkInvoice(invoice, payment), expected };
}

/**
 * Inside a flow command's transaction, under the flow's lock (workflows.runCommandsIn): a task
 * these commands complete that receives the broker's invoice is refused while its invoice is missing
 * (when its checklist requires the invoice's document) or does not match the payment and no
 * administrator accepted the difference.
 */
export async function requireInvoicesIn(tx: Executor, completedTaskRowIds: readonly string[]): Promise<void> {
  const subjects = await queries.listInvoiceSubjectsAmong(tx, completedTaskRowIds);
  for (const subject of subjects) {
    const invoice = await queries.findInvoiceOfTask(tx, subject.taskRowId);
    const { check } = await checkOf(tx, subject, invoice);
    const refusal = await refusalOf(tx, subject, invoice, check);
    if (refusal) throw refusal;
  }
}

async function taskView(
  db: Executor,
  user: Viewer,
  now: Date,
  subject: queries.InvoiceSubject,
): Promise<InvoiceTaskView> {
  const invoice = await queries.findInvoiceOfTask(db, subject.taskRowId);
  const { check, expected } = await checkOf(db, subject, invoice);
  const refusal = await refusalOf(db, subject, invoice, check);
  const open = !subject.subjectClosed && subject.flowStatus !== 'cancelled';
  // The folio is the restricted 'Factura del broker''s fact: shown as the commission's are (decision 0076).
  const foliosShown = commissions.mayReadFolios(user);
  return {
    taskRowId: subject.taskRowId,
    taskName: subject.taskName,
    taskStatus: subject.taskStatus,
    broker: { name: subject.brokerName, rut: subject.brokerRut },
    expected,
    invoice: invoice && {
      id: invoice.id,
      kind: invoice.kind,
      issuerRut: invoice.issuerRut,
      folio: foliosShown ? invoice.folio : null,
      issueDate: invoice.issueDate,
      receivedDate: invoice.receivedDate,
      netAmount: invoice.netAmount,
      vatAmount: invoice.vatAmount,
      totalAmount: invoice.totalAmount,
      grossAmount: invoice.grossAmount,
      withholdingAmount: invoice.withholdingAmount,
      payableAmount: invoice.payableAmount,
      source: invoice.source,
      version: invoice.version,
      acceptance:
        invoice.acceptedAt === null
          ? null
          : {
              byName: invoice.acceptedByName,
              at: invoice.acceptedAt,
              reason: invoice.acceptanceReason ?? '',
            },
    },
    check,
    // Ley 19.983's claim period is a factura's; a boleta de honorarios has none (issue 53).
    claim:
      invoice && invoice.kind !== 'fees' ? claimCountdown(invoice.receivedDate, santiagoDateOf(now)) : null,
    // A completed task has nothing left to block (an administrator may still correct its invoice).
    completionBlock: subject.taskStatus === 'completed' ? null : (refusal?.message ?? null),
    foliosShown,
    canRecord: open && allow(user, 'brokerInvoices.record', { taskStatus: subject.taskStatus }),
    canAccept:
      open &&
      can(user, 'brokerInvoices.accept') &&
      check !== null &&
      !check.matches &&
      invoice?.acceptedAt === null,
  };
}

/** The payment flow's invoice tasks as their panel shows them (any signed-in staff reads). */
export async function listOfFlow(
  ctx: Pick<ReadContext, 'db'> & { user: Viewer; now: Date },
  flowId: string,
): Promise<FlowInvoices> {
  const kind = await queries.findFlowKind(ctx.db, flowId);
  if (kind !== 'payment') throw new AppError('FLOW_NOT_FOUND');
  const subjects = await queries.listInvoiceSubjectsOf(ctx.db, flowId);
  const tasks: InvoiceTaskView[] = [];
  for (const subject of subjects) tasks.push(await taskView(ctx.db, ctx.user, ctx.now, subject));
  return { tasks };
}

// --- Writes -------------------------------------------------------------------------------------------

/** The flow locked and its invoice task read; refuses what is not an invoice task of a payment flow. */
async function lockSubject(tx: Executor, flowId: string, taskRowId: string) {
  if (!(await queries.lockFlow(tx, flowId))) throw new AppError('FLOW_NOT_FOUND');
  const subject = await queries.findInvoiceSubject(tx, flowId, taskRowId);
  if (subject?.flowKind !== 'payment') throw new AppError('TASK_NOT_FOUND');
  if (!subject.recordsBrokerInvoice) throw new AppError('BROKER_INVOICE_TASK_NOT_FOUND');
  return subject;
}

function requireRecorder(user: Viewer, subject?: queries.InvoiceSubject) {
  if (!can(user, 'brokerInvoices.record') && !can(user, 'flows.administer'))
    throw new AppError('BROKER_INVOICE_RECORD_FORBIDDEN');
  if (subject && !allow(user, 'brokerInvoices.record', { taskStatus: subject.taskStatus }))
    throw new AppError('BROKER_INVOICE_TASK_COMPLETED');
  if (subject && (subject.subjectClosed || subject.flowStatus === 'cancelled'))
    throw new AppError('BROKER_INVOICE_FLOW_CLOSED');
}

type ManualBody = z.output<typeof brokerInvoiceBody>;

/** The refusals every recorded invoice goes through, by hand or from its XML (nothing written yet). */
async function checkValues(
  tx: Executor,
  subject: queries.InvoiceSubject,
  values: queries.InvoiceValues,
  today: string,
  exceptId: string | null,
) {
  if (values.issuerRut !== subject.brokerRut) {
    throw new AppError('BROKER_INVOICE_OTHER_RUT', {
      params: { issuer: formatRut(values.issuerRut), broker: formatRut(subject.brokerRut) },
    });
  }
  if (values.issueDate > today) throw new AppError('BROKER_INVOICE_FUTURE_DATE');
  if (values.receivedDate > today || values.receivedDate < values.issueDate)
    throw new AppError('BROKER_INVOICE_RECEIVED_DATE');
  if (await queries.isFolioTaken(tx, subject.brokerId, values.kind, values.folio, exceptId))
    throw folioTaken(values);
}

const folioTaken = (values: Pick<queries.InvoiceValues, 'kind' | 'folio'>) =>
  new AppError('BROKER_INVOICE_FOLIO_TAKEN', {
    params: { kind: BROKER_INVOICE_KIND_LABELS[values.kind].toLowerCase(), folio: values.folio },
  });

/**
 * Creates (no version) or replaces (the version read; stale → 409) the task's invoice, in one
 * transaction under the flow's lock, then answers the task's panel.
 */
async function save(
  ctx: ServiceContext,
  flowId: string,
  taskRowId: string,
  values: queries.InvoiceValues,
  version: number | undefined,
): Promise<{ task: InvoiceTaskView }> {
  requireRecorder(ctx.user);
  const today = santiagoDateOf(ctx.now);
  try {
    const task = await ctx.db.transaction(async (tx) => {
      const subject = await lockSubject(tx, flowId, taskRowId);
      requireRecorder(ctx.user, subject);
      const existing = await queries.findInvoiceOfTask(tx, taskRowId);
      if (version === undefined && existing) throw new AppError('BROKER_INVOICE_EXISTS');
      if (version !== undefined && !existing) throw new AppError('BROKER_INVOICE_NOT_FOUND');
      if (existing && existing.version !== version) throw new AppError('STALE_VERSION');
      await checkValues(tx, subject, values, today, existing?.id ?? null);
      if (existing) {
        const saved = await queries.updateInvoice(
          tx,
          existing.id,
          existing.version,
          { ...values, brokerId: subject.brokerId },
          ctx.user.id,
          ctx.now,
        );
        if (!saved) throw new AppError('STALE_VERSION');
      } else {
        await queries.insertInvoice(
          tx,
          { flowTaskId: taskRowId, flowId, brokerId: subject.brokerId },
          values,
          ctx.user.id,
        );
      }
      // The checked invoice is the record: the commission's 'Factura N' and its date, cited by the PDFs.
      await commissions.recordInvoiceIn(
        tx,
        subject.commissionId,
        subject.isSecondPayment ? 2 : 1,
        { folio: values.folio, issueDate: values.issueDate },
        ctx.user.id,
      );
      return { view: await taskView(tx, ctx.user, ctx.now, subject), reservationId: subject.reservationId };
    });
    ctx.events.publish({ type: 'flow-changed', flowId, reservationId: task.reservationId, userIds: [] });
    return { task: task.view };
  } catch (error) {
    // Two recordings at once: the database's unique keys answer what the checks above would have.
    if (isUniqueViolation(error, 'broker_invoices_folio_key')) throw folioTaken(values);
    if (isUniqueViolation(error, 'broker_invoices_flow_task_id_unique'))
      throw new AppError('BROKER_INVOICE_EXISTS');
    throw error;
  }
}

function manualValues(body: ManualBody, today: string): queries.InvoiceValues {
  return {
    kind: body.kind,
    issuerRut: body.issuerRut,
    folio: body.folio,
    issueDate: body.issueDate,
    receivedDate: body.receivedDate ?? today,
    netAmount: body.netAmount,
    vatAmount: body.vatAmount,
    totalAmount: body.totalAmount,
    grossAmount: body.grossAmount,
    withholdingAmount: body.withholdingAmount,
    payableAmount: body.payableAmount,
    source: 'manual',
  };
}

/** The invoice typed by hand: a new one (POST), or the one recorded corrected (PUT, with its version). */
export function record(
  ctx: ServiceContext,
  flowId: string,
  taskRowId: string,
  body: ManualBody,
): Promise<{ task: InvoiceTaskView }> {
  return save(ctx, flowId, taskRowId, manualValues(body, santiagoDateOf(ctx.now)), body.version);
}

/**
 * The invoice read from the SII's XML (a DTE 33 or 34): refused with the reason when it is not one,
 * or when it was issued by another RUT; recorded as read otherwise.
 */
export function recordXml(
  ctx: ServiceContext,
  flowId: string,
  taskRowId: string,
  body: z.output<typeof brokerInvoiceXmlBody>,
): Promise<{ task: InvoiceTaskView }> {
  requireRecorder(ctx.user);
  const reading = readDte(decodeXmlBytes(Buffer.from(body.content, 'base64')));
  if (!reading.ok) throw new AppError('BROKER_INVOICE_XML_INVALID', { params: { reason: reading.reason } });
  const { invoice } = reading;
  const values: queries.InvoiceValues = {
    kind: invoice.kind,
    issuerRut: invoice.issuerRut,
    folio: invoice.folio,
    issueDate: invoice.issueDate,
    receivedDate: body.receivedDate ?? santiagoDateOf(ctx.now),
    netAmount: invoice.netAmount,
    vatAmount: invoice.vatAmount,
    totalAmount: invoice.totalAmount,
    grossAmount: null,
    withholdingAmount: null,
    payableAmount: null,
    source: 'xml',
  };
  return save(ctx, flowId, taskRowId, values, body.version);
}

/**
 * An administrator accepts the invoice's mismatch with the payment, with a reason (audited on the
 * invoice, in the payment flow's 'Historial'): the task may then be completed.
 */
export async function acceptMismatch(
  ctx: ServiceContext,
  flowId: string,
  taskRowId: string,
  body: z.output<typeof brokerInvoiceAcceptanceBody>,
): Promise<{ task: InvoiceTaskView }> {
  if (!can(ctx.user, 'brokerInvoices.accept')) throw new AppError('BROKER_INVOICE_ACCEPT_FORBIDDEN');
  const task = await ctx.db.transaction(async (tx) => {
    const subject = await lockSubject(tx, flowId, taskRowId);
    if (subject.subjectClosed || subject.flowStatus === 'cancelled')
      throw new AppError('BROKER_INVOICE_FLOW_CLOSED');
    const invoice = await queries.findInvoiceOfTask(tx, taskRowId);
    if (!invoice) throw new AppError('BROKER_INVOICE_NOT_FOUND');
    if (invoice.version !== body.version) throw new AppError('STALE_VERSION');
    const { check } = await checkOf(tx, subject, invoice);
    if (check === null || check.matches) throw new AppError('BROKER_INVOICE_NO_MISMATCH');
    const saved = await queries.updateAcceptance(tx, invoice.id, invoice.version, {
      userId: ctx.user.id,
      reason: body.reason,
      at: ctx.now,
    });
    if (!saved) throw new AppError('STALE_VERSION');
    return { view: await taskView(tx, ctx.user, ctx.now, subject), reservationId: subject.reservationId };
  });
  ctx.events.publish({ type: 'flow-changed', flowId, reservationId: task.reservationId, userIds: [] });
  return { task: task.view };
}

// --- Imports (decisions 0056, 0063): Configuración → Importar records invoices only through this -------

/** A folio as the SII numbers them (the table's check): 1 to 10 digits, no leading zero. */
const SII_FOLIO = /^[1-9][0-9]{0,9}$/;

/**
 * Inside an import's chunk (decision 0063): the invoice numbers ('Factura 1/2') of the payments it
 * imported as paid, recorded on the invoice task of each payment flow it created, so the payment's
 * panel, the batch and the PDF see a checked invoice. The file carries only the number (and maybe its
 * date): a factura afecta with the figures the check expects of the payment's frozen pesos, source
 * 'import'. Left on the commission alone: a number that is not a folio, a payment without frozen pesos
 * (its day's UF value not loaded), a folio the broker already has. Answers how many were recorded.
 */
export async function importForPaidPaymentsIn(
  tx: Executor,
  items: readonly { flowId: string; folio: string; issueDate: string | null }[],
  userId: string,
): Promise<number> {
  const byFlow = new Map(
    items.filter((item) => SII_FOLIO.test(item.folio)).map((item) => [item.flowId, item]),
  );
  if (byFlow.size === 0) return 0;
  const rows: Parameters<typeof queries.insertImportedInvoices>[1][number][] = [];
  const taken = new Set<string>();
  for (const subject of await queries.listInvoiceSubjectsOfFlows(tx, [...byFlow.keys()])) {
    const item = byFlow.get(subject.flowId);
    // The flow's first invoice task; a payment with no pesos has no figures to derive.
    if (!item || taken.has(subject.flowId) || subject.paymentClp === null || subject.paymentDate === null)
      continue;
    taken.add(subject.flowId);
    const day = item.issueDate ?? subject.paymentDate;
    rows.push({
      subject: { flowTaskId: subject.taskRowId, flowId: subject.flowId, brokerId: subject.brokerId },
      values: {
        kind: 'taxed',
        issuerRut: subject.brokerRut,
        folio: item.folio,
        issueDate: day,
        receivedDate: day,
        ...taxedInvoiceOfPayment(subject.paymentClp, subject.commissionIncludesTax),
        grossAmount: null,
        withholdingAmount: null,
        payableAmount: null,
        source: 'import',
      },
    });
  }
  return queries.insertImportedInvoices(tx, rows, userId);
}
