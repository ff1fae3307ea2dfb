import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Broker, BrokerBody, BrokerPage, BrokerUpdateBody } from '../../../shared/schemas/brokers';
import { api } from '../../lib/api';

export interface BrokerListQuery {
  page?: number;
  pageSize?: number;
  search?: string;
}

export const brokerKeys = {
  all: ['brokers'] as const,
  list: (query: BrokerListQuery) => ['brokers', 'list', query] as const,
  detail: (id: string) => ['brokers', 'detail', id] as const,
};

/** GET /api/brokers: by name, searched by name, RUT or razón social (the reservation's broker picker too). */
export function fetchBrokers(query: BrokerListQuery, signal?: AbortSignal): Promise<BrokerPage> {
  return api<BrokerPage>('/api/brokers', { query: { ...query }, signal });
}

export function fetchBroker(id: string, signal?: AbortSignal): Promise<Broker> {
  return api<Broker>(`/api/brokers/${id}`, { signal });
}

export function useBrokers(query: BrokerListQuery) {
  return useQuery({
    queryKey: brokerKeys.list(query),
    queryFn: ({ signal }) => fetchBrokers(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useBroker(id: string | undefined) {
  return useQuery({
    queryKey: brokerKeys.detail(id ?? ''),
    queryFn: ({ signal }) => fetchBroker(id!, signal),
    enabled: Boolean(id),
    staleTime: 0,
  });
}

export function useSaveBroker(id: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BrokerBody & { version?: number }) =>
      id
        ? api<Broker>(`/api/brokers/${id}`, { method: 'PUT', body: body as BrokerUpdateBody })
        : api<Broker>('/api/brokers', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: brokerKeys.all }),
  });
}
