import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Client,
  ClientAnswer,
  ClientBody,
  ClientListQuery,
  ClientPage,
  ClientUpdateBody,
} from '../../../shared/schemas/clients';
import { api } from '../../lib/api';

export const clientKeys = {
  all: ['clients'] as const,
  list: (query: ClientListQuery) => ['clients', 'list', query] as const,
  detail: (id: string) => ['clients', 'detail', id] as const,
};

/** GET /api/clients: live clients searched by RUT, names or full name; newest first unless sorted. */
export function fetchClients(query: ClientListQuery, signal?: AbortSignal): Promise<ClientPage> {
  return api<ClientPage>('/api/clients', { query: { ...query }, signal });
}

export function fetchClient(id: string, signal?: AbortSignal): Promise<Client> {
  return api<ClientAnswer>(`/api/clients/${id}`, { signal }).then((answer) => answer.client);
}

/** One page of clients; the previous page stays on screen while the next one loads. */
export function useClients(query: ClientListQuery) {
  return useQuery({
    queryKey: clientKeys.list(query),
    queryFn: ({ signal }) => fetchClients(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useClient(id: string | undefined) {
  return useQuery({
    queryKey: clientKeys.detail(id ?? ''),
    queryFn: ({ signal }) => fetchClient(id!, signal),
    enabled: Boolean(id),
    staleTime: 0,
  });
}

export function useSaveClient(id: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ClientBody & { version?: number }): Promise<Client> =>
      (id
        ? api<ClientAnswer>(`/api/clients/${id}`, { method: 'PUT', body: body as ClientUpdateBody })
        : api<ClientAnswer>('/api/clients', { method: 'POST', body })
      ).then((answer) => answer.client),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.all }),
  });
}

/** Soft delete (administrators only; the server checks). */
export function useDeleteClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/clients/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.all }),
  });
}
