import { Badge, Group, Select, Stack } from '@mantine/core';
import type { DataTableSortStatus } from 'mantine-datatable';
import { useCallback, useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { flowStatusBadges } from '../../../shared/domain/workflow/statuses';
import { SALE_FLOW_SORTS, type SaleFlowListRow, type SaleFlowSort } from '../../../shared/schemas/sale-flows';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { ProjectCell, ReservationNumberCell, rescindedRowStyle } from '../../components/reservation-cells';
import { SearchInput } from '../../components/search-input';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { AvatarStack } from '../../components/user-avatars';
import { useNarrow } from '../../lib/layout';
import { useListParams } from '../../lib/list-params';
import { useSaleFlowList } from './api';

const SORT_LABELS: Record<SaleFlowSort, string> = {
  reservationDate: 'Fecha de reserva',
  reservationNumber: 'N° Reserva',
  clientName: 'Cliente',
  projectName: 'Proyecto',
};

/** The list's order, kept in the address (`?orden=clientName&dir=asc`); newest reservation first by default. */
function useSortParams() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('orden');
  const sort: SaleFlowSort = SALE_FLOW_SORTS.includes(raw as SaleFlowSort)
    ? (raw as SaleFlowSort)
    : 'reservationDate';
  const direction: 'asc' | 'desc' = params.get('dir') === 'asc' ? 'asc' : 'desc';
  const setSort = useCallback(
    (next: SaleFlowSort, nextDirection: 'asc' | 'desc') =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          if (next === 'reservationDate' && nextDirection === 'desc') {
            updated.delete('orden');
            updated.delete('dir');
          } else {
            updated.set('orden', next);
            updated.set('dir', nextDirection);
          }
          updated.delete('page');
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { sort, direction, setSort };
}

/** Where a flow stands, in the list's words: its current stage, or why it has none. */
function stageText(row: SaleFlowListRow): string {
  if (row.currentStageName) return row.currentStageName;
  return row.status === 'completed' ? 'Completado' : 'No iniciado';
}

/**
 * /flujo-reservas 'Flujo de Reservas': the sale flows searched by client name (every word, accents
 * and case ignored; 300 ms after typing stops), paged and sorted on the server. A row opens the flow.
 */
export default function SaleFlowsPage() {
  const navigate = useNavigate();
  const list = useListParams();
  const order = useSortParams();
  const narrow = useNarrow();
  const query = useMemo(
    () => ({ ...list.query, sort: order.sort, direction: order.direction }),
    [list.query, order.sort, order.direction],
  );
  const flows = useSaleFlowList(query);

  const sortStatus: DataTableSortStatus<SaleFlowListRow> = {
    columnAccessor: order.sort,
    direction: order.direction,
  };

  const columns: DataTableColumn<SaleFlowListRow>[] = [
    {
      accessor: 'reservationNumber',
      title: 'N° Reserva',
      sortable: true,
      noWrap: true,
      render: (row) => (
        <ReservationNumberCell
          reservationNumber={row.reservationNumber}
          isRescinded={row.isRescinded}
          to={paths.reservationFlow(row.id)}
        />
      ),
    },
    { accessor: 'clientName', title: 'Cliente', sortable: true },
    {
      accessor: 'projectName',
      title: 'Proyecto',
      sortable: true,
      render: (row) => <ProjectCell name={row.projectName} stage={row.projectStage} />,
    },
    { accessor: 'apartmentNumber', title: 'Depto.', noWrap: true },
    { accessor: 'currentStageName', title: 'Etapa Actual', render: stageText },
    {
      accessor: 'status',
      title: 'Estado',
      render: (row) => (
        <Badge color={flowStatusBadges[row.status].color} variant="light">
          {flowStatusBadges[row.status].label}
        </Badge>
      ),
    },
    {
      accessor: 'assignees',
      title: 'Asignados',
      render: (row) => <AvatarStack people={row.assignees} size={28} empty="Sin asignar" />,
    },
  ];

  return (
    <>
      <PageHeader title="Flujo de Reservas" />
      <ErrorAlert error={flows.error} />
      <Stack gap="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <SearchInput
            value={list.search}
            onSearch={list.setSearch}
            placeholder="Buscar por nombre del cliente"
            aria-label="Buscar por nombre del cliente"
            style={{ flex: '1 1 260px' }}
            maw={420}
          />
          {narrow ? (
            <Select
              label="Ordenar por"
              aria-label="Ordenar por"
              data={SALE_FLOW_SORTS.flatMap((sort) => [
                { value: `${sort}:desc`, label: `${SORT_LABELS[sort]} ↓` },
                { value: `${sort}:asc`, label: `${SORT_LABELS[sort]} ↑` },
              ])}
              value={`${order.sort}:${order.direction}`}
              allowDeselect={false}
              onChange={(value) => {
                if (!value) return;
                const [sort, direction] = value.split(':') as [SaleFlowSort, 'asc' | 'desc'];
                order.setSort(sort, direction);
              }}
              style={{ flex: '1 1 200px' }}
            />
          ) : null}
        </Group>
        <ServerTable<SaleFlowListRow>
          aria-label="Flujos de reserva"
          records={flows.data?.rows}
          total={flows.data?.total}
          totalIsCapped={flows.data?.totalIsCapped}
          page={list.page}
          pageSize={list.pageSize}
          onPageChange={list.setPage}
          fetching={flows.isFetching}
          error={flows.error}
          noRecordsText={
            list.search ? 'No hay flujos de clientes con ese nombre' : 'Aún no hay flujos de reserva'
          }
          sortStatus={sortStatus}
          onSortStatusChange={(status) =>
            order.setSort(status.columnAccessor as SaleFlowSort, status.direction)
          }
          rowStyle={rescindedRowStyle}
          onRowClick={({ record }) => navigate(paths.reservationFlow(record.id))}
          columns={columns}
        />
      </Stack>
    </>
  );
}
