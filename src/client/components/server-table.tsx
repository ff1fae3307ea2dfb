import 'mantine-datatable/styles.css';
import {
  Box,
  Group,
  LoadingOverlay,
  NativeSelect,
  Pagination,
  Paper,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useId } from '@mantine/hooks';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import { DataTable, type DataTableColumn, type DataTableRowClickHandler } from 'mantine-datatable';
import { type CSSProperties, type Key, type ReactNode, useDeferredValue, useEffect } from 'react';
import { formatInteger } from '../../shared/format';
import { PAGE_SIZES } from '../../shared/schemas/common';
import { useNarrow } from '../lib/layout';
import type { SortStatus } from '../lib/list-params';

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
  /** Offers a page size choice ('Filas por página': 10, 25, 50, 100) and reports the one chosen. */
  onPageSizeChange?: (pageSize: number) => void;
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
  /**
   * Server-side sorting (`sortable` columns): the current order, and the order the user asks for. A
   * header click sorts a new column A→Z, then Z→A, then back to `defaultSortStatus` when given; on a
   * phone an 'Ordenar por' select offers every sortable column both ways (see `defaultSortStatus`).
   */
  sortStatus?: SortStatus;
  onSortStatusChange?: (status: SortStatus) => void;
  /**
   * The list's own order (the spec's), which a third click on a header goes back to. Lists that give
   * it (`useListParams().table` does) get the phone's 'Ordenar por' select; others bring their own.
   */
  defaultSortStatus?: SortStatus;
  /** Orders the phone's select offers besides the columns' (the default when it is no column's). */
  extraSortChoices?: SortChoice[];
  /**
   * What the footer row is ('Totales'), when columns have a `footer`: in the first column's footer on
   * wide screens, as the heading of the last card on a phone.
   */
  footerTitle?: string;
  /**
   * The columns (accessors) whose sortable headers may wrap between their words when the table is
   * short of room (many columns that must fit a wide screen), instead of widening their columns.
   */
  wrapHeaders?: readonly string[];
  'aria-label'?: string;
}

/** An order offered by the phone's 'Ordenar por' select. */
export interface SortChoice extends SortStatus {
  label: string;
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

/** What a header click asks for: A→Z on a new column, then Z→A, then the list's own order. */
export function nextSortStatus(
  current: SortStatus | undefined,
  clicked: string,
  defaultStatus: SortStatus | undefined,
): SortStatus {
  if (current?.columnAccessor !== clicked) return { columnAccessor: clicked, direction: 'asc' };
  if (current.direction === 'asc') return { columnAccessor: clicked, direction: 'desc' };
  if (defaultStatus && defaultStatus.columnAccessor !== clicked) return defaultStatus;
  return { columnAccessor: clicked, direction: 'asc' };
}

/**
 * The orders of the phone's 'Ordenar por' select: the extra ones (the list's default when no column
 * shows it), then every sortable column with a text title, both ways.
 */
export function sortChoicesOf<T>(columns: DataTableColumn<T>[], extra: SortChoice[] = []): SortChoice[] {
  return [
    ...extra,
    ...columns.flatMap((column) =>
      column.sortable && typeof column.title === 'string'
        ? [
            {
              columnAccessor: String(column.accessor),
              direction: 'asc' as const,
              label: `${column.title} ↑`,
            },
            {
              columnAccessor: String(column.accessor),
              direction: 'desc' as const,
              label: `${column.title} ↓`,
            },
          ]
        : [],
    ),
  ];
}

/**
 * A list paginated on the server (mantine-datatable underneath): Spanish pagination text and
 * empty state, a page size choice, server-side sorting, column footers (totals), a loading overlay,
 * and a page beyond the end (after a delete, or an old link) moved back to the last page. On a
 * phone the same list shows as cards, with an 'Ordenar por' select and the footers in a last card.
 *
 *   const list = useListParams({ sort: { sorts: CLIENT_SORTS, defaultSort: 'createdAt',
 *                                        defaultDirection: 'desc' } });
 *   const query = useClients(list.query);   // useQuery with placeholderData: keepPreviousData
 *   <ServerTable {...list.table} records={query.data?.rows} total={query.data?.total}
 *     totalIsCapped={query.data?.totalIsCapped} fetching={query.isFetching} columns={[...]} />
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
  onPageSizeChange,
  fetching: fetchingPage,
  idAccessor,
  noRecordsText = 'No se encontraron registros',
  error,
  rowStyle,
  onRowClick,
  sortStatus,
  onSortStatusChange,
  defaultSortStatus,
  extraSortChoices,
  footerTitle,
  wrapHeaders = [],
  'aria-label': ariaLabel,
}: ServerTableProps<T>) {
  // A new page of rows renders in a transition that yields to the browser, not in one long task
  // (Lighthouse's Total Blocking Time, issue 10 item 12); the loader stays on until it is shown.
  const records = useDeferredValue(loaded);
  const fetching = fetchingPage || records !== loaded;
  // Narrow screens: cards instead of a table, so nothing hides off-screen to the right.
  const narrow = useNarrow();
  const lastPage = Math.max(1, Math.ceil((total ?? 0) / pageSize));
  useEffect(() => {
    if (!fetching && total !== undefined && page > lastPage) onPageChange(lastPage);
  }, [fetching, total, page, lastPage, onPageChange]);

  const emptyText = error && !records ? LOAD_FAILED_TEXT : noRecordsText;
  const footer = (from: number, to: number) => (
    <ListFooter
      text={paginationText(from, to, total ?? 0, totalIsCapped)}
      page={page}
      lastPage={lastPage}
      onPageChange={onPageChange}
      pageSize={pageSize}
      onPageSizeChange={onPageSizeChange}
      compact={narrow}
    />
  );

  if (narrow) {
    return (
      <CardList<T>
        records={records}
        columns={columns}
        fetching={fetching}
        idAccessor={idAccessor}
        emptyText={emptyText}
        rowStyle={rowStyle}
        onRowClick={onRowClick}
        aria-label={ariaLabel}
        sortChoices={
          sortStatus && onSortStatusChange && defaultSortStatus
            ? sortChoicesOf(columns, extraSortChoices)
            : []
        }
        sortStatus={sortStatus}
        onSortStatusChange={onSortStatusChange}
        footerTitle={footerTitle}
        footer={footer((page - 1) * pageSize + 1, Math.min(total ?? 0, page * pageSize))}
      />
    );
  }

  // Sortable columns get a header button of ours (mantine-datatable's own makes the whole header cell
  // a button, named in English); the footer row's title goes in the first column.
  const hasFooters = columns.some((column) => column.footer !== undefined && column.footer !== null);
  const tableColumns = columns.map((column, index) => {
    let shown = column;
    if (column.sortable && sortStatus && onSortStatusChange) {
      const accessor = String(column.accessor);
      shown = {
        ...shown,
        sortable: false,
        title: (
          <SortHeader
            title={column.title}
            wrap={wrapHeaders.includes(accessor)}
            direction={sortStatus.columnAccessor === accessor ? sortStatus.direction : null}
            onClick={() => onSortStatusChange(nextSortStatus(sortStatus, accessor, defaultSortStatus))}
          />
        ),
      };
    }
    if (index === 0 && footerTitle && hasFooters) {
      shown = {
        ...shown,
        footer: (
          <Text size="sm" fw={700}>
            {footerTitle}
          </Text>
        ),
      };
    }
    return shown;
  });

  return (
    <DataTable<T>
      aria-label={ariaLabel}
      withTableBorder
      borderRadius="md"
      highlightOnHover
      verticalAlign="center"
      horizontalSpacing="sm"
      minHeight={records && records.length > 0 ? undefined : 180}
      records={records ?? []}
      columns={tableColumns}
      idAccessor={(idAccessor ?? 'id') as keyof T}
      fetching={fetching}
      loadingText="Cargando..."
      noRecordsText={emptyText}
      page={page}
      onPageChange={onPageChange}
      totalRecords={total ?? 0}
      recordsPerPage={pageSize}
      renderPagination={({ state }) => footer(state.from ?? 0, state.to ?? 0)}
      rowStyle={rowStyle}
      onRowClick={onRowClick}
    />
  );
}

/**
 * A sortable column's header: its title and an arrow for the order (both arrows while unsorted), a
 * button that asks for the next order; screen readers also hear the current one.
 */
function SortHeader({
  title,
  wrap,
  direction,
  onClick,
}: {
  title: ReactNode;
  wrap: boolean;
  direction: 'asc' | 'desc' | null;
  onClick: () => void;
}) {
  const Arrow = direction === 'asc' ? IconArrowUp : direction === 'desc' ? IconArrowDown : IconArrowsSort;
  return (
    <UnstyledButton
      onClick={onClick}
      fw="inherit"
      fz="inherit"
      c="inherit"
      ta={wrap ? 'left' : undefined}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: wrap ? 'normal' : 'nowrap' }}
    >
      {title}
      {direction ? (
        <VisuallyHidden>{direction === 'asc' ? '(orden ascendente)' : '(orden descendente)'}</VisuallyHidden>
      ) : null}
      <Arrow size={14} aria-hidden="true" style={{ opacity: direction ? 1 : 0.4, flexShrink: 0 }} />
    </UnstyledButton>
  );
}

/**
 * Under a list: 'Mostrando 1–25 de 734', the page size choice (when the list offers one) and the
 * page buttons (when there is more than one page).
 */
function ListFooter({
  text,
  page,
  lastPage,
  onPageChange,
  pageSize,
  onPageSizeChange,
  compact,
}: {
  text: string;
  page: number;
  lastPage: number;
  onPageChange: (page: number) => void;
  pageSize: number;
  onPageSizeChange: ((pageSize: number) => void) | undefined;
  compact: boolean;
}) {
  const pageSizeId = useId();
  return (
    <Group justify="space-between" gap="xs" wrap="wrap" w="100%">
      <Text size="sm">{text}</Text>
      <Group gap="sm" wrap="wrap">
        {onPageSizeChange ? (
          <Group gap={6} wrap="nowrap">
            <Text component="label" htmlFor={pageSizeId} size="sm">
              Filas por página
            </Text>
            <NativeSelect
              id={pageSizeId}
              size="xs"
              w={72}
              data={PAGE_SIZES.map(String)}
              value={String(pageSize)}
              onChange={(event) => onPageSizeChange(Number(event.currentTarget.value))}
            />
          </Group>
        ) : null}
        {lastPage > 1 ? (
          <Pagination
            size="sm"
            total={lastPage}
            value={page}
            onChange={onPageChange}
            siblings={compact ? 0 : 1}
            getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
            getItemProps={(item) => ({ 'aria-label': `Página ${item}` })}
          />
        ) : null}
      </Group>
    </Group>
  );
}

/** A column's cell for one record: its render, or the value at its accessor. */
function cellOf<T>(column: DataTableColumn<T>, record: T, index: number): ReactNode {
  if (column.render) return column.render(record, index);
  const value = (record as Record<string, unknown>)[String(column.accessor)];
  return value === null || value === undefined ? '' : String(value);
}

/** One labelled line of a card: the column's title on the left, its value on the right. */
function CardLine({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
        {title}
      </Text>
      <Box ta="right" fz="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </Group>
  );
}

/**
 * The same list on a phone: one card per record, each column a labelled line (the actions column,
 * untitled, at the card's foot), so nothing hides off-screen to the right; the columns' footers
 * (totals) in a last card; the order chosen in a select, as there are no headers to click.
 */
function CardList<T>({
  records,
  columns,
  fetching,
  idAccessor,
  emptyText,
  rowStyle,
  onRowClick,
  sortChoices,
  sortStatus,
  onSortStatusChange,
  footerTitle,
  footer,
  'aria-label': ariaLabel,
}: {
  records: T[] | undefined;
  columns: DataTableColumn<T>[];
  fetching: boolean;
  idAccessor?: keyof T | ((record: T) => Key) | undefined;
  emptyText: string;
  rowStyle?: ((record: T, index: number) => CSSProperties | undefined) | undefined;
  onRowClick?: DataTableRowClickHandler<T> | undefined;
  sortChoices: SortChoice[];
  sortStatus: SortStatus | undefined;
  onSortStatusChange: ((status: SortStatus) => void) | undefined;
  footerTitle: string | undefined;
  footer: ReactNode;
  'aria-label'?: string | undefined;
}) {
  const keyOf = (record: T, index: number): Key =>
    typeof idAccessor === 'function'
      ? idAccessor(record)
      : String((record as Record<string, unknown>)[String(idAccessor ?? 'id')] ?? index);
  const optionValue = (status: SortStatus) => `${status.columnAccessor}:${status.direction}`;
  const footers = columns.filter((column) => column.footer !== undefined && column.footer !== null);
  return (
    <Stack gap="xs">
      {sortChoices.length > 0 && sortStatus && onSortStatusChange ? (
        <NativeSelect
          label="Ordenar por"
          data={sortChoices.map((choice) => ({ value: optionValue(choice), label: choice.label }))}
          value={optionValue(sortStatus)}
          onChange={(event) => {
            const chosen = sortChoices.find((choice) => optionValue(choice) === event.currentTarget.value);
            if (chosen)
              onSortStatusChange({ columnAccessor: chosen.columnAccessor, direction: chosen.direction });
          }}
        />
      ) : null}
      <Stack gap="xs" pos="relative" mih={120}>
        <LoadingOverlay visible={fetching} loaderProps={{ size: 'sm' }} overlayProps={{ blur: 1 }} />
        {/* A list only while it has items (an empty ARIA list is an axe violation); else the empty text. */}
        <Stack
          gap="xs"
          {...(records && records.length > 0 ? { role: 'list', 'aria-label': ariaLabel } : {})}
          aria-busy={fetching}
        >
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
                      <CardLine key={String(column.accessor)} title={column.title}>
                        {cellOf(column, record, index)}
                      </CardLine>
                    ) : (
                      <Group key={String(column.accessor)} justify="flex-end">
                        {cellOf(column, record, index)}
                      </Group>
                    ),
                  )}
                </Stack>
              </Paper>
            ))
          ) : fetching ? null : (
            // While a page loads the overlay speaks; an empty list says so only once it has loaded.
            <Text c="dimmed" ta="center" py="xl">
              {emptyText}
            </Text>
          )}
        </Stack>
        {footers.length > 0 && records && records.length > 0 ? (
          <Paper
            withBorder
            p="sm"
            radius="md"
            bg="var(--mantine-color-gray-0)"
            role="group"
            aria-label={footerTitle}
          >
            <Stack gap={4}>
              {footerTitle ? (
                <Text fw={700} size="sm">
                  {footerTitle}
                </Text>
              ) : null}
              {footers.map((column) => (
                <CardLine key={String(column.accessor)} title={column.title}>
                  {column.footer}
                </CardLine>
              ))}
            </Stack>
          </Paper>
        ) : null}
      </Stack>
      {footer}
    </Stack>
  );
}
