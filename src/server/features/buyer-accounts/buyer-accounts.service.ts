import type { z } from 'zod';
import {
  allocate,
  buildPlan,
  clpToUf,
  daysLate,
  formatPlanUf,
  MAX_INSTALLMENTS,
  monthsBetween,
  sumUf,
  UF_PLACES,
} from '../../../shared/buyer-plan';
import { dec } from '../../../shared/domain/decimal';
import { santiagoDateOf } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import type {
  BuyerAccount,
  BuyerPlan,
  buyerPaymentBody,
  buyerPlanBody,
  buyerReversalBody,
  OverdueQuery,
  OverdueRow,
  pieWaiverBody,
} from '../../../shared/schemas/buyer-accounts';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import type { Page } from '../../db/paging';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as ufValues from '../uf-values/uf-values.service';
import * as queries from './buyer-accounts.queries';
import { type StatementHeading, statementPdf } from './statement';

/**
 * The buyer's account (issue 60, decision 0073): a reservation's payment plan, built from its figures;
 * the payments received, applied oldest line first; reversals; the overdue list; and the gate of
 * 'PENDIENTE CARTA PIE' the workflow engine asks (decision 0074). Only this feature writes its tables.
 */

type UserContext = Pick<ServiceContext, 'db' | 'user' | 'now'>;

function todayOf(ctx: Pick<ServiceContext, 'now'>) {
  return santiagoDateOf(ctx.now);
}

/** How many cuotas fit between the promise and the expected deed (all of them without a deed date). */
function maxInstallmentsOf(figures: queries.ReservationFigures): number {
  if (!figures.promiseDate || !figures.deedDate) return MAX_INSTALLMENTS;
  return Math.max(1, monthsBetween(figures.promiseDate, figures.deedDate));
}

async function requireFigures(db: Executor, reservationId: string) {
  const figures = await queries.findReservationFigures(db, reservationId);
  if (!figures) throw new AppError('RESERVATION_NOT_FOUND');
  return figures;
}

function planView(
  plan: queries.PlanRow,
  lines: queries.LineRow[],
  payments: Awaited<ReturnType<typeof queries.paymentsOf>>,
  today: string,
): BuyerPlan {
  const totalAmount = sumUf(lines.map((line) => line.amount));
  const balance = dec(totalAmount).minus(dec(plan.paidAmount));
  const overdue = lines
    .filter((line) => line.isOpen && line.dueDate < today)
    .reduce((sum, line) => sum.plus(dec(line.amount)).minus(dec(line.paidAmount)), dec(0));
  return {
    ...plan,
    lines: lines.map((line) => ({
      ...line,
      daysLate: line.isOpen ? Math.max(0, daysLate(line.dueDate, today)) : 0,
    })),
    payments: payments.map((payment) => ({ ...payment, isReversed: payment.reversedAt !== null })),
    totalAmount,
    paidAmount: dec(plan.paidAmount).toFixed(UF_PLACES),
    balance: balance.toFixed(UF_PLACES),
    overdueAmount: overdue.toFixed(UF_PLACES),
    deedBalance: balance.plus(dec(plan.creditAmount)).plus(dec(plan.subsidyAmount)).toFixed(UF_PLACES),
    isPiePaid: balance.lte(0),
    pieWaiver:
      plan.pieWaivedReason && plan.pieWaivedAt
        ? { reason: plan.pieWaivedReason, at: plan.pieWaivedAt, byName: plan.pieWaivedByName }
        : null,
  };
}

/** The reservation's account: its figures, its plan with lines and payments, what the viewer may do. */
export async function account(ctx: UserContext, reservationId: string): Promise<BuyerAccount> {
  const [figures, plan] = await Promise.all([
    requireFigures(ctx.db, reservationId),
    queries.findPlan(ctx.db, reservationId),
  ]);
  const [lines, payments] = plan
    ? await Promise.all([queries.linesOf(ctx.db, plan.id), queries.paymentsOf(ctx.db, plan.id)])
    : [[], []];
  const open = !figures.isRescinded;
  return {
    reservationId: figures.id,
    reservationNumber: figures.reservationNumber,
    isRescinded: figures.isRescinded,
    figures: {
      reservationDate: figures.reservationDate,
      reservationPayment: figures.reservationPayment,
      promisePayment: figures.promisePayment,
      downPayment: figures.downPayment,
      creditPayment: figures.creditPayment,
      subsidyPayment: figures.subsidyPayment,
      promiseDate: figures.promiseDate,
      deedDate: figures.deedDate,
      maxInstallments: maxInstallmentsOf(figures),
    },
    plan: plan ? planView(plan, lines, payments, todayOf(ctx)) : null,
    may: {
      plan: open && plan === null && can(ctx.user, 'buyerAccounts.plan'),
      recordPayments: open && plan !== null && can(ctx.user, 'buyerAccounts.payments'),
      waivePie:
        open &&
        plan !== null &&
        plan.pieWaivedAt === null &&
        dec(plan.paidAmount).lt(sumUf(lines.map((line) => line.amount))) &&
        can(ctx.user, 'buyerAccounts.waivePie'),
    },
  };
}

/**
 * The plan from the reservation's figures as they are now (UF): reserva at the reservation date,
 * promesa at the promise date, the pie in N monthly cuotas after it, each summing exactly; crédito and
 * subsidio recorded for the balance at the deed. One plan per reservation (a second answers 409).
 */
export async function createPlan(
  ctx: UserContext,
  reservationId: string,
  body: z.output<typeof buyerPlanBody>,
): Promise<BuyerAccount> {
  if (!can(ctx.user, 'buyerAccounts.plan')) throw new AppError('BUYER_PLAN_FORBIDDEN');
  await ctx.db.transaction(async (tx) => {
    const figures = await requireFigures(tx, reservationId);
    if (figures.isRescinded) throw new AppError('BUYER_PLAN_RESCINDED');
    if (!figures.promiseDate) throw new AppError('BUYER_PLAN_NO_PROMISE_DATE');
    const max = maxInstallmentsOf(figures);
    if (figures.deedDate && body.installmentCount > max) {
      throw new AppError('BUYER_PLAN_AFTER_DEED', {
        params: { count: body.installmentCount, deedDate: formatDay(figures.deedDate), max },
      });
    }
    const lines = buildPlan({
      reservationDate: figures.reservationDate,
      reservationUf: figures.reservationPayment,
      promiseDate: figures.promiseDate,
      promiseUf: figures.promisePayment,
      downPaymentUf: figures.downPayment,
      installmentCount: body.installmentCount,
    });
    if (lines.length === 0) throw new AppError('BUYER_PLAN_NOTHING_TO_PAY');
    if (await queries.findPlan(tx, reservationId)) throw new AppError('BUYER_PLAN_EXISTS');
    const uf = (value: string) => dec(value).toFixed(UF_PLACES);
    await queries
      .insertPlan(
        tx,
        {
          reservationId,
          reservationAmount: uf(figures.reservationPayment),
          promiseAmount: uf(figures.promisePayment),
          downPaymentAmount: uf(figures.downPayment),
          installmentCount: body.installmentCount,
          creditAmount: uf(figures.creditPayment),
          subsidyAmount: uf(figures.subsidyPayment),
          promiseDate: figures.promiseDate,
          expectedDeedDate: figures.deedDate,
          createdBy: ctx.user.id,
          updatedBy: ctx.user.id,
        },
        lines.map((line, index) => ({
          reservationId,
          sortOrder: index + 1,
          kind: line.kind,
          number: line.number,
          dueDate: line.dueDate,
          amount: line.amountUf,
        })),
      )
      .catch((error: unknown) => {
        // Two people building the same plan at once: the unique reservation answers the second.
        if (isUniqueViolation(error, 'buyer_plans_reservation_id_unique'))
          throw new AppError('BUYER_PLAN_EXISTS');
        throw error;
      });
  });
  return account(ctx, reservationId);
}

function formatDay(date: string) {
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year}`;
}

/** After a payment or a reversal, under the plan's lock: the lines' paid amounts from the total paid. */
async function reallocateIn(tx: Executor, planId: string, userId: string, at: Date) {
  const [lines, paid] = await Promise.all([queries.linesOf(tx, planId), queries.paidTotalOf(tx, planId)]);
  const { paidUf } = allocate(
    lines.map((line) => ({ amountUf: line.amount })),
    paid,
  );
  const changed = lines.flatMap((line, index) => {
    const paidAmount = paidUf[index]!;
    return dec(paidAmount).eq(dec(line.paidAmount))
      ? []
      : [{ id: line.id, paidAmount, isOpen: dec(paidAmount).lt(dec(line.amount)) }];
  });
  await queries.updatePaid(tx, planId, dec(paid).toFixed(UF_PLACES), changed, userId, at);
}

function requirePaymentsTeam(ctx: Pick<ServiceContext, 'user'>) {
  if (!can(ctx.user, 'buyerAccounts.payments')) throw new AppError('BUYER_PAYMENT_FORBIDDEN');
}

/**
 * A payment received: in UF, or in pesos at that day's UF value (both kept); applied to the oldest
 * open line first. More than what the plan still asks is refused: nothing is left unapplied.
 */
export async function recordPayment(
  ctx: UserContext,
  reservationId: string,
  body: z.output<typeof buyerPaymentBody>,
): Promise<BuyerAccount> {
  requirePaymentsTeam(ctx);
  if (body.paidDate > todayOf(ctx)) throw new AppError('BUYER_PAYMENT_FUTURE');
  await ctx.db.transaction(async (tx) => {
    const figures = await requireFigures(tx, reservationId);
    if (figures.isRescinded) throw new AppError('BUYER_PLAN_RESCINDED');
    const plan = await queries.lockPlan(tx, reservationId);
    if (!plan) throw new AppError('BUYER_PLAN_NOT_FOUND');
    let amount = body.amount;
    let ufValue: string | null = null;
    if (body.currency === 'CLP') {
      ufValue = await ufValues.valueOn(tx, body.paidDate);
      if (!ufValue)
        throw new AppError('BUYER_PAYMENT_UF_MISSING', { params: { date: formatDay(body.paidDate) } });
      amount = clpToUf(body.amount, ufValue);
    }
    const [lines, paid] = await Promise.all([queries.linesOf(tx, plan.id), queries.paidTotalOf(tx, plan.id)]);
    const balance = dec(sumUf(lines.map((line) => line.amount))).minus(dec(paid));
    if (dec(amount).gt(balance) || dec(amount).lte(0)) {
      throw new AppError('BUYER_PAYMENT_EXCEEDS_BALANCE', {
        params: { amount: ufText(amount), balance: ufText(balance.toFixed(UF_PLACES)) },
      });
    }
    await queries.insertPayment(tx, {
      planId: plan.id,
      reservationId,
      paidDate: body.paidDate,
      amount: dec(amount).toFixed(UF_PLACES),
      amountClp: body.currency === 'CLP' ? body.amount : null,
      ufValue,
      means: body.means,
      documentNumber: body.documentNumber,
      createdBy: ctx.user.id,
    });
    await reallocateIn(tx, plan.id, ctx.user.id, ctx.now);
  });
  return account(ctx, reservationId);
}

/** '1.234,5678' as the message shows a UF amount. */
function ufText(amount: string) {
  return formatPlanUf(amount).slice(3);
}
/** A payment reversed (a returned cheque): kept with who, when and why; the lines re-applied without it. */
export async function reversePayment(
  ctx: UserContext,
  reservationId: string,
  paymentId: string,
  body: z.output<typeof buyerReversalBody>,
): Promise<BuyerAccount> {
  requirePaymentsTeam(ctx);
  await ctx.db.transaction(async (tx) => {
    const plan = await queries.lockPlan(tx, reservationId);
    if (!plan) throw new AppError('BUYER_PAYMENT_NOT_FOUND');
    const payment = await queries.findPayment(tx, plan.id, paymentId);
    if (!payment) throw new AppError('BUYER_PAYMENT_NOT_FOUND');
    if (payment.reversedAt) throw new AppError('BUYER_PAYMENT_ALREADY_REVERSED');
    const done = await queries.updatePaymentReversed(tx, {
      planId: plan.id,
      paymentId,
      version: body.version,
      reason: body.reason,
      userId: ctx.user.id,
      at: ctx.now,
    });
    if (!done) throw new AppError('STALE_VERSION');
    await reallocateIn(tx, plan.id, ctx.user.id, ctx.now);
  });
  return account(ctx, reservationId);
}

/** An administrator lets 'PENDIENTE CARTA PIE' complete with the pie unpaid, saying why (audited). */
export async function waivePie(
  ctx: UserContext,
  reservationId: string,
  body: z.output<typeof pieWaiverBody>,
): Promise<BuyerAccount> {
  if (!can(ctx.user, 'buyerAccounts.waivePie')) throw new AppError('PIE_WAIVER_FORBIDDEN');
  await ctx.db.transaction(async (tx) => {
    const plan = await queries.lockPlan(tx, reservationId);
    if (!plan) throw new AppError('BUYER_PLAN_NOT_FOUND');
    const pie = await queries.findPieState(tx, reservationId);
    if (plan.pieWaivedAt || !pie || dec(pie.balance).lte(0)) throw new AppError('PIE_ALREADY_SETTLED');
    const done = await queries.updatePieWaived(tx, {
      planId: plan.id,
      version: body.version,
      reason: body.reason,
      userId: ctx.user.id,
      at: ctx.now,
    });
    if (!done) throw new AppError('STALE_VERSION');
  });
  return account(ctx, reservationId);
}

/** 'Cuotas vencidas': one page, one statement, oldest due first. */
export function overdue(
  ctx: Pick<ServiceContext, 'db' | 'now'>,
  query: OverdueQuery,
): Promise<Page<OverdueRow>> {
  return queries.selectOverdue(ctx.db, query, todayOf(ctx));
}

/**
 * The gate of 'PENDIENTE CARTA PIE' (decision 0074), asked by the workflow engine inside a command's
 * transaction when the task completes: refused while the reservation's plan has a balance, unless an
 * administrator waived it. A reservation without a plan is not gated (its pie is tracked by hand).
 */
export async function requirePieSettledIn(tx: Executor, reservationId: string): Promise<void> {
  const pie = await queries.findPieState(tx, reservationId);
  if (!pie || pie.isWaived || dec(pie.balance).lte(0)) return;
  throw new AppError('PIE_NOT_PAID', { params: { balance: ufText(pie.balance) } });
}

/** The statement's heading and the account with its plan: what the PDF and the XLSX show. */
export async function statementOf(
  ctx: UserContext,
  reservationId: string,
): Promise<{ heading: StatementHeading; account: BuyerAccount; plan: BuyerPlan }> {
  const [heading, current] = await Promise.all([
    queries.findStatementHeading(ctx.db, reservationId),
    account(ctx, reservationId),
  ]);
  if (!heading || !current.plan) throw new AppError('BUYER_PLAN_NOT_FOUND');
  return { heading, account: current, plan: current.plan };
}

/** 'Estado de cuenta' as a PDF: the same account, the same bytes. */
export async function statementPdfOf(ctx: UserContext, reservationId: string) {
  const { heading, account: current, plan } = await statementOf(ctx, reservationId);
  return {
    fileName: `estado-de-cuenta-${heading.reservationNumber}.pdf`,
    bytes: await statementPdf(heading, current, plan),
  };
}
