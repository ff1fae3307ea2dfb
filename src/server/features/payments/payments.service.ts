import type { z } from 'zod';
import {
  canCreateSecondPayment,
  firstPaymentStanding,
  riskRefusal,
  secondPaymentStanding,
} from '../../../shared/domain/payments';
import { commissionFigures } from '../../../shared/domain/pricing';
import { type ClpFigure, type CommissionPayments, clpFigureOf, paymentUf } from '../../../shared/domain/uf';
import { santiagoDaysBetween } from '../../../shared/domain/workflow/days';
import { progressOf } from '../../../shared/domain/workflow/engine';
import { FIRST_PAYMENT_WORKFLOW, SECOND_PAYMENT_WORKFLOW } from '../../../shared/domain/workflow/names';
import { isoOrNull, santiagoDateOf } from '../../../shared/format';
import type {
  OpenedFlow,
  PaymentFlowDetail,
  PaymentListRow,
  paymentListQuery,
  riskBody,
} from '../../../shared/schemas/payments';
import type { FlowStateView } from '../../../shared/schemas/workflows';
import type { ReadContext, ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import type { Page } from '../../db/paging';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as commissions from '../commissions/commissions.service';
import * as ufValues from '../uf-values/uf-values.service';
import * as workflows from '../workflows/workflows.service';
import * as queries from './payments.queries';

/**
 * The payments' screens (spec part 2 'Pagos', 'Flujo de Pago'; workflows.md §3): the list, the
 * payment flows opened on demand, the flow's detail, 'Proceder con Pago' and the at-risk flag. Flow
 * rows are written by the workflows feature, commission columns by the commissions feature.
 */

export async function list(
  ctx: ReadContext,
  query: z.output<typeof paymentListQuery>,
): Promise<Page<PaymentListRow>> {
  const today = santiagoDateOf(ctx.now ?? new Date());
  const page = await queries.listPayments(ctx.db, {
    page: query.page,
    pageSize: query.pageSize,
    search: query.search?.trim() || undefined,
    today,
  });
  return {
    ...page,
    rows: page.rows.map((row) => ({
      reservationId: row.reservationId,
      reservationNumber: row.reservationNumber,
      projectName: row.projectName,
      projectStage: row.projectStage,
      apartmentNumber: row.apartmentNumber,
      brokerName: row.brokerName,
      isRescinded: row.isRescinded,
      commission: row.commission && {
        id: row.commission.id,
        commissionAmount: row.commission.commissionAmount,
        netCommission: row.commission.netCommission,
        numberOfPayments: row.commission.numberOfPayments,
        firstPaymentPercentage: row.commission.firstPaymentPercentage,
        atRisk: row.commission.atRisk,
      },
      firstFlow: row.firstFlow,
      secondFlow: row.secondFlow,
      payment1: firstPaymentStanding(row),
      payment2: secondPaymentStanding(row),
      canCreateSecondPayment: canCreateSecondPayment(row),
      payment1Pesos: row.commission ? paymentPesos(row.commission, 1, today, row.ufToday) : null,
      payment2Pesos:
        row.commission?.numberOfPayments === 2 ? paymentPesos(row.commission, 2, today, row.ufToday) : null,
    })),
  };
}

/** A payment in pesos: frozen with its date, or today's estimate (decision 0034). */
function paymentPesos(
  commission: Parameters<typeof paymentUf>[0] & CommissionPayments,
  payment: 1 | 2,
  today: string,
  todayUfValue: string | null,
): ClpFigure {
  const first = payment === 1;
  return clpFigureOf({
    amountUf: paymentUf(commission, payment),
    paymentDate: first ? commission.payment1Date : commission.payment2Date,
    frozenClp: first ? commission.payment1Clp : commission.payment2Clp,
    frozenUfValue: first ? commission.payment1UfValue : commission.payment2UfValue,
    today,
    todayUfValue,
  });
}

// --- Flows opened on demand ----------------------------------------------------------------------

/**
 * A row click: the commission's first payment flow, created when none exists (pending, no start,
 * every task blocked). Idempotent: the reservation is locked first, so twenty clicks at once make one
 * flow; the unique index (one first flow per commission) backs it up.
 */
export function openFirstFlow(ctx: ServiceContext, reservationId: string): Promise<OpenedFlow> {
  return openFlow(ctx, reservationId, false);
}

/**
 * 'Crear Segundo Pago': only for a two-payment commission whose first flow is completed; the same
 * flow for every caller once it exists.
 */
export function openSecondFlow(ctx: ServiceContext, reservationId: string): Promise<OpenedFlow> {
  return openFlow(ctx, reservationId, true);
}

async function openFlow(ctx: ServiceContext, reservationId: string, second: boolean): Promise<OpenedFlow> {
  try {
    return await ctx.db.transaction(async (tx) => {
      const subject = await queries.lockCommissionSubject(tx, reservationId);
      if (!subject) throw new AppError('PAYMENT_RESERVATION_NOT_FOUND');
      const existing = second ? subject.secondFlow : subject.firstFlow;
      if (existing) return { flowId: existing.id, created: false };
      if (!subject.isWithBroker) throw new AppError('NO_BROKER_COMMISSION');
      if (!subject.commission) throw new AppError('COMMISSION_NOT_CONFIGURED');
      if (subject.isRescinded) throw new AppError('RESERVATION_RESCINDED');
      if (second) {
        if (subject.commission.numberOfPayments !== 2) throw new AppError('SECOND_PAYMENT_NOT_ALLOWED');
        if (subject.firstFlow?.status !== 'completed') throw new AppError('FIRST_PAYMENT_NOT_COMPLETED');
      }
      const created = await workflows.createFlow(tx, {
        workflowName: second ? SECOND_PAYMENT_WORKFLOW : FIRST_PAYMENT_WORKFLOW,
        reservationId,
        brokerCommissionId: subject.commission.id,
        isSecondPayment: second,
        actorId: ctx.user.id,
        now: ctx.now,
      });
      return { flowId: created.flow.id, created: true };
    });
  } catch (error) {
    // Only reachable if a writer skipped the reservation's lock: the flow exists, answer it.
    if (isUniqueViolation(error, 'flows_payment_commission_key')) {
      const subject = await queries.lockCommissionSubject(ctx.db, reservationId);
      const existing = second ? subject?.secondFlow : subject?.firstFlow;
      if (existing) return { flowId: existing.id, created: false };
    }
    throw error;
  }
}

// --- Detail --------------------------------------------------------------------------------------

/** A payment flow as its screen shows it; 404 unless it exists and is a payment flow. */
export async function get(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'user'>,
  flowId: string,
): Promise<PaymentFlowDetail> {
  const screen = await workflows.readFlowScreen(ctx.db, flowId, queries.findPaymentFlowHeader);
  const { flow, state, definition, header, extras } = screen;
  if (flow.kind !== 'payment' || !header) throw new AppError('FLOW_NOT_FOUND');
  const people = new Map(extras.people.map((person) => [person.id, person]));
  const taskNames = new Map(definition.tasks.map((task) => [task.id, task.name]));
  const statusOfTask = new Map(state.tasks.map((task) => [task.taskId, task.status]));
  const stages = workflows.stagesView(screen, ctx.user, ctx.now, (_task, taskDefinition) => {
    const defaultId = taskDefinition.defaultAssigneeIds[0];
    const person = defaultId ? people.get(defaultId) : undefined;
    return {
      defaultAssignee: person
        ? {
            id: person.id,
            firstName: person.firstName,
            lastName: person.lastName,
            avatarUrl: person.avatarUrl,
          }
        : null,
      // What it still waits for: its prerequisites not completed (a rejected approval waits for none).
      waitsFor: taskDefinition.prerequisiteIds.flatMap((id) =>
        statusOfTask.get(id) === 'completed' ? [] : (taskNames.get(id) ?? []),
      ),
    };
  });

  const { commission, prices } = header;
  const figures = commissionFigures(commission, prices);
  const paysFirst = !flow.isSecondPayment;
  const today = santiagoDateOf(ctx.now);
  const pesos = paymentPesos(commission, paysFirst ? 1 : 2, today, await ufValues.valueOn(ctx.db, today));
  return {
    id: flow.id,
    isSecondPayment: flow.isSecondPayment,
    status: state.status,
    currentStageId: state.currentStageId,
    currentStageName: header.currentStageName,
    startedAt: isoOrNull(state.startedAt),
    completedAt: isoOrNull(state.completedAt),
    elapsedDays: state.startedAt ? santiagoDaysBetween(state.startedAt, state.completedAt ?? ctx.now) : null,
    progress: progressOf(state.tasks),
    reservation: header.reservation,
    saleFlowId: header.saleFlowId,
    client: header.client,
    project: header.project,
    broker: header.broker,
    commission: {
      id: commission.id,
      commissionAmount: commission.commissionAmount,
      commissionPercentage: figures.commissionPercentage,
      numberOfPayments: commission.numberOfPayments,
      firstPaymentPercentage: commission.firstPaymentPercentage,
      paymentPercentage: Number(paysFirst ? figures.firstPaymentPercentage : figures.secondPaymentPercentage),
      paymentAmount: paysFirst ? figures.firstPaymentAmount : figures.secondPaymentAmount,
      atRisk: commission.atRisk,
      atRiskReason: commission.atRiskReason,
      payment1Date: commission.payment1Date,
      payment2Date: commission.payment2Date,
      version: commission.version,
      pesos,
    },
    firstFlowId: header.firstFlow?.id ?? null,
    secondFlowId: header.secondFlow?.id ?? null,
    canCreateSecondPayment: canCreateSecondPayment({
      isRescinded: header.reservation.isRescinded,
      commission: header.commission,
      firstFlow: header.firstFlow,
      secondFlow: header.secondFlow,
    }),
    stages,
    commands: {
      ...workflows.flowCommandsView(screen, ctx.user),
      markAtRisk: workflows.allowance(
        riskRefusal({
          hasCommission: true,
          isRescinded: header.reservation.isRescinded,
          flowStatus: state.status,
        }),
      ),
    },
  };
}

// --- Commands --------------------------------------------------------------------------------------

/** 'Proceder con Pago' (administrators): the pending flow starts and its first tasks open. */
export function start(ctx: ServiceContext, flowId: string): Promise<{ flow: FlowStateView }> {
  return workflows.runFlowCommand(ctx, 'payment', flowId, { type: 'start' });
}

/** 'Marcar En Riesgo' / 'Editar Estado Riesgo' of a payment flow: only while it is in progress. */
export async function setRisk(
  ctx: ServiceContext,
  flowId: string,
  body: z.output<typeof riskBody>,
): Promise<{ atRisk: boolean; atRiskReason: string | null; version: number }> {
  return ctx.db.transaction(async (tx: Executor) => {
    const flow = await workflows.requireFlowOfKind(tx, flowId, 'payment');
    return commissions.setRiskOfReservationIn(
      tx,
      flow.reservationId,
      { version: body.version, atRisk: body.atRisk, reason: body.reason },
      ctx.user.id,
      flow.status,
    );
  });
}
