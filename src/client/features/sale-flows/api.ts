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
import { reservationKeys } from '../reservations/api';

export interface SaleFlowListQuery {
  page: number;
  pageSize: number;
  search?: string;
  sort: SaleFlowSort;
  direction: 'asc' | 'desc';
}

export const saleFlowKeys = {
  all: ['sale-flows'] as const,
  list: (query: SaleFlowListQuery) => ['sale-flows', 'list', query] as const,
  detail: (id: string) => ['sale-flows', 'detail', id] as const,
  comments: (flowId: string, taskId: string) => ['sale-flows', 'detail', flowId, 'comments', taskId] as const,
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

export function useTaskComments(flowId: string, taskId: string, enabled: boolean) {
  return useQuery({
    queryKey: saleFlowKeys.comments(flowId, taskId),
    queryFn: ({ signal }) =>
      api<{ comments: FlowTaskCommentView[] }>(`/api/sale-flows/${flowId}/tasks/${taskId}/comments`, {
        signal,
      }).then((r) => r.comments),
    enabled,
  });
}

/**
 * A refusal that means the screen is out of date: the task was completed (or changed) by someone
 * else meanwhile. The spec's 'Solo los administradores pueden modificar tareas completadas' triggers
 * a refresh; so do a stale version and the refusal to assign a completed task.
 */
export function isStaleTaskRefusal(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    ['TASK_COMPLETED_ADMIN_ONLY', 'ASSIGN_COMPLETED_ADMIN_ONLY', 'STALE_VERSION'].includes(error.code)
  );
}

/**
 * The mutations of a flow's screen. Each refreshes the flow and the lists (stage, status and
 * assignees change) after it, also when refused as out of date.
 */
function useFlowMutation<Variables>(send: (variables: Variables) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: (_data, error) => {
      if (!error || isStaleTaskRefusal(error)) {
        return queryClient.invalidateQueries({ queryKey: saleFlowKeys.all });
      }
    },
  });
}

const taskPath = (flowId: string, taskId: string) => `/api/sale-flows/${flowId}/tasks/${taskId}`;

export function useSetTaskStatus(flowId: string) {
  return useFlowMutation((variables: { taskId: string; status: TaskStatus; version: number }) =>
    api(`${taskPath(flowId, variables.taskId)}/status`, {
      method: 'PUT',
      body: { status: variables.status, version: variables.version },
    }),
  );
}

/** Sets a task's assignees to exactly `userIds`: assigns the new ones, then unassigns the removed ones. */
export function useSetTaskAssignees(flowId: string) {
  return useFlowMutation(
    async (variables: { taskId: string; current: readonly string[]; userIds: readonly string[] }) => {
      for (const userId of variables.userIds.filter((id) => !variables.current.includes(id))) {
        await api(`${taskPath(flowId, variables.taskId)}/assignees`, { method: 'POST', body: { userId } });
      }
      for (const userId of variables.current.filter((id) => !variables.userIds.includes(id))) {
        await api(`${taskPath(flowId, variables.taskId)}/assignees/${userId}`, { method: 'DELETE' });
      }
    },
  );
}

export function useSetTaskDates(flowId: string) {
  return useFlowMutation(
    (variables: { taskId: string; startedAt?: string | null; completedAt?: string | null }) => {
      const { taskId, ...body } = variables;
      return api(`${taskPath(flowId, taskId)}/dates`, { method: 'PUT', body });
    },
  );
}

export function useAddComment(flowId: string) {
  return useFlowMutation((variables: { taskId: string } & CommentBody) => {
    const { taskId, ...body } = variables;
    return api(`${taskPath(flowId, taskId)}/comments`, { method: 'POST', body });
  });
}

export function useDeleteComment(flowId: string) {
  return useFlowMutation((commentId: string) =>
    api(`/api/sale-flows/${flowId}/comments/${commentId}`, { method: 'DELETE' }),
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
