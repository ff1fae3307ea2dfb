import 'mantine-datatable/styles.css';
import { Box, Group, LoadingOverlay, Pagination, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  DataTable,
  type DataTableColumn,
  type DataTableRowClickHandler,
  type DataTableSortStatus,
} from 'mantine-datatable';
import { type CSSProperties, type Key, type ReactNode, useDeferredValue, useEffect } from 'react';
import { formatInteger } from '../../shared/format';

export type { DataTableColumn } from 'mantine-datatable';

export interface ServerTableProps<T> {
  /** The current page's rows (undefined while the first page loads). */
  records: T[] | undefined;
  columns: DataTableColumn<T>[];
  /** The list's total from the server (`{ total, totalIsCapped }` of `pageOf`). */
  total: number | undefined;
  totalIsCapped?: boolean;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** Shows the loading overlay (pass the query's `isFetching`). */
  fetching: boolean;
  /** Defaults to `id`. */
  idAccessor?: keyof T | ((record: T) => Key);
  /** Empty state text; defaults to 'No se encontraron registros'. */
  noRecordsText?: string;
  /** The query's error: a list that could not load says so, never that it is empty. */
  error?: unknown;
  rowStyle?: (record: T, index: number) => CSSProperties | undefined;
  onRowClick?: DataTableRowClickHandler<T>;
  /** Server-side sorting: the current order, and what a click on a `sortable` column header asks for. */
  sortStatus?: DataTableSortStatus<T>;
  onSortStatusChange?: (status: DataTableSortStatus<T>) => void;
  'aria-label'?: string;
}

/** 'Mostrando 1–25 de 734' / 'Mostrando 1–25 de más de 1.000'. */
export function paginationText(from: number, to: number, total: number, capped: boolean): string {
  if (total === 0) return 'Sin resultados';
  return `Mostrando ${formatInteger(from)}–${formatInteger(to)} de ${capped ? 'más de ' : ''}${formatInteger(total)}`;
}

export const LOAD_FAILED_TEXT = 'No se pudo cargar la lista. Se volverá a cargar al recuperar la conexión.';

const CONTROL_LABELS = {
  first: 'Primera página',
  previous: 'Página anterior',
  next: 'Página siguiente',
  last: 'Última página',
} as const;

/**
 * A list paginated on the server (mantine-datatable underneath): Spanish pagination text and
 * empty state, a loading overlay, and a page beyond the end (after a delete, or an old link)
 * moved back to the last page.
 *
 *   const list = useListParams();
 *   const query = useClients(list.query);   // useQuery with placeholderData: keepPreviousData
 *   <ServerTable records={query.data?.rows} total={query.data?.total}
 *     totalIsCapped={query.data?.totalIsCapped} page={list.page} pageSize={list.pageSize}
 *     onPageChange={list.setPage} fetching={query.isFetching} columns={[...]} />
 *
 * Importing this module brings mantine-datatable's CSS: use it from lazy screens only.
 */
export function ServerTable<T>({
  records: loaded,
  columns,
  total,
  totalIsCapped = false,
  page,
  pageSize,
  onPageChange,
  fetching: fetchingPage,
  idAccessor,
  noRecordsText = 'No se encontraron registros',
  error,
  rowStyle,
  onRowClick,
  sortStatus,
  onSortStatusChange,
  'aria-label': ariaLabel,
}: ServerTableProps<T>) {
  // A new page of rows renders in a transition that yields to the browser, not in one long task
  // (Lighthouse's Total Blocking Time, issue 10 item 12); the loader stays on until it is shown.
  const records = useDeferredValue(loaded);
  const fetching = fetchingPage || records !== loaded;
  // Narrow screens: tighter cells, so a phone shows the key columns without scrolling sideways.
  const narrow = useMediaQuery('(max-width: 47.99em)') ?? false;
  const lastPage = Math.max(1, Math.ceil((total ?? 0) / pageSize));
  useEffect(() => {
    if (!fetching && total !== undefined && page > lastPage) onPageChange(lastPage);
  }, [fetching, total, page, lastPage, onPageChange]);

  if (narrow) {
    return (
      <CardList<T>
        records={records}
        columns={columns}
        total={total ?? 0}
        totalIsCapped={totalIsCapped}
        page={page}
        pageSize={pageSize}
        lastPage={lastPage}
        onPageChange={onPageChange}
        fetching={fetching}
        idAccessor={idAccessor}
        emptyText={error && !records ? LOAD_FAILED_TEXT : noRecordsText}
        rowStyle={rowStyle}
        onRowClick={onRowClick}
        aria-label={ariaLabel}
      />
    );
  }

  return (
    <DataTable<T>
      aria-label={ariaLabel}
      withTableBorder
      borderRadius="md"
      highlightOnHover
      verticalAlign="center"
      horizontalSpacing={narrow ? 'xs' : 'sm'}
      minHeight={records && records.length > 0 ? undefined : 180}
      records={records ?? []}
      columns={columns}
      idAccessor={(idAccessor ?? 'id') as keyof T}
      fetching={fetching}
      loadingText="Cargando..."
      noRecordsText={error && !records ? LOAD_FAILED_TEXT : noRecordsText}
      page={page}
      onPageChange={onPageChange}
      totalRecords={total ?? 0}
      recordsPerPage={pageSize}
      paginationText={({ from, to, totalRecords }) => paginationText(from, to, totalRecords, totalIsCapped)}
      paginationWrapBreakpoint="sm"
      getPaginationControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
      getPaginationItemProps={(item) => ({ 'aria-label': `Página ${item}` })}
      rowStyle={rowStyle}
      onRowClick={onRowClick}
      // Sorting props only for sorted lists (mantine-datatable types them as all-or-nothing).
      {...((sortStatus ? { sortStatus, onSortStatusChange } : {}) as unknown as {
        sortStatus: DataTableSortStatus<T>;
      })}
    />
  );
}

/** A column's cell for one record: its render, or the value at its accessor. */
function cellOf<T>(column: DataTableColumn<T>, record: T, index: number): ReactNode {
  if (column.render) return column.render(record, index);
  const value = (record as Record<string, unknown>)[String(column.accessor)];
  return value === null || value === undefined ? '' : String(value);
}

/**
 * The same list on a phone: one card per record, each column a labelled line (the actions column,
 * untitled, at the card's foot), so nothing hides off-screen to the right.
 */
function CardList<T>({
  records,
  columns,
  total,
  totalIsCapped,
  page,
  pageSize,
  lastPage,
  onPageChange,
  fetching,
  idAccessor,
  emptyText,
  rowStyle,
  onRowClick,
  'aria-label': ariaLabel,
}: {
  onRowClick?: DataTableRowClickHandler<T> | undefined;
  records: T[] | undefined;
  columns: DataTableColumn<T>[];
  total: number;
  totalIsCapped: boolean;
  page: number;
  pageSize: number;
  lastPage: number;
  onPageChange: (page: number) => void;
  fetching: boolean;
  idAccessor?: keyof T | ((record: T) => Key) | undefined;
  emptyText: string;
  rowStyle?: ((record: T, index: number) => CSSProperties | undefined) | undefined;
  'aria-label'?: string | undefined;
}) {
  const keyOf = (record: T, index: number): Key =>
    typeof idAccessor === 'function'
      ? idAccessor(record)
      : String((record as Record<string, unknown>)[String(idAccessor ?? 'id')] ?? index);
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <Stack gap="xs" pos="relative" mih={120}>
      <LoadingOverlay visible={fetching} loaderProps={{ size: 'sm' }} overlayProps={{ blur: 1 }} />
      <Stack gap="xs" role="list" aria-label={ariaLabel}>
        {records && records.length > 0 ? (
          records.map((record, index) => (
            <Paper
              key={keyOf(record, index)}
              role="listitem"
              withBorder
              p="sm"
              radius="md"
              style={{ ...rowStyle?.(record, index), cursor: onRowClick ? 'pointer' : undefined }}
              onClick={
                onRowClick
                  ? (event) =>
                      onRowClick({
                        record,
                        index,
                        event: event as unknown as Parameters<DataTableRowClickHandler<T>>[0]['event'],
                      })
                  : undefined
              }
            >
              <Stack gap={4}>
                {columns.map((column) =>
                  column.title ? (
                    <Group
                      key={String(column.accessor)}
                      justify="space-between"
                      gap="xs"
                      wrap="nowrap"
                      align="flex-start"
                    >
                      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                        {column.title}
                      </Text>
                      <Box ta="right" fz="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                        {cellOf(column, record, index)}
                      </Box>
                    </Group>
                  ) : (
                    <Group key={String(column.accessor)} justify="flex-end">
                      {cellOf(column, record, index)}
                    </Group>
                  ),
                )}
              </Stack>
            </Paper>
          ))
        ) : (
          <Text c="dimmed" ta="center" py="xl">
            {emptyText}
          </Text>
        )}
      </Stack>
      <Group justify="space-between" gap="xs">
        <Text size="sm">{paginationText(from, to, total, totalIsCapped)}</Text>
        {lastPage > 1 ? (
          <Pagination
            size="sm"
            total={lastPage}
            value={page}
            onChange={onPageChange}
            siblings={0}
            getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
            getItemProps={(item) => ({ 'aria-label': `Página ${item}` })}
          />
        ) : null}
      </Group>
    </Stack>
  );
}
