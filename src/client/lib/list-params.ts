import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import {
  DEFAULT_PAGE_SIZE,
  PAGE_SIZES,
  SORT_DIRECTIONS,
  type SortDirection,
} from '../../shared/schemas/common';

/** A list's order as a table shows it: the sorted column (its accessor) and the direction. */
export interface SortStatus {
  columnAccessor: string;
  direction: SortDirection;
}

/** The orders a list offers (its schema's `*_SORTS`) and the one it opens with. */
export interface SortOptions<Sort extends string> {
  sorts: readonly Sort[];
  defaultSort: Sort;
  defaultDirection: SortDirection;
}

export interface ListParams<Sort extends string = never, Filter extends string = never> {
  page: number;
  pageSize: number;
  /** The search as kept in the URL ('' when none). */
  search: string;
  /** The order (the default when the URL names none or one the list does not offer). */
  sort: Sort;
  direction: SortDirection;
  /** Each filter's value as kept in the URL (undefined when not set). */
  filters: Partial<Record<Filter, string>>;
  /** How many filters are set (for a 'Filtros (2)' button). */
  activeFilterCount: number;
  setPage: (page: number) => void;
  setPageSize: (pageSize: number) => void;
  setSearch: (search: string) => void;
  setSort: (sort: Sort, direction: SortDirection) => void;
  /** Sets (or, with null or '', clears) one filter; back to page 1. */
  setFilter: (filter: Filter, value: string | null) => void;
  clearFilters: () => void;
  /** Ready for a list fetcher: `{ page, pageSize, search?, sort?, direction? }` (add the filters). */
  query: { page: number; pageSize: number; search?: string; sort?: Sort; direction?: SortDirection };
  /** The paging and sorting props of `ServerTable`: `<ServerTable {...list.table} …/>`. */
  table: {
    page: number;
    pageSize: number;
    onPageChange: (page: number) => void;
    onPageSizeChange: (pageSize: number) => void;
    sortStatus?: SortStatus;
    defaultSortStatus?: SortStatus;
    onSortStatusChange?: (status: SortStatus) => void;
  };
}

/** Where each piece of a list's state lives in the address (`?q=juan&page=2&orden=rut&dir=asc`). */
export const LIST_URL_KEYS = {
  search: 'q',
  page: 'page',
  pageSize: 'porPagina',
  sort: 'orden',
  direction: 'dir',
};

function positiveInt(value: string | null): number | undefined {
  const number = Number(value);
  return Number.isInteger(number) && number >= 1 ? number : undefined;
}

/** `value` when it is one of `options`, else undefined (a filter or order from an edited URL). */
export function oneOf<T extends string>(
  options: readonly T[],
  value: string | null | undefined,
): T | undefined {
  return options.includes(value as T) ? (value as T) : undefined;
}

/**
 * The state of a server-side list — page, page size, search, order and filters — kept in the URL
 * query string, so back/forward, reload and a shared link keep them. The defaults stay out of the
 * URL. A new search, order, page size or filter goes back to page 1 and replaces the history entry
 * (typing does not pile up entries); a page change adds one.
 *
 *   const list = useListParams({ sort: { sorts: CLIENT_SORTS, defaultSort: 'createdAt',
 *                                        defaultDirection: 'desc' }, filters: ['proyecto'] });
 *   const clients = useClients(list.query);
 *   <ServerTable {...list.table} records={clients.data?.rows} … />
 *
 * `ServerTable` turns header clicks into orders: A→Z, then Z→A, then the list's default order again
 * (the spec's: newest first, by name…).
 */
export function useListParams<Sort extends string = never, Filter extends string = never>({
  sort: sortOptions,
  filters: filterNames = [],
}: {
  sort?: SortOptions<Sort>;
  filters?: readonly Filter[];
} = {}): ListParams<Sort, Filter> {
  const [params, setParams] = useSearchParams();
  const keys = LIST_URL_KEYS;
  // The options' parts, not the object (callers write it inline: a new object every render).
  const sorts = sortOptions?.sorts;
  const defaultSort = sortOptions?.defaultSort;
  const defaultDirection = sortOptions?.defaultDirection;
  const search = params.get(keys.search) ?? '';
  const page = positiveInt(params.get(keys.page)) ?? 1;
  const pageSize = PAGE_SIZES.find((size) => String(size) === params.get(keys.pageSize)) ?? DEFAULT_PAGE_SIZE;
  const sort = (sorts && oneOf(sorts, params.get(keys.sort))) ?? defaultSort;
  const direction: SortDirection =
    oneOf(SORT_DIRECTIONS, params.get(keys.direction)) ?? defaultDirection ?? 'asc';
  // The names as one string: the array is written inline by callers.
  const filterKey = filterNames.join(' ');
  const filters = useMemo(() => {
    const values: Partial<Record<Filter, string>> = {};
    for (const name of filterKey.split(' ') as Filter[]) {
      const value = name ? params.get(name) : null;
      if (value) values[name] = value;
    }
    return values;
  }, [params, filterKey]);

  // The parameters last asked for, until the address shows them. A navigation completes after the
  // event that asked for it, and react-router's functional update is handed the parameters of the
  // last render: two changes in quick succession (a project chosen, then a date typed) would lose
  // the first.
  const pending = useRef<string | null>(null);
  const shown = useRef(params);
  useEffect(() => {
    shown.current = params;
    if (pending.current === params.toString()) pending.current = null;
  }, [params]);

  /** Applies `change` to the latest parameters; back to page 1 unless told otherwise. */
  const update = useCallback(
    (change: (next: URLSearchParams) => void, { keepPage = false, push = false } = {}) => {
      const next = new URLSearchParams(pending.current ?? shown.current);
      change(next);
      if (!keepPage) next.delete(keys.page);
      pending.current = next.toString();
      setParams(next, { replace: !push });
    },
    [setParams],
  );

  const setPage = useCallback(
    (next: number) =>
      update(
        (updated) => {
          if (next <= 1) updated.delete(keys.page);
          else updated.set(keys.page, String(next));
        },
        { keepPage: true, push: true },
      ),
    [update],
  );

  const setPageSize = useCallback(
    (next: number) =>
      update((updated) => {
        if (next === DEFAULT_PAGE_SIZE) updated.delete(keys.pageSize);
        else updated.set(keys.pageSize, String(next));
      }),
    [update],
  );

  const setSearch = useCallback(
    (next: string) =>
      update((updated) => {
        const trimmed = next.trim();
        if (trimmed) updated.set(keys.search, trimmed);
        else updated.delete(keys.search);
      }),
    [update],
  );

  const setSort = useCallback(
    (nextSort: Sort, nextDirection: SortDirection) =>
      update((updated) => {
        if (nextSort === defaultSort && nextDirection === defaultDirection) {
          updated.delete(keys.sort);
          updated.delete(keys.direction);
        } else {
          updated.set(keys.sort, nextSort);
          updated.set(keys.direction, nextDirection);
        }
      }),
    [update, defaultSort, defaultDirection],
  );

  const setFilter = useCallback(
    (filter: Filter, value: string | null) =>
      update((updated) => {
        if (value) updated.set(filter, value);
        else updated.delete(filter);
      }),
    [update],
  );

  const clearFilters = useCallback(
    () =>
      update((updated) => {
        for (const name of filterKey.split(' ')) if (name) updated.delete(name);
      }),
    [update, filterKey],
  );

  // The table asks for an order (a header click, the phone's select); only the offered ones are set.
  const onSortStatusChange = useCallback(
    (status: SortStatus) => {
      const column = oneOf(sorts ?? [], status.columnAccessor);
      if (column) setSort(column, status.direction);
    },
    [sorts, setSort],
  );

  const trimmedSearch = search.trim();
  const query = useMemo(
    () => ({
      page,
      pageSize,
      ...(trimmedSearch ? { search: trimmedSearch } : {}),
      ...(sort ? { sort, direction } : {}),
    }),
    [page, pageSize, trimmedSearch, sort, direction],
  );
  const table = useMemo(
    () => ({
      page,
      pageSize,
      onPageChange: setPage,
      onPageSizeChange: setPageSize,
      ...(sort && defaultSort && defaultDirection
        ? {
            sortStatus: { columnAccessor: sort, direction },
            defaultSortStatus: { columnAccessor: defaultSort, direction: defaultDirection },
            onSortStatusChange,
          }
        : {}),
    }),
    [
      page,
      pageSize,
      setPage,
      setPageSize,
      sort,
      direction,
      defaultSort,
      defaultDirection,
      onSortStatusChange,
    ],
  );

  return {
    page,
    pageSize,
    search,
    sort: sort as Sort,
    direction,
    filters,
    activeFilterCount: Object.keys(filters).length,
    setPage,
    setPageSize,
    setSearch,
    setSort,
    setFilter,
    clearFilters,
    query,
    table,
  };
}
