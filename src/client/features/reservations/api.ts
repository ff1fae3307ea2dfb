import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CommissionView,
  CreateReservationBody,
  PromotionFields,
  PromotionView,
  ReservationFormOptions,
  ReservationListQuery,
  ReservationPage,
  ReservationView,
  SaveCommissionBody,
  UpdateReservationBody,
} from '../../../shared/schemas/reservations';
import { api } from '../../lib/api';

export const reservationKeys = {
  all: ['reservations'] as const,
  list: (query: object) => ['reservations', 'list', query] as const,
  detail: (id: string) => ['reservations', 'detail', id] as const,
  formOptions: ['reservations', 'form-options'] as const,
};

/** One page of reservations (searched, filtered, sorted) with the totals of every filtered row. */
export function useReservationList(query: ReservationListQuery) {
  return useQuery({
    queryKey: reservationKeys.list(query),
    queryFn: ({ signal }) => api<ReservationPage>('/api/reservations', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useReservation(id: string | undefined) {
  return useQuery({
    queryKey: reservationKeys.detail(id ?? ''),
    queryFn: ({ signal }) =>
      api<{ reservation: ReservationView }>(`/api/reservations/${id}`, { signal }).then((r) => r.reservation),
    enabled: Boolean(id),
  });
}

export function useReservationFormOptions() {
  return useQuery({
    queryKey: reservationKeys.formOptions,
    queryFn: ({ signal }) => api<ReservationFormOptions>('/api/reservations/form-options', { signal }),
    staleTime: 60_000,
  });
}

function useInvalidateReservations() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: reservationKeys.all });
}

export function useCreateReservation() {
  const invalidate = useInvalidateReservations();
  return useMutation({
    mutationFn: (body: CreateReservationBody) =>
      api<{ reservation: ReservationView }>('/api/reservations', { method: 'POST', body }).then(
        (r) => r.reservation,
      ),
    onSuccess: invalidate,
  });
}

export function useUpdateReservation(id: string) {
  const invalidate = useInvalidateReservations();
  return useMutation({
    mutationFn: (body: UpdateReservationBody) =>
      api<{ reservation: ReservationView }>(`/api/reservations/${id}`, { method: 'PUT', body }).then(
        (r) => r.reservation,
      ),
    onSuccess: invalidate,
  });
}

export function useDeleteReservation() {
  const invalidate = useInvalidateReservations();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/reservations/${id}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useSaveCommission(reservationId: string) {
  const invalidate = useInvalidateReservations();
  return useMutation({
    mutationFn: (body: SaveCommissionBody) =>
      api<{ commission: CommissionView }>(`/api/reservations/${reservationId}/commission`, {
        method: 'PUT',
        body,
      }).then((r) => r.commission),
    onSuccess: invalidate,
  });
}

export function useSavePromotion(reservationId: string) {
  const invalidate = useInvalidateReservations();
  return useMutation({
    mutationFn: ({ id, version, values }: { id?: string; version?: number; values: PromotionFields }) =>
      api<{ promotion: PromotionView }>(
        id
          ? `/api/reservations/${reservationId}/promotions/${id}`
          : `/api/reservations/${reservationId}/promotions`,
        { method: id ? 'PUT' : 'POST', body: id ? { ...values, version } : values },
      ).then((r) => r.promotion),
    onSuccess: invalidate,
  });
}

/** 'Verificar cuenta' of a promotion's payee (issue 53): another payments user or an administrator. */
export function useVerifyPromotionAccount(reservationId: string) {
  const invalidate = useInvalidateReservations();
  return useMutation({
    mutationFn: ({ id, version }: { id: string; version: number }) =>
      api<{ promotion: PromotionView }>(
        `/api/reservations/${reservationId}/promotions/${id}/account/verify`,
        {
          method: 'POST',
          body: { version },
        },
      ).then((r) => r.promotion),
    onSuccess: invalidate,
  });
}

export function useDeletePromotion(reservationId: string) {
  const invalidate = useInvalidateReservations();
  return useMutation({
    mutationFn: (id: string) =>
      api<void>(`/api/reservations/${reservationId}/promotions/${id}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}
