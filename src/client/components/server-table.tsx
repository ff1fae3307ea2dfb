import 'mantine-datatable/styles.css';
import { useMediaQuery } from '@mantine/hooks';
import { DataTable, type DataTableColumn, type DataTableRowClickHandler } from 'mantine-datatable';
import { type CSSProperties, type Key, useEffect } from 'react';
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
  records,
  columns,
  total,
  totalIsCapped = false,
  page,
  pageSize,
  onPageChange,
  fetching,
  idAccessor,
  noRecordsText = 'No se encontraron registros',
  error,
  rowStyle,
  onRowClick,
  'aria-label': ariaLabel,
}: ServerTableProps<T>) {
  // Narrow screens: tighter cells, so a phone shows the key columns without scrolling sideways.
  const narrow = useMediaQuery('(max-width: 47.99em)') ?? false;
  const lastPage = Math.max(1, Math.ceil((total ?? 0) / pageSize));
  useEffect(() => {
    if (!fetching && total !== undefined && page > lastPage) onPageChange(lastPage);
  }, [fetching, total, page, lastPage, onPageChange]);

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
    />
  );
}
