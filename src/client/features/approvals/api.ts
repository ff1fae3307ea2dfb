import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type {
  ApprovalDetail,
  ApprovalKinds,
  ApprovalPage,
  ApproveResult,
  BulkApproveResult,
} from '../../../shared/schemas/approvals';
import { api } from '../../lib/api';
import { useInvalidateFlow } from '../sale-flows/api';
import { type ApprovalListQuery, approvalKeys } from './keys';

export { type ApprovalListQuery, approvalKeys } from './keys';

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
