import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BrokerInvoiceAcceptanceBody,
  BrokerInvoiceBody,
  BrokerInvoiceXmlBody,
  FlowInvoices,
  InvoiceTaskView,
} from '../../../shared/schemas/broker-invoices';
import { api } from '../../lib/api';
import { paymentKeys } from '../payments/api';

export { base64Of } from '../uf-values/api';

/**
 * The broker's invoice on a payment flow (/api/payment-flows/:id/invoices). Its reads live under the
 * flow's key: a task change (or a live update of the flow) refreshes them with the flow.
 */
export const brokerInvoiceKeys = {
  ofFlow: (flowId: string) => [...paymentKeys.flow(flowId), 'invoices'] as const,
};

export function useFlowInvoices(flowId: string) {
  return useQuery({
    queryKey: brokerInvoiceKeys.ofFlow(flowId),
    queryFn: ({ signal }) => api<FlowInvoices>(`/api/payment-flows/${flowId}/invoices`, { signal }),
  });
}

const taskUrl = (flowId: string, taskRowId: string) =>
  `/api/payment-flows/${flowId}/tasks/${taskRowId}/invoice`;

/** After a change: the flow (its tasks may now complete) and its invoices. */
function useInvalidate(flowId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: paymentKeys.flow(flowId) });
}

/** Typed by hand: POST a new invoice, PUT a correction with its version. */
export function useSaveInvoice(flowId: string, taskRowId: string) {
  const invalidate = useInvalidate(flowId);
  return useMutation({
    mutationFn: (body: BrokerInvoiceBody) =>
      api<{ task: InvoiceTaskView }>(taskUrl(flowId, taskRowId), {
        method: body.version === undefined ? 'POST' : 'PUT',
        body,
      }).then((answer) => answer.task),
    onSuccess: invalidate,
  });
}

/** The SII's XML, read by the server and recorded as read. */
export function useUploadInvoiceXml(flowId: string, taskRowId: string) {
  const invalidate = useInvalidate(flowId);
  return useMutation({
    mutationFn: (body: BrokerInvoiceXmlBody) =>
      api<{ task: InvoiceTaskView }>(`${taskUrl(flowId, taskRowId)}/xml`, { method: 'POST', body }).then(
        (answer) => answer.task,
      ),
    onSuccess: invalidate,
  });
}

/** An administrator accepts the mismatch with a reason. */
export function useAcceptMismatch(flowId: string, taskRowId: string) {
  const invalidate = useInvalidate(flowId);
  return useMutation({
    mutationFn: (body: BrokerInvoiceAcceptanceBody) =>
      api<{ task: InvoiceTaskView }>(`${taskUrl(flowId, taskRowId)}/acceptance`, {
        method: 'POST',
        body,
      }).then((answer) => answer.task),
    onSuccess: invalidate,
  });
}
