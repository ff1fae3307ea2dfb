import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  BuyerAccount,
  buyerPaymentBody,
  OverdueQuery,
  OverdueRow,
} from '../../../shared/schemas/buyer-accounts';
import { api } from '../../lib/api';

/** The buyer's account of a reservation (decision 0073) and 'Cuotas vencidas'. */
export const buyerAccountKeys = {
  all: ['buyer-accounts'] as const,
  ofReservation: (reservationId: string) => ['buyer-accounts', 'reservation', reservationId] as const,
  overdue: (query: Partial<OverdueQuery>) => ['buyer-accounts', 'overdue', query] as const,
};

export function useBuyerAccount(reservationId: string) {
  return useQuery({
    queryKey: buyerAccountKeys.ofReservation(reservationId),
    queryFn: ({ signal }) =>
      api<{ account: BuyerAccount }>(`/api/reservations/${reservationId}/account`, { signal }).then(
        (answer) => answer.account,
      ),
  });
}

/** Every change answers the account as it now is: the cache takes it, the overdue list refetches. */
function useAccountChange<Body>(
  reservationId: string,
  path: (body: Body) => string,
  strip?: (body: Body) => unknown,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) =>
      api<{ account: BuyerAccount }>(`/api/reservations/${reservationId}/account${path(body)}`, {
        method: 'POST',
        body: strip ? strip(body) : body,
      }).then((answer) => answer.account),
    onSuccess: (account) => {
      queryClient.setQueryData(buyerAccountKeys.ofReservation(reservationId), account);
      void queryClient.invalidateQueries({ queryKey: [...buyerAccountKeys.all, 'overdue'] });
    },
  });
}

export const useCreatePlan = (reservationId: string) =>
  useAccountChange<{ installmentCount: number }>(reservationId, () => '/plan');

export const useRecordPayment = (reservationId: string) =>
  useAccountChange<z.input<typeof buyerPaymentBody>>(reservationId, () => '/payments');

export const useReversePayment = (reservationId: string) =>
  useAccountChange<{ paymentId: string; reason: string; version: number }>(
    reservationId,
    (body) => `/payments/${body.paymentId}/reversal`,
    ({ reason, version }) => ({ reason, version }),
  );

export const useWaivePie = (reservationId: string) =>
  useAccountChange<{ reason: string; version: number }>(reservationId, () => '/pie-waiver');

export function useOverdue(query: Partial<OverdueQuery>) {
  return useQuery({
    queryKey: buyerAccountKeys.overdue(query),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query))
        if (value !== undefined) params.set(key, String(value));
      return api<{ rows: OverdueRow[]; total: number; totalIsCapped: boolean }>(
        `/api/buyer-accounts/overdue?${params}`,
        { signal },
      );
    },
    placeholderData: keepPreviousData,
  });
}
