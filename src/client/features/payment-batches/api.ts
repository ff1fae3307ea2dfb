import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  BatchCandidates,
  PaymentBatchAnswer,
  PaymentBatchListQuery,
  PaymentBatchPage,
  PaymentBatchPaidBody,
  PaymentSettingsBody,
  paymentSettingsAnswer,
} from '../../../shared/schemas/payment-batches';
import { api } from '../../lib/api';
import { paymentKeys } from '../payments/api';

/** 'Nómina de pago' (/api/payment-batches): the payments ready, the batches, one batch. */
export const paymentBatchKeys = {
  all: ['payment-batches'] as const,
  candidates: ['payment-batches', 'candidates'] as const,
  list: (query: PaymentBatchListQuery) => ['payment-batches', 'list', query] as const,
  detail: (id: string) => ['payment-batches', 'detail', id] as const,
};

export function useBatchCandidates() {
  return useQuery({
    queryKey: paymentBatchKeys.candidates,
    queryFn: ({ signal }) => api<BatchCandidates>('/api/payment-batches/candidates', { signal }),
  });
}

export function usePaymentBatches(query: PaymentBatchListQuery) {
  return useQuery({
    queryKey: paymentBatchKeys.list(query),
    queryFn: ({ signal }) =>
      api<PaymentBatchPage>(`/api/payment-batches?page=${query.page ?? 1}&pageSize=${query.pageSize ?? 10}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function usePaymentBatch(id: string) {
  return useQuery({
    queryKey: paymentBatchKeys.detail(id),
    queryFn: ({ signal }) =>
      api<PaymentBatchAnswer>(`/api/payment-batches/${id}`, { signal }).then((answer) => answer.batch),
  });
}

/** After a change: every batch read, and the payments (a batch paid dates them). */
function useInvalidate() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: paymentBatchKeys.all }),
      queryClient.invalidateQueries({ queryKey: paymentKeys.all }),
    ]);
}

export function useCreateBatch() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (flowIds: string[]) =>
      api<PaymentBatchAnswer>('/api/payment-batches', { method: 'POST', body: { flowIds } }).then(
        (answer) => answer.batch,
      ),
    onSuccess: invalidate,
  });
}

export function useMarkBatchPaid(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: PaymentBatchPaidBody) =>
      api<PaymentBatchAnswer>(`/api/payment-batches/${id}/paid`, { method: 'POST', body }).then(
        (answer) => answer.batch,
      ),
    onSuccess: invalidate,
  });
}

export function useCancelBatch(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (version: number) =>
      api<PaymentBatchAnswer>(`/api/payment-batches/${id}/cancel`, {
        method: 'POST',
        body: { version },
      }).then((answer) => answer.batch),
    onSuccess: invalidate,
  });
}

export const batchExportHref = (id: string, format: 'csv' | 'xlsx' | 'bank') =>
  `/api/payment-batches/${id}/export?format=${format}`;

/** Configuración → Pagos (issue 53): the tolerance per UF, the bank date's business days, the layout. */
export const paymentSettingsKey = ['payment-batches', 'settings'] as const;

export function usePaymentSettings() {
  return useQuery({
    queryKey: paymentSettingsKey,
    queryFn: ({ signal }) =>
      api<PaymentSettingsAnswer>('/api/payment-batches/settings', { signal }).then(
        (answer) => answer.settings,
      ),
  });
}

export function useSavePaymentSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PaymentSettingsBody) =>
      api<PaymentSettingsAnswer>('/api/payment-batches/settings', { method: 'PUT', body }).then(
        (answer) => answer.settings,
      ),
    onSuccess: (settings) => queryClient.setQueryData(paymentSettingsKey, settings),
  });
}

type PaymentSettingsAnswer = z.infer<typeof paymentSettingsAnswer>;
