import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateQuoteBody,
  QuoteListQuery,
  QuoteListResponse,
  QuoteSettingsView,
  QuoteView,
  ReserveQuoteBody,
} from '../../../shared/schemas/quotes';
import { api } from '../../lib/api';

export const quoteKeys = {
  all: ['quotes'] as const,
  list: (query: object) => ['quotes', 'list', query] as const,
  detail: (id: string) => ['quotes', 'detail', id] as const,
  settings: (projectId: string) => ['quotes', 'settings', projectId] as const,
};

export function useQuoteList(query: QuoteListQuery) {
  return useQuery({
    queryKey: quoteKeys.list(query),
    queryFn: ({ signal }) => api<QuoteListResponse>('/api/quotes', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useQuote(id: string | undefined) {
  return useQuery({
    queryKey: quoteKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api<{ quote: QuoteView }>(`/api/quotes/${id}`, { signal }).then((r) => r.quote),
    enabled: Boolean(id),
  });
}

export function useQuoteSettings(projectId: string | null) {
  return useQuery({
    queryKey: quoteKeys.settings(projectId ?? ''),
    queryFn: ({ signal }) => api<QuoteSettingsView>(`/api/quotes/settings/${projectId}`, { signal }),
    enabled: Boolean(projectId),
  });
}

function useInvalidateQuotes() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: quoteKeys.all });
}

export function useCreateQuote() {
  const invalidate = useInvalidateQuotes();
  return useMutation({
    mutationFn: (body: CreateQuoteBody) =>
      api<{ quote: QuoteView }>('/api/quotes', { method: 'POST', body }).then((r) => r.quote),
    onSuccess: invalidate,
  });
}

/** 'Duplicar' and 'Recotizar': a new quote with the same terms at today's prices. */
export function useDuplicateQuote() {
  const invalidate = useInvalidateQuotes();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ quote: QuoteView }>(`/api/quotes/${id}/duplicate`, { method: 'POST' }).then((r) => r.quote),
    onSuccess: invalidate,
  });
}

export function useReserveQuote(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReserveQuoteBody) =>
      api<{ quote: QuoteView; reservationId: string }>(`/api/quotes/${id}/reserve`, { method: 'POST', body }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: quoteKeys.all });
      queryClient.invalidateQueries({ queryKey: ['reservations'] });
    },
  });
}
