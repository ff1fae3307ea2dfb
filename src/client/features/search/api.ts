import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { isSearchable } from '../../../shared/domain/global-search';
import type { SearchResults } from '../../../shared/schemas/search';
import { api } from '../../lib/api';

/** The global search; runs only for three or more characters (the server enforces it too). */
export function useGlobalSearch(text: string) {
  const q = text.trim();
  return useQuery({
    queryKey: ['search', q],
    queryFn: ({ signal }) => api<SearchResults>('/api/search', { query: { q }, signal }),
    enabled: isSearchable(q),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}
