import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TaskStatus } from '../../../shared/domain/workflow/statuses';
import type {
  SaleFlowDetail,
  SaleFlowPage,
  SaleFlowReservationBody,
  SaleFlowSort,
} from '../../../shared/schemas/sale-flows';
import type { CommentBody, FlowTaskCommentView } from '../../../shared/schemas/workflows';
import { ApiError, api } from '../../lib/api';
import { pendingTaskCountQueryKey } from '../notifications/api';
import { reservationKeys } from '../reservations/api';
import { type FlowKind, type FlowRef, flowKeys } from './keys';

export { type FlowKind, type FlowRef, flowKeys } from './keys';

/** A start or completion an administrator sets (ISO instants; null clears the start). */
export interface EditedDates {
  startedAt?: string | null;
  completedAt?: string | null;
}

export interface SaleFlowListQuery {
  page: number;
  pageSize: number;
  search?: string;
  sort: SaleFlowSort;
  direction: 'asc' | 'desc';
}

const FLOW_BASE_PATHS: Record<FlowKind, string> = {
  sale: '/api/sale-flows',
  payment: '/api/payment-flows',
};

export const saleFlowKeys = {
  all: flowKeys.all('sale'),
  list: (query: SaleFlowListQuery) => [...flowKeys.all('sale'), 'list', query] as const,
  detail: (id: string) => flowKeys.detail({ kind: 'sale', id }),
};

export function useSaleFlowList(query: SaleFlowListQuery) {
  return useQuery({
    queryKey: saleFlowKeys.list(query),
    queryFn: ({ signal }) => api<SaleFlowPage>('/api/sale-flows', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useSaleFlow(id: string | undefined) {
  return useQuery({
    queryKey: saleFlowKeys.detail(id ?? ''),
    queryFn: ({ signal }) =>
      api<{ flow: SaleFlowDetail }>(`/api/sale-flows/${id}`, { signal }).then((r) => r.flow),
    enabled: Boolean(id),
  });
}

const flowPath = (flow: FlowRef) => `${FLOW_BASE_PATHS[flow.kind]}/${flow.id}`;
const taskPath = (flow: FlowRef, taskId: string) => `${flowPath(flow)}/tasks/${taskId}`;

export function useTaskComments(flow: FlowRef, taskId: string, enabled: boolean) {
  return useQuery({
    queryKey: flowKeys.comments(flow, taskId),
    queryFn: ({ signal }) =>
      api<{ comments: FlowTaskCommentView[] }>(`${taskPath(flow, taskId)}/comments`, { signal }).then(
        (r) => r.comments,
      ),
    enabled,
  });
}

/**
 * A refusal that means the screen is out of date: the task was completed (or changed) by someone
 * else meanwhile. The spec's 'Solo los administradores pueden modificar tareas completadas' triggers
 * a refresh; so do a stale version, the refusal to assign a completed task, and a payment flow's
 * refusals that another user's start, completion or rescission would explain.
 */
export function isStaleTaskRefusal(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    [
      'TASK_COMPLETED_ADMIN_ONLY',
      'ASSIGN_COMPLETED_ADMIN_ONLY',
      'STALE_VERSION',
      'TASK_BLOCKED',
      'FLOW_NOT_STARTED',
      'FLOW_CANCELLED',
    ].includes(error.code)
  );
}

/**
 * What a change of a flow makes out of date: the flow and its kind's lists, the bell badge (tasks
 * open, close and change hands) and, for a payment flow, the reservation (its completion dates the
 * commission's payment).
 */
export function useInvalidateFlow(kind: FlowKind) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: flowKeys.all(kind) }),
      queryClient.invalidateQueries({ queryKey: pendingTaskCountQueryKey }),
      kind === 'payment' ? queryClient.invalidateQueries({ queryKey: reservationKeys.all }) : null,
    ]);
}

/**
 * The mutations of a flow's screen. Each refreshes the flow and the lists (stage, status and
 * assignees change) after it, also when refused as out of date.
 */
function useFlowMutation<Variables>(kind: FlowKind, send: (variables: Variables) => Promise<unknown>) {
  const invalidate = useInvalidateFlow(kind);
  return useMutation({
    mutationFn: send,
    onSettled: (_data, error) => {
      if (!error || isStaleTaskRefusal(error)) return invalidate();
    },
  });
}

export function useSetTaskStatus(flow: FlowRef) {
  return useFlowMutation(flow.kind, (variables: { taskId: string; status: TaskStatus; version: number }) =>
    api(`${taskPath(flow, variables.taskId)}/status`, {
      method: 'PUT',
      body: { status: variables.status, version: variables.version },
    }),
  );
}

/** Sets a task's assignees to exactly `userIds`: assigns the new ones, then unassigns the removed ones. */
export function useSetTaskAssignees(flow: FlowRef) {
  return useFlowMutation(
    flow.kind,
    async (variables: { taskId: string; current: readonly string[]; userIds: readonly string[] }) => {
      for (const userId of variables.userIds.filter((id) => !variables.current.includes(id))) {
        await api(`${taskPath(flow, variables.taskId)}/assignees`, { method: 'POST', body: { userId } });
      }
      for (const userId of variables.current.filter((id) => !variables.userIds.includes(id))) {
        await api(`${taskPath(flow, variables.taskId)}/assignees/${userId}`, { method: 'DELETE' });
      }
    },
  );
}

export function useSetTaskDates(flow: FlowRef) {
  return useFlowMutation(flow.kind, (variables: { taskId: string } & EditedDates) => {
    const { taskId, ...body } = variables;
    return api(`${taskPath(flow, taskId)}/dates`, { method: 'PUT', body });
  });
}

/** Administrators correct when the flow itself started or was completed. */
export function useSetFlowDates(flow: FlowRef) {
  return useFlowMutation(flow.kind, (body: EditedDates) =>
    api(`${flowPath(flow)}/dates`, { method: 'PUT', body }),
  );
}

export function useAddComment(flow: FlowRef) {
  return useFlowMutation(flow.kind, (variables: { taskId: string } & CommentBody) => {
    const { taskId, ...body } = variables;
    return api(`${taskPath(flow, taskId)}/comments`, { method: 'POST', body });
  });
}

export function useDeleteComment(flow: FlowRef) {
  return useFlowMutation(flow.kind, (commentId: string) =>
    api(`${flowPath(flow)}/comments/${commentId}`, { method: 'DELETE' }),
  );
}

/** The reservation fields the detail edits; answers the flow as it is now. */
export function useUpdateFlowReservation(flowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaleFlowReservationBody) =>
      api<{ flow: SaleFlowDetail }>(`/api/sale-flows/${flowId}/reservation`, { method: 'PATCH', body }).then(
        (r) => r.flow,
      ),
    onSuccess: (flow) => {
      queryClient.setQueryData(saleFlowKeys.detail(flowId), flow);
      void queryClient.invalidateQueries({ queryKey: reservationKeys.all });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'STALE_VERSION') {
        void queryClient.invalidateQueries({ queryKey: saleFlowKeys.detail(flowId) });
      }
    },
  });
}
