import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type {
  ApprovalDetail,
  ApprovalKinds,
  ApprovalPage,
  ApproveResult,
  BulkApproveResult,
} from '../../../shared/schemas/approvals';
import { api } from '../../lib/api';
import { flowKeys, useInvalidateFlow } from '../sale-flows/api';

export interface ApprovalListQuery {
  page: number;
  pageSize: number;
  search?: string;
  /** An approval's name, or 'todas'; absent: 'VB Jefe Inversiones'. */
  approval?: string;
}

/**
 * The approvals' cached reads live under the payment flows' root: a decision changes a payment flow,
 * and any change of a payment flow (here or on its screen) refreshes the inbox.
 */
export const approvalKeys = {
  // Read when used, not when the module loads: the live updates (notifications/api) import these keys
  // while sale-flows/api, which they come from, may still be loading.
  get all() {
    return [...flowKeys.all('payment'), 'approvals'] as const;
  },
  list: (query: ApprovalListQuery) => [...approvalKeys.all, 'list', query] as const,
  kinds: () => [...approvalKeys.all, 'kinds'] as const,
  detail: (taskId: string) => [...approvalKeys.all, 'detail', taskId] as const,
};

export function useApprovalList(query: ApprovalListQuery) {
  return useQuery({
    queryKey: approvalKeys.list(query),
    queryFn: ({ signal }) => api<ApprovalPage>('/api/approvals', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useApprovalKinds() {
  return useQuery({
    queryKey: approvalKeys.kinds(),
    queryFn: ({ signal }) => api<ApprovalKinds>('/api/approvals/kinds', { signal }).then((r) => r.approvals),
  });
}

export function useApproval(taskId: string | undefined) {
  return useQuery({
    queryKey: approvalKeys.detail(taskId ?? ''),
    queryFn: ({ signal }) =>
      api<{ approval: ApprovalDetail }>(`/api/approvals/${taskId}`, { signal }).then((r) => r.approval),
    enabled: Boolean(taskId),
  });
}

/** 'Aprobar' on the detail. */
export function useApprove() {
  const invalidate = useInvalidateFlow('payment');
  return useMutation({
    mutationFn: (taskId: string) =>
      api<{ approval: ApproveResult }>(`/api/approvals/${taskId}/approve`, { method: 'POST' }).then(
        (r) => r.approval,
      ),
    onSettled: () => invalidate(),
  });
}

/** 'Aprobar Seleccionados (n)': each one in its own transaction on the server; the report of each. */
export function useApproveMany() {
  const invalidate = useInvalidateFlow('payment');
  return useMutation({
    mutationFn: (taskIds: string[]) =>
      api<BulkApproveResult>('/api/approvals/approve', { method: 'POST', body: { taskIds } }),
    onSettled: () => invalidate(),
  });
}

/** 'Confirmar Rechazo'. */
export function useReject() {
  const invalidate = useInvalidateFlow('payment');
  return useMutation({
    mutationFn: ({ taskId, reason }: { taskId: string; reason: string }) =>
      api<unknown>(`/api/approvals/${taskId}/reject`, { method: 'POST', body: { reason } }),
    onSettled: () => invalidate(),
  });
}
