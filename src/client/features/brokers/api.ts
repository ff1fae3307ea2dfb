import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Broker,
  BrokerAnswer,
  BrokerBody,
  BrokerKams,
  BrokerListQuery,
  BrokerPage,
  BrokerUpdateBody,
} from '../../../shared/schemas/brokers';
import { api } from '../../lib/api';

export const brokerKeys = {
  all: ['brokers'] as const,
  list: (query: BrokerListQuery) => ['brokers', 'list', query] as const,
  detail: (id: string) => ['brokers', 'detail', id] as const,
  kams: ['brokers', 'kams'] as const,
};

/**
 * GET /api/brokers: by name unless sorted, searched by name, RUT or razón social, filtered by KAM
 * (the reservation's broker picker too).
 */
export function fetchBrokers(query: BrokerListQuery, signal?: AbortSignal): Promise<BrokerPage> {
  return api<BrokerPage>('/api/brokers', { query: { ...query }, signal });
}

export function fetchBroker(id: string, signal?: AbortSignal): Promise<Broker> {
  return api<BrokerAnswer>(`/api/brokers/${id}`, { signal }).then((answer) => answer.broker);
}

export function useBrokers(query: BrokerListQuery) {
  return useQuery({
    queryKey: brokerKeys.list(query),
    queryFn: ({ signal }) => fetchBrokers(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** The KAM names the brokers carry, for the list's KAM filter (refreshed with every broker save). */
export function useBrokerKams() {
  return useQuery({
    queryKey: brokerKeys.kams,
    queryFn: ({ signal }) => api<BrokerKams>('/api/brokers/kams', { signal }).then((answer) => answer.kams),
    staleTime: 60_000,
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
    mutationFn: (body: BrokerBody & { version?: number }): Promise<Broker> =>
      (id
        ? api<BrokerAnswer>(`/api/brokers/${id}`, { method: 'PUT', body: body as BrokerUpdateBody })
        : api<BrokerAnswer>('/api/brokers', { method: 'POST', body })
      ).then((answer) => answer.broker),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: brokerKeys.all }),
  });
}

/** 'Verificar cuenta' (issue 53): a second person confirms the bank data read at `version`. */
export function useVerifyBrokerBank(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: number): Promise<Broker> =>
      api<BrokerAnswer>(`/api/brokers/${id}/bank-account/verify`, { method: 'POST', body: { version } }).then(
        (answer) => answer.broker,
      ),
    onSuccess: (broker) => {
      queryClient.setQueryData(brokerKeys.detail(id), broker);
      return queryClient.invalidateQueries({ queryKey: brokerKeys.all });
    },
  });
}
