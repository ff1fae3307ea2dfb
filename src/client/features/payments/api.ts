import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  OpenedFlow,
  PaymentFlowDetail,
  PaymentPage,
  RescissionBody,
  RescissionPreview,
  RescissionResult,
  RiskBody,
} from '../../../shared/schemas/payments';
import type { FlowStateView } from '../../../shared/schemas/workflows';
import { api } from '../../lib/api';
import { reservationKeys } from '../reservations/api';
import { flowKeys, saleFlowKeys, useInvalidateFlow } from '../sale-flows/api';

export interface PaymentListQuery {
  page: number;
  pageSize: number;
  search?: string;
}

const paymentFlowRef = (id: string) => ({ kind: 'payment', id }) as const;

/**
 * The payments' cached reads live under the payment flows' root, so that a task change (which can
 * complete a flow and move a Pago badge) refreshes the list with the flow.
 */
export const paymentKeys = {
  all: flowKeys.all('payment'),
  list: (query: PaymentListQuery) => [...flowKeys.all('payment'), 'list', query] as const,
  flow: (id: string) => flowKeys.detail(paymentFlowRef(id)),
  rescissionPreview: (reservationId: string) =>
    [...reservationKeys.detail(reservationId), 'rescission-preview'] as const,
};

export function usePaymentList(query: PaymentListQuery) {
  return useQuery({
    queryKey: paymentKeys.list(query),
    queryFn: ({ signal }) => api<PaymentPage>('/api/payments', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function usePaymentFlow(id: string | undefined) {
  return useQuery({
    queryKey: paymentKeys.flow(id ?? ''),
    queryFn: ({ signal }) =>
      api<{ flow: PaymentFlowDetail }>(`/api/payment-flows/${id}`, { signal }).then((r) => r.flow),
    enabled: Boolean(id),
  });
}

/**
 * Opens a reservation's first payment flow ('first', a row click or the sale flow's payment icon)
 * or creates its second ('second', 'Crear Segundo Pago'); either is created on demand and answers
 * the same flow to every caller.
 */
export function useOpenPaymentFlow() {
  const invalidate = useInvalidateFlow('payment');
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reservationId, which }: { reservationId: string; which: 'first' | 'second' }) =>
      api<OpenedFlow>(`/api/payments/${reservationId}/${which}-flow`, { method: 'POST' }),
    onSuccess: (opened) => {
      if (!opened.created) return;
      // A new flow: the list's badges, the commission's locked dates and the sale flow's shortcut change.
      void invalidate();
      void queryClient.invalidateQueries({ queryKey: saleFlowKeys.all });
    },
  });
}

/** 'Proceder con Pago' (administrators): the pending flow starts and its first tasks open. */
export function useStartPaymentFlow(flowId: string) {
  const invalidate = useInvalidateFlow('payment');
  return useMutation({
    mutationFn: () =>
      api<{ flow: FlowStateView }>(`/api/payment-flows/${flowId}/start`, { method: 'POST' }).then(
        (r) => r.flow,
      ),
    onSettled: () => invalidate(),
  });
}

/** 'Marcar En Riesgo' / 'Editar Estado Riesgo'. */
export function useSetRisk(flowId: string) {
  const invalidate = useInvalidateFlow('payment');
  return useMutation({
    mutationFn: (body: RiskBody) =>
      api<{ commission: { atRisk: boolean; atRiskReason: string | null; version: number } }>(
        `/api/payment-flows/${flowId}/risk`,
        { method: 'PUT', body },
      ).then((r) => r.commission),
    onSettled: () => invalidate(),
  });
}

/** What the rescission wizard shows before the user confirms (read when it opens). */
export function useRescissionPreview(reservationId: string, enabled: boolean) {
  return useQuery({
    queryKey: paymentKeys.rescissionPreview(reservationId),
    queryFn: ({ signal }) =>
      api<{ preview: RescissionPreview }>(`/api/reservations/${reservationId}/rescission-preview`, {
        signal,
      }).then((r) => r.preview),
    enabled,
    staleTime: 0,
  });
}

/**
 * Rescinds a reservation (administrators, irreversible). Everything about it changes: the sale flow
 * (rescission box, cancelled), the payment flows, the lists and the inboxes.
 */
export function useRescind(reservationId: string) {
  const invalidatePayments = useInvalidateFlow('payment');
  const invalidateSales = useInvalidateFlow('sale');
  return useMutation({
    mutationFn: (body: RescissionBody) =>
      api<{ rescission: RescissionResult }>(`/api/reservations/${reservationId}/rescission`, {
        method: 'POST',
        body,
      }).then((r) => r.rescission),
    onSettled: () => Promise.all([invalidatePayments(), invalidateSales()]),
  });
}
