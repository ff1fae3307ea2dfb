import type { z } from 'zod';
import { projectDelivery } from '../../../shared/domain/projects';
import { progressOf } from '../../../shared/domain/workflow/engine';
import { isoOrNull, santiagoDateOf } from '../../../shared/format';
import type {
  SaleFlowDetail,
  SaleFlowReservationChanges,
  saleFlowListQuery,
} from '../../../shared/schemas/sale-flows';
import type { ReadContext, ServiceContext } from '../../context';
import { AppError } from '../../http/app-error';
import * as reservations from '../reservations/reservations.service';
import * as workflows from '../workflows/workflows.service';
import * as queries from './sale-flows.queries';

/**
 * The sale flows' screens (spec part 2 §2, workflows.md §2): the list and the detail. Task commands
 * are the workflow engine's (`flowTaskRoutes('sale')`); the reservation fields the detail edits are
 * written by the reservations feature.
 */

export function list(ctx: ReadContext, query: z.output<typeof saleFlowListQuery>) {
  return queries.listSaleFlows(ctx.db, {
    page: query.page,
    pageSize: query.pageSize,
    search: query.search?.trim() || undefined,
    sort: query.sort,
    direction: query.direction,
  });
}

/**
 * A sale flow as its screen shows it: the reservation around it, and its stages in order, each with
 * its tasks (assignees, comment counts, days managed and late on the Santiago calendar). 404 unless
 * the flow exists and is a sale flow.
 */
export async function get(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'user'>,
  flowId: string,
): Promise<SaleFlowDetail> {
  const screen = await workflows.readFlowScreen(ctx.db, flowId, queries.findSaleFlowHeader);
  const { flow, state, header } = screen;
  if (flow.kind !== 'sale' || !header) throw new AppError('FLOW_NOT_FOUND');
  const stages = workflows.stagesView(screen, ctx.user, ctx.now);

  const today = santiagoDateOf(ctx.now);
  return {
    id: flow.id,
    status: state.status,
    currentStageId: state.currentStageId,
    currentStageName: header.currentStageName,
    startedAt: isoOrNull(state.startedAt),
    completedAt: isoOrNull(state.completedAt),
    progress: progressOf(state.tasks),
    reservation: header.reservation,
    rescission: header.reservation.isRescinded
      ? { reason: header.rescindedReason, rescindedAt: header.rescindedAt, rescindedBy: header.rescindedBy }
      : null,
    client: header.client,
    project: {
      ...header.project,
      isDeadlinePassed: projectDelivery(header.project.deadline, today) === 'Inmediata',
    },
    broker: header.broker,
    commissionId: header.commissionId,
    paymentFlowId: header.paymentFlowId,
    stages,
    commands: workflows.flowCommandsView(screen, ctx.user),
  };
}

/**
 * The reservation fields the detail edits (dates, months, 'Banco Escrituración'), written by the
 * reservations feature with the version the user read; answers the flow as it is now.
 */
export async function updateReservation(
  ctx: ServiceContext,
  flowId: string,
  body: SaleFlowReservationChanges & { version: number },
): Promise<SaleFlowDetail> {
  const flow = await workflows.requireFlowOfKind(ctx.db, flowId, 'sale');
  const { version, ...changes } = body;
  await reservations.updateSaleDetails(ctx, flow.reservationId, version, changes);
  return get(ctx, flowId);
}
