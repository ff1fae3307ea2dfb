import { ActionIcon, Anchor, Badge, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDate, formatUF } from '../../../shared/format';
import type { ReservationListRow } from '../../../shared/schemas/reservations';
import { paths } from '../../app/paths';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { SearchInput } from '../../components/search-input';
import { ServerTable } from '../../components/server-table';
import { useListParams } from '../../lib/list-params';
import { notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { useDeleteReservation, useReservationList } from './api';

/** /reservas: paged and searched by number on the server; rescinded ones in red with their badge. */
export default function ReservationsListPage() {
  const user = useCurrentUser();
  const list = useListParams();
  const reservations = useReservationList(list.query);
  const remove = useDeleteReservation();
  const [deleting, setDeleting] = useState<ReservationListRow | null>(null);

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
        <SearchInput
          value={list.search}
          onSearch={list.setSearch}
          placeholder="Buscar por número de reserva"
          aria-label="Buscar por número de reserva"
          maw={420}
        />
        <ServerTable<ReservationListRow>
          aria-label="Reservas"
          records={reservations.data?.rows}
          total={reservations.data?.total}
          totalIsCapped={reservations.data?.totalIsCapped}
          page={list.page}
          pageSize={list.pageSize}
          onPageChange={list.setPage}
          fetching={reservations.isFetching}
          error={reservations.error}
          noRecordsText={list.search ? 'No hay reservas con ese número' : 'Aún no hay reservas'}
          rowStyle={(row) =>
            row.isRescinded ? { backgroundColor: 'var(--mantine-color-red-0)' } : undefined
          }
          columns={[
            {
              accessor: 'reservationNumber',
              title: 'N° Reserva',
              render: (row) => (
                <Group gap={6} wrap="nowrap">
                  <Anchor
                    component={Link}
                    to={paths.editReservation(row.id)}
                    fw={600}
                    c={row.isRescinded ? 'red' : undefined}
                  >
                    {row.reservationNumber}
                  </Anchor>
                  {row.isRescinded ? (
                    <Badge color="red" size="sm">
                      Resciliada
                    </Badge>
                  ) : null}
                </Group>
              ),
            },
            { accessor: 'reservationDate', title: 'Fecha', render: (row) => formatDate(row.reservationDate) },
            { accessor: 'clientName', title: 'Cliente' },
            {
              accessor: 'projectName',
              title: 'Proyecto',
              render: (row) => (
                <div>
                  <Text size="sm">{row.projectName}</Text>
                  <Text size="xs" c="dimmed">
                    {row.projectStage}
                  </Text>
                </div>
              ),
            },
            { accessor: 'apartmentNumber', title: 'Depto.' },
            {
              accessor: 'totalPrice',
              title: 'Precio Lista',
              textAlign: 'right',
              render: (row) => formatUF(row.totalPrice),
            },
            {
              accessor: 'minimumPrice',
              title: 'Precio Mínimo',
              textAlign: 'right',
              render: (row) => formatUF(row.minimumPrice),
            },
            {
              accessor: 'totalPayment',
              title: 'Escrituración',
              textAlign: 'right',
              render: (row) => formatUF(row.totalPayment),
            },
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
                  {user.isAdmin ? (
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
          ]}
        />
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
