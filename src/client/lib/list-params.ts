import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export interface ListParams {
  page: number;
  pageSize: number;
  /** The search as kept in the URL ('' when none). */
  search: string;
  setPage: (page: number) => void;
  setSearch: (search: string) => void;
  /** Ready for a list fetcher: `{ page, pageSize, search? }`. */
  query: { page: number; pageSize: number; search?: string };
}

function positiveInt(value: string | null): number | undefined {
  const number = Number(value);
  return Number.isInteger(number) && number >= 1 ? number : undefined;
}

/**
 * Page and search of a server-side list, kept in the URL query string (`?q=juan&page=2`) so
 * back/forward, reload and a shared link keep them. A new search goes back to page 1 and replaces
 * the history entry (typing does not pile up entries); a page change adds one.
 */
export function useListParams({
  pageSize = 25,
  searchParam = 'q',
  pageParam = 'page',
}: {
  pageSize?: number;
  searchParam?: string;
  pageParam?: string;
} = {}): ListParams {
  const [params, setParams] = useSearchParams();
  const search = params.get(searchParam) ?? '';
  const page = positiveInt(params.get(pageParam)) ?? 1;

  const setPage = useCallback(
    (next: number) =>
      setParams((previous) => {
        const updated = new URLSearchParams(previous);
        if (next <= 1) updated.delete(pageParam);
        else updated.set(pageParam, String(next));
        return updated;
      }),
    [setParams, pageParam],
  );

  const setSearch = useCallback(
    (next: string) =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          const trimmed = next.trim();
          if (trimmed) updated.set(searchParam, trimmed);
          else updated.delete(searchParam);
          updated.delete(pageParam);
          return updated;
        },
        { replace: true },
      ),
    [setParams, searchParam, pageParam],
  );

  const query = useMemo(
    () => ({ page, pageSize, ...(search.trim() ? { search: search.trim() } : {}) }),
    [page, pageSize, search],
  );
  return { page, pageSize, search, setPage, setSearch, query };
}
