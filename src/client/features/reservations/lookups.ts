import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** The buyer as the reservation form shows it. */
export interface ClientSummary {
  id: string;
  rut: string;
  firstName: string;
  lastName: string;
}

/** Up to five live clients matching a RUT or name (the clients list API, searched on the server). */
export function useClientSearch(search: string) {
  return useQuery({
    queryKey: ['clients', 'lookup', search],
    queryFn: ({ signal }) =>
      api<{ rows: ClientSummary[] }>('/api/clients', { query: { search, pageSize: 5 }, signal }).then(
        (r) => r.rows,
      ),
    enabled: search.length > 0,
  });
}

/** One client by id (a client just created in /clientes/nuevo comes back with its id). */
export function useClientSummary(id: string | null) {
  return useQuery({
    queryKey: ['clients', 'summary', id],
    queryFn: ({ signal }) => api<ClientSummary>(`/api/clients/${id}`, { signal }),
    enabled: Boolean(id),
  });
}

export interface BrokerOption {
  id: string;
  name: string;
  businessName: string;
}

/** Brokers matching a name, RUT or business name (the brokers list API, searched on the server). */
export function useBrokerSearch(search: string) {
  return useQuery({
    queryKey: ['brokers', 'lookup', search],
    queryFn: ({ signal }) =>
      api<{ rows: BrokerOption[] }>('/api/brokers', { query: { search, pageSize: 20 }, signal }).then(
        (r) => r.rows,
      ),
    placeholderData: (previous) => previous,
  });
}
