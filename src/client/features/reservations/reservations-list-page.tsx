import { ActionIcon, Button, Group, Select, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDate, formatInteger, formatPersonName, formatUF } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { LIST_COUNT_CAP, YES_NO_ALL } from '../../../shared/schemas/common';
import {
  RESERVATION_SORTS,
  type ReservationListQuery,
  type ReservationListRow,
  type ReservationListTotals,
} from '../../../shared/schemas/reservations';
import { paths } from '../../app/paths';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DateRangeFilter } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';
import { FilterBar, filterWidth } from '../../components/filter-bar';
import { PageHeader } from '../../components/page-header';
import { ProjectCell, ReservationNumberCell, rescindedRowStyle } from '../../components/reservation-cells';
import { SearchInput } from '../../components/search-input';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { type ListParams, oneOf, useListParams } from '../../lib/list-params';
import { notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { useDeleteReservation, useReservationFormOptions, useReservationList } from './api';

/** The filters as the address keeps them (`?proyecto=…&desde=2026-01-01&resciliadas=no`). */
const FILTERS = ['proyecto', 'vendedor', 'desde', 'hasta', 'resciliadas'] as const;
type Filter = (typeof FILTERS)[number];

const RESCINDED_CHOICES = [
  { value: 'no', label: 'Vigentes' },
  { value: 'yes', label: 'Resciliadas' },
];

/** Width of a filter: the whole row on a phone (the filters stack), fixed beside the others on wider screens. */

/** The list's request: its page, search and order, and the filters of the address. */
function reservationQuery(
  list: ListParams<(typeof RESERVATION_SORTS)[number], Filter>,
): ReservationListQuery {
  const { proyecto, vendedor, desde, hasta, resciliadas } = list.filters;
  const rescinded = oneOf(YES_NO_ALL, resciliadas);
  return {
    ...list.query,
    ...(proyecto ? { projectId: proyecto } : {}),
    ...(vendedor ? { sellerId: vendedor } : {}),
    ...(desde ? { fromDate: desde } : {}),
    ...(hasta ? { toDate: hasta } : {}),
    ...(rescinded ? { rescinded } : {}),
  };
}

/** A money column with its total (of every filtered row) at its foot. */
function moneyColumn(
  accessor: keyof ReservationListTotals,
  title: string,
  totals: ReservationListTotals | null | undefined,
): DataTableColumn<ReservationListRow> {
  return {
    accessor,
    title,
    textAlign: 'right',
    noWrap: true,
    render: (row) => formatUF(row[accessor]),
    ...(totals
      ? {
          footer: (
            <Text size="sm" fw={700}>
              {formatUF(totals[accessor])}
            </Text>
          ),
        }
      : {}),
  };
}

/**
 * /reservas: searched by number, filtered by project, seller, reservation date and rescission,
 * newest first or sorted by number, client or project, paged on the server; the totals of the money
 * columns over every filtered row at the foot; rescinded ones in red with their badge.
 */
export default function ReservationsListPage() {
  const user = useCurrentUser();
  const list = useListParams({
    sort: { sorts: RESERVATION_SORTS, defaultSort: 'reservationDate', defaultDirection: 'desc' },
    filters: FILTERS,
  });
  const reservations = useReservationList(reservationQuery(list));
  const options = useReservationFormOptions();
  const remove = useDeleteReservation();
  const [deleting, setDeleting] = useState<ReservationListRow | null>(null);
  const totals = reservations.data?.totals;
  const filtered = list.search !== '' || list.activeFilterCount > 0;

  const columns: DataTableColumn<ReservationListRow>[] = [
    {
      accessor: 'reservationNumber',
      title: 'N° Reserva',
      sortable: true,
      render: (row) => (
        <ReservationNumberCell
          reservationNumber={row.reservationNumber}
          isRescinded={row.isRescinded}
          to={paths.editReservation(row.id)}
        />
      ),
    },
    {
      accessor: 'reservationDate',
      title: 'Fecha',
      sortable: true,
      noWrap: true,
      render: (row) => formatDate(row.reservationDate),
    },
    { accessor: 'clientName', title: 'Cliente', sortable: true },
    {
      accessor: 'projectName',
      title: 'Proyecto',
      sortable: true,
      render: (row) => <ProjectCell name={row.projectName} stage={row.projectStage} />,
    },
    { accessor: 'apartmentNumber', title: 'Depto.' },
    moneyColumn('totalPrice', 'Precio Lista', totals),
    moneyColumn('minimumPrice', 'Precio Mínimo', totals),
    moneyColumn('totalPayment', 'Escrituración', totals),
    {
      accessor: 'actions',
      // Named for screen readers (every data cell has a header); nothing shown, as before.
      title: <VisuallyHidden>Acciones</VisuallyHidden>,
      textAlign: 'right',
      render: (row) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <ActionIcon
            variant="subtle"
            component={Link}
            to={paths.editReservation(row.id)}
            aria-label={`Editar reserva ${row.reservationNumber}`}
          >
            <IconPencil size={16} />
          </ActionIcon>
          {can(user, 'reservations.delete') ? (
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Eliminar reserva ${row.reservationNumber}`}
              onClick={() => {
                remove.reset();
                setDeleting(row);
              }}
            >
              <IconTrash size={16} />
            </ActionIcon>
          ) : null}
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Reservas"
        actions={
          <Button component={Link} to={paths.newReservation} leftSection={<IconPlus size={16} />}>
            Nueva Reserva
          </Button>
        }
      />
      <ErrorAlert error={reservations.error} />
      <Stack gap="md">
        <FilterBar
          // Narrow enough for the five filters to fit beside it at 1440 px.
          searchMaxWidth={260}
          activeCount={list.activeFilterCount}
          onClear={list.clearFilters}
          search={
            <SearchInput
              value={list.search}
              onSearch={list.setSearch}
              // Short enough to show whole in the box beside five filters at 1440 px.
              placeholder="Buscar N° de reserva"
              aria-label="Buscar por número de reserva"
            />
          }
        >
          <Select
            label="Proyecto"
            placeholder="Todos"
            data={(options.data?.projects ?? []).map((project) => ({
              value: project.id,
              label: `${project.name} · ${project.stage}`,
            }))}
            value={list.filters.proyecto ?? null}
            onChange={(value) => list.setFilter('proyecto', value)}
            searchable
            clearable
            nothingFoundMessage="Ningún proyecto con ese nombre"
            w={filterWidth(210)}
          />
          <Select
            label="Vendedor"
            placeholder="Todos"
            data={(options.data?.sellers ?? []).map((seller) => ({
              value: seller.id,
              label: formatPersonName(seller),
            }))}
            value={list.filters.vendedor ?? null}
            onChange={(value) => list.setFilter('vendedor', value)}
            searchable
            clearable
            nothingFoundMessage="Ningún vendedor con ese nombre"
            w={filterWidth(170)}
          />
          <DateRangeFilter list={list} />
          <Select
            label="Estado"
            placeholder="Todas"
            data={RESCINDED_CHOICES}
            value={list.filters.resciliadas ?? null}
            onChange={(value) => list.setFilter('resciliadas', value)}
            clearable
            w={filterWidth(140)}
          />
        </FilterBar>
        <ServerTable<ReservationListRow>
          {...list.table}
          aria-label="Reservas"
          records={reservations.data?.rows}
          total={reservations.data?.total}
          totalIsCapped={reservations.data?.totalIsCapped}
          fetching={reservations.isFetching}
          error={reservations.error}
          noRecordsText={
            list.search
              ? 'No hay reservas con ese número'
              : filtered
                ? 'Ninguna reserva cumple los filtros'
                : 'Aún no hay reservas'
          }
          rowStyle={rescindedRowStyle}
          columns={columns}
          footerTitle="Totales"
        />
        {reservations.data?.totalIsCapped ? (
          <Text size="sm" c="dimmed">
            Los totales se muestran cuando la lista tiene {formatInteger(LIST_COUNT_CAP)} reservas o menos:
            use los filtros para acotarla.
          </Text>
        ) : null}
      </Stack>
      <ConfirmDialog
        opened={deleting !== null}
        title="Eliminar reserva"
        confirmLabel="Eliminar"
        pendingLabel="Eliminando..."
        loading={remove.isPending}
        error={remove.error}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifySaved(`Reserva ${deleting.reservationNumber} eliminada`);
              setDeleting(null);
            },
          })
        }
      >
        ¿Eliminar la reserva N° {deleting?.reservationNumber} de {deleting?.clientName}? Se eliminarán también
        su comisión, promociones y flujos. Esta acción no se puede deshacer.
      </ConfirmDialog>
    </>
  );
}
