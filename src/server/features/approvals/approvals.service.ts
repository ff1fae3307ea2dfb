import type { z } from 'zod';
import { commissionFigures, reservationFigures } from '../../../shared/domain/pricing';
import { clpFigureOf } from '../../../shared/domain/uf';
import { daysLate, santiagoDaysBetween } from '../../../shared/domain/workflow/days';
import { progressOf } from '../../../shared/domain/workflow/engine';
import type {
  FlowCommand,
  FlowEvent,
  FlowState,
  TaskState,
  WorkflowDefinition,
} from '../../../shared/domain/workflow/types';
import { type ErrorCode, errorMessage } from '../../../shared/errors';
import { isoOrNull, santiagoDateOf } from '../../../shared/format';
import {
  ALL_APPROVALS,
  APPROVALS_FILE_PREFIX,
  type ApprovalDetail,
  type ApprovalListRow,
  type ApproveResult,
  type approvalListQuery,
  type BulkApproveResult,
  DEFAULT_APPROVAL,
} from '../../../shared/schemas/approvals';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import type { Page } from '../../db/paging';
import { keysetChunks } from '../../exports';
import { AppError } from '../../http/app-error';
import * as workflows from '../workflows/workflows.service';
import * as queries from './approvals.queries';

/**
 * Aprobaciones (spec part 2 §2, §4; workflows.md §4): the user's inbox of open approval tasks (every
 * approval of the payment chain, a flag on the definition's tasks), an approval's detail with the
 * chain of its flow, and the decisions. Only the task's assignee or an administrator decides. Approve
 * completes the task through the engine (the next tasks open), one transaction per task; approving a
 * completed task changes nothing and says so. Reject blocks the task and writes 'RECHAZO: {reason}'
 * by the rejecting user, in one transaction. Flow rows are written by the workflows feature only.
 */

type Actor = ServiceContext['user'];

/** The share of the commission a payment flow pays (the first payment, or the second). */
function paymentShare(commission: queries.ApprovalCommissionRow, isSecondPayment: boolean) {
  const figures = commissionFigures(
    {
      commissionAmount: commission.commissionAmount,
      commissionIncludesTax: commission.commissionIncludesTax,
      paysSecondary: commission.paysSecondary,
      numberOfPayments: Number(commission.numberOfPayments) as 1 | 2,
      firstPaymentPercentage: Number(commission.firstPaymentPercentage) as 25 | 50 | 100,
    },
    commission,
  );
  return isSecondPayment
    ? { amount: figures.secondPaymentAmount, percentage: figures.secondPaymentPercentage, figures }
    : { amount: figures.firstPaymentAmount, percentage: figures.firstPaymentPercentage, figures };
}

// --- The inbox ---------------------------------------------------------------------------------------

/** The signed-in user's open approvals of one kind (the spec's 'VB Jefe Inversiones' by default), or all. */
export async function list(
  ctx: Pick<ServiceContext, 'db' | 'user' | 'now'>,
  query: z.output<typeof approvalListQuery>,
): Promise<Page<ApprovalListRow> & { isApprovalFinal: boolean }> {
  const page = await queries.listApprovals(ctx.db, {
    userId: ctx.user.id,
    page: query.page,
    pageSize: query.pageSize,
    ...(await filtersOf(ctx, query)),
  });
  return {
    ...page,
    rows: page.rows.map((row) => listRowOf(row, ctx.now)),
    // Approving completes the task: whether its approver could change it back is the authority's to say.
    isApprovalFinal: workflows.isCompletionFinalFor(ctx.user),
  };
}

/** The list's filters, checked: the spec's approval by default, any approval of the chain, or all. */
async function filtersOf(
  ctx: Pick<ServiceContext, 'db'>,
  query: { approval?: string | undefined; search?: string | undefined },
) {
  const approval = query.approval ?? DEFAULT_APPROVAL;
  // The spec's default needs no check; any other name must be an approval of the chain.
  const known = approval === DEFAULT_APPROVAL || approval === ALL_APPROVALS;
  if (!known && !(await queries.isApprovalName(ctx.db, approval))) {
    throw new AppError('APPROVAL_FILTER_UNKNOWN');
  }
  return {
    search: query.search?.trim() || undefined,
    approval: approval === ALL_APPROVALS ? undefined : approval,
  };
}

function listRowOf(
  { subject: { commission, ...subject }, ...row }: queries.ApprovalListDbRow,
  now: Date,
): ApprovalListRow {
  const share = paymentShare(commission, subject.isSecondPayment);
  const startedAt = row.startedAt ? new Date(row.startedAt) : null;
  return {
    ...row,
    ...subject,
    daysPending: startedAt ? santiagoDaysBetween(startedAt, now) : null,
    daysLate: daysLate({ ...row, completedAt: null }, now),
    commissionAmount: commission.commissionAmount,
    paymentAmount: share.amount,
    paymentPercentage: Number(share.percentage),
  };
}

/**
 * The list's CSV/XLSX: the same filters (checked before the first byte), every row in the list's
 * order, read in keyset chunks of at most 2,000 rows; 'aprobaciones_pendientes_{date}'.
 */
export async function exportRows(
  ctx: Pick<ServiceContext, 'db' | 'user' | 'now'>,
  query: { approval?: string | undefined; search?: string | undefined },
) {
  const filters = await filtersOf(ctx, query);
  let cursor: queries.ApprovalCursor | null = null;
  return {
    fileName: `${APPROVALS_FILE_PREFIX}_${santiagoDateOf(ctx.now)}`,
    sheetName: 'Aprobaciones Pendientes',
    chunks: keysetChunks<ApprovalListRow, queries.ApprovalCursor | null>(
      async (after, limit) => {
        const rows = await queries.listApprovalChunk(
          ctx.db,
          { userId: ctx.user.id, ...filters },
          after,
          limit,
        );
        cursor = rows.at(-1)?.cursor ?? null;
        return rows.map(({ cursor: _cursor, ...row }) => listRowOf(row, ctx.now));
      },
      () => cursor,
    ),
  };
}

/** The filter's choices: every approval of the chain, with the user's open ones of each. */
export async function kinds(ctx: Pick<ServiceContext, 'db' | 'user'>) {
  return { approvals: await queries.approvalKindsOf(ctx.db, ctx.user.id) };
}

// --- Detail ------------------------------------------------------------------------------------------

/**
 * An approval task with everything the detail's cards show; reading never writes (the commission's
 * difference is kept by the commission's own writes, and computed here from `shared/domain`).
 */
export async function get(
  ctx: Pick<ServiceContext, 'db' | 'user' | 'now'>,
  taskRowId: string,
): Promise<ApprovalDetail> {
  const found = await queries.findApprovalTask(ctx.db, taskRowId);
  if (!found) throw new AppError('APPROVAL_NOT_FOUND');
  const [screen, header] = await Promise.all([
    workflows.readFlow(ctx.db, found.flowId),
    queries.findApprovalHeader(ctx.db, found.flowId, santiagoDateOf(ctx.now)),
  ]);
  const { flow, definition, state } = screen;
  const task = state.tasks.find((candidate) => candidate.id === taskRowId);
  if (!header || !task) throw new AppError('APPROVAL_NOT_FOUND');
  const taskDefinitions = new Map(definition.tasks.map((candidate) => [candidate.id, candidate]));
  const stageNames = new Map(definition.stages.map((stage) => [stage.id, stage.name]));
  const chainTasks = state.tasks.filter((candidate) => taskDefinitions.get(candidate.taskId)?.isApproval);
  const people = new Map(
    (
      await queries.listPeopleByIds(
        ctx.db,
        chainTasks.flatMap((candidate) => [
          ...candidate.assignees.map((assignee) => assignee.userId),
          ...(candidate.completedBy ? [candidate.completedBy] : []),
        ]),
      )
    ).map((person) => [person.id, person]),
  );
  const personOf = (id: string | null) => (id ? (people.get(id) ?? null) : null);
  const assigneesOf = (candidate: TaskState) =>
    candidate.assignees.flatMap((assignee) => personOf(assignee.userId) ?? []);
  const rejections = new Map(header.rejections.map((rejection) => [rejection.taskId, rejection]));

  const commissionInput = {
    commissionAmount: header.commission.commissionAmount,
    commissionIncludesTax: header.commission.commissionIncludesTax,
    paysSecondary: header.commission.paysSecondary,
    numberOfPayments: Number(header.commission.numberOfPayments) as 1 | 2,
    firstPaymentPercentage: Number(header.commission.firstPaymentPercentage) as 25 | 50 | 100,
  };
  const totals = reservationFigures(header.prices);
  const figures = commissionFigures(commissionInput, { ...totals, ...header.prices });
  const taskDefinition = taskDefinitions.get(task.taskId)!;
  return {
    task: {
      id: task.id,
      name: taskDefinition.name,
      stageName: stageNames.get(taskDefinition.stageId) ?? '',
      status: task.status,
      startedAt: isoOrNull(task.startedAt),
      completedAt: isoOrNull(task.completedAt),
      daysPending: task.startedAt ? santiagoDaysBetween(task.startedAt, task.completedAt ?? ctx.now) : null,
      daysToComplete: task.daysToComplete,
      daysLate: daysLate(task, ctx.now),
      assignees: assigneesOf(task),
      // Who may approve or reject is the workflow engine's to say (workflows.md §4, issue 26).
      commands: workflows.taskCommandsView(workflows.commandsOf(screen, ctx.user), task),
    },
    flow: {
      id: flow.id,
      status: state.status,
      isSecondPayment: flow.isSecondPayment,
      progress: progressOf(state.tasks),
    },
    client: header.client,
    broker: header.broker,
    reservation: header.reservation,
    commission: {
      commissionAmount: header.commission.commissionAmount,
      commissionIncludesTax: header.commission.commissionIncludesTax,
      netCommission: figures.netCommission,
      commissionForDiscount: header.commission.commissionForDiscount,
      paysSecondary: header.commission.paysSecondary,
      commissionBase: figures.commissionBase,
      commissionPercentage: figures.commissionPercentage,
      numberOfPayments: commissionInput.numberOfPayments,
      firstPaymentAmount: figures.firstPaymentAmount,
      firstPaymentPercentage: figures.firstPaymentPercentage,
      secondPaymentAmount: figures.secondPaymentAmount,
      secondPaymentPercentage: figures.secondPaymentPercentage,
      paymentAmount: flow.isSecondPayment ? figures.secondPaymentAmount : figures.firstPaymentAmount,
      paymentPercentage: flow.isSecondPayment
        ? figures.secondPaymentPercentage
        : figures.firstPaymentPercentage,
      atRisk: header.commission.atRisk,
      atRiskReason: header.commission.atRiskReason,
      // This payment in pesos: frozen once paid, today's estimate while it is approved (issue 33).
      pesos: clpFigureOf({
        amountUf: flow.isSecondPayment ? figures.secondPaymentAmount : figures.firstPaymentAmount,
        paymentDate: flow.isSecondPayment ? header.commission.payment2Date : header.commission.payment1Date,
        frozenClp: flow.isSecondPayment ? header.commission.payment2Clp : header.commission.payment1Clp,
        frozenUfValue: flow.isSecondPayment
          ? header.commission.payment2UfValue
          : header.commission.payment1UfValue,
        today: santiagoDateOf(ctx.now),
        todayUfValue: header.ufToday,
      }),
    },
    prices: {
      apartmentPrice: header.prices.apartmentPrice,
      parkingPrice: header.prices.parkingPrice,
      storagePrice: header.prices.storagePrice,
      totalPrice: totals.totalPrice,
      columnDiscount: header.prices.columnDiscount,
      additionalDiscount: header.prices.additionalDiscount,
      otherDiscount: header.prices.otherDiscount,
      minimumPrice: totals.minimumPrice,
    },
    paymentForm: {
      reservationPayment: header.prices.reservationPayment,
      promisePayment: header.prices.promisePayment,
      downPayment: header.prices.downPayment,
      creditPayment: header.prices.creditPayment,
      subsidyPayment: header.prices.subsidyPayment,
      totalPayment: totals.totalPayment,
    },
    summary: {
      totalPayment: totals.totalPayment,
      recoveryPayment: totals.recoveryPayment,
      minimumPrice: totals.minimumPrice,
      commissionAmount: header.commission.commissionAmount,
      difference: figures.difference,
    },
    chain: chainTasks.map((candidate) => {
      // A rejection stands while the approval stays blocked; once reopened it is history.
      const rejection = candidate.status === 'blocked' ? rejections.get(candidate.id) : undefined;
      return {
        taskId: candidate.id,
        name: taskDefinitions.get(candidate.taskId)!.name,
        status: candidate.status,
        startedAt: isoOrNull(candidate.startedAt),
        completedAt: isoOrNull(candidate.completedAt),
        completedBy: personOf(candidate.completedBy),
        assignees: assigneesOf(candidate),
        rejection: rejection ? { by: rejection.by, at: rejection.at, reason: rejection.reason } : null,
      };
    }),
  };
}

// --- Decisions ---------------------------------------------------------------------------------------

/**
 * The approval task under the flow's lock: it must be an approval task of this flow (its status is
 * the caller's to judge).
 */
function approvalUnderLock(definition: WorkflowDefinition, state: FlowState, taskRowId: string): TaskState {
  const task = state.tasks.find((candidate) => candidate.id === taskRowId);
  const taskDefinition = task && definition.tasks.find((candidate) => candidate.id === task.taskId);
  if (!task || !taskDefinition?.isApproval) throw new AppError('APPROVAL_NOT_FOUND');
  return task;
}

function openedTaskNames(definition: WorkflowDefinition, state: FlowState, events: FlowEvent[]): string[] {
  const names = new Map(definition.tasks.map((task) => [task.id, task.name]));
  const rows = new Map(state.tasks.map((task) => [task.id, task.taskId]));
  return events.flatMap((event) =>
    event.type === 'taskOpened' ? (names.get(rows.get(event.taskRowId) ?? '') ?? []) : [],
  );
}

/** Approve inside the caller's transaction: the engine completes the task and opens what follows. */
async function approveIn(tx: Executor, actor: Actor, now: Date, taskRowId: string) {
  const found = await queries.findApprovalTask(tx, taskRowId);
  if (!found) throw new AppError('APPROVAL_NOT_FOUND');
  let alreadyCompleted = false;
  const outcome = await workflows.runCommandsIn(
    tx,
    actor,
    now,
    found.flowId,
    (definition, state): FlowCommand[] => {
      const task = approvalUnderLock(definition, state, taskRowId);
      // Someone approved it first (a double click, twenty at once): nothing to do, and no refusal.
      alreadyCompleted = task.status === 'completed';
      // The engine decides who may (its assignee or an administrator) and when (an open task).
      return [{ type: 'approve', taskRowId }];
    },
    { kind: 'payment' },
  );
  const result: ApproveResult = {
    taskId: taskRowId,
    flowId: found.flowId,
    outcome: alreadyCompleted ? 'alreadyCompleted' : 'approved',
    openedTasks: openedTaskNames(outcome.definition, outcome.state, outcome.events),
  };
  return { outcome, result };
}

/** 'Aprobar': one task, one transaction; then the live update. */
export async function approve(ctx: ServiceContext, taskRowId: string): Promise<ApproveResult> {
  const { outcome, result } = await ctx.db.transaction((tx) => approveIn(tx, ctx.user, ctx.now, taskRowId));
  workflows.publishOutcome(ctx.events, outcome);
  return result;
}

/**
 * 'Aprobar Seleccionados (n)': each task in its own transaction, in the order given, so one refusal
 * never undoes the others; reports each result (approved, already completed, or failed and why).
 * An unexpected error of one task is reported as such and handed to `onUnexpected` (the log).
 */
export async function approveMany(
  ctx: ServiceContext,
  taskRowIds: readonly string[],
  onUnexpected: (error: unknown, taskRowId: string) => void = () => {},
): Promise<BulkApproveResult> {
  const results: BulkApproveResult['results'] = [];
  for (const taskId of new Set(taskRowIds)) {
    try {
      const result = await approve(ctx, taskId);
      results.push({ taskId, outcome: result.outcome, openedTasks: result.openedTasks });
    } catch (error) {
      if (!(error instanceof AppError)) onUnexpected(error, taskId);
      const [code, message]: [ErrorCode, string] =
        error instanceof AppError ? [error.code, error.message] : ['INTERNAL', errorMessage('INTERNAL')];
      results.push({ taskId, outcome: 'failed', code, message });
    }
  }
  return {
    approved: results.filter((result) => result.outcome === 'approved').length,
    alreadyCompleted: results.filter((result) => result.outcome === 'alreadyCompleted').length,
    results,
  };
}

/**
 * 'Confirmar Rechazo': in one transaction the task becomes blocked, the rejection is recorded (who,
 * when, why) and 'RECHAZO: {reason}' is written by the rejecting user (workflows.md §4) — all by the
 * engine's 'reject' command, or none of it. The comment shows on the payment flow.
 */
export async function reject(ctx: ServiceContext, taskRowId: string, reason: string) {
  const found = await queries.findApprovalTask(ctx.db, taskRowId);
  if (!found) throw new AppError('APPROVAL_NOT_FOUND');
  const outcome = await ctx.db.transaction((tx) =>
    workflows.runCommandsIn(
      tx,
      ctx.user,
      ctx.now,
      found.flowId,
      (definition, state): FlowCommand[] => {
        approvalUnderLock(definition, state, taskRowId);
        return [{ type: 'reject', taskRowId, reason }];
      },
      { kind: 'payment' },
    ),
  );
  workflows.publishOutcome(ctx.events, outcome);
  return { taskId: taskRowId, flowId: found.flowId, status: 'blocked' as const };
}
