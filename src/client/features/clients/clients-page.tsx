import { ActionIcon, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { formatDate, formatPersonName, formatRut } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { CLIENT_SORTS, type ClientRow } from '../../../shared/schemas/clients';
import { paths } from '../../app/paths';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { FilterBar } from '../../components/filter-bar';
import { PageHeader } from '../../components/page-header';
import { SearchInput } from '../../components/search-input';
import { type DataTableColumn, ServerTable, type SortChoice } from '../../components/server-table';
import { useNarrow } from '../../lib/layout';
import { useListParams } from '../../lib/list-params';
import { notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { RestrictionBadge } from '../data-requests';
import { useClients, useDeleteClient } from './api';

const dimmedDash = (
  <Text span c="dimmed">
    —
  </Text>
);

// The spec's order (newest first) shows in no column: the phone's order select names it.
const NEWEST_FIRST: SortChoice[] = [
  { columnAccessor: 'createdAt', direction: 'desc', label: 'Más recientes primero' },
  { columnAccessor: 'createdAt', direction: 'asc', label: 'Más antiguos primero' },
];

/** /clientes: live clients searched by RUT or name, newest first or sorted by RUT or name, paged. */
export default function ClientsPage() {
  const user = useCurrentUser();
  const location = useLocation();
  const list = useListParams({
    sort: { sorts: CLIENT_SORTS, defaultSort: 'createdAt', defaultDirection: 'desc' },
  });
  const clients = useClients(list.query);
  const remove = useDeleteClient();
  const [toDelete, setToDelete] = useState<ClientRow | null>(null);
  const mayDelete = can(user, 'clients.delete');
  // On a phone the icons speak for themselves: the header keeps its name for screen readers only.
  const narrow = useNarrow();
  // The form returns to this exact list (search and page) after saving.
  const back = { from: location.search };

  const columns: DataTableColumn<ClientRow>[] = [
    {
      accessor: 'rut',
      title: 'RUT',
      noWrap: true,
      sortable: true,
      render: (client) => formatRut(client.rut),
    },
    {
      accessor: 'fullName',
      title: 'Nombre Completo',
      sortable: true,
      // A holder's opposition or blocking (Ley 21.719) is marked beside the name.
      render: (client) => (
        <>
          {formatPersonName(client)}
          {client.restriction ? (
            <>
              {' '}
              <RestrictionBadge restriction={client.restriction} />
            </>
          ) : null}
        </>
      ),
    },
    {
      accessor: 'email',
      title: 'Correo Electrónico',
      visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
      render: (client) => client.email ?? dimmedDash,
    },
    {
      accessor: 'phone',
      title: 'Teléfono',
      noWrap: true,
      visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
      render: (client) => client.phone ?? dimmedDash,
    },
    {
      accessor: 'birthDate',
      title: 'Fecha de Nacimiento',
      noWrap: true,
      visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
      render: (client) => formatDate(client.birthDate),
    },
    {
      accessor: 'actions',
      title: narrow ? <VisuallyHidden>Acciones</VisuallyHidden> : 'Acciones',
      textAlign: 'right',
      noWrap: true,
      render: (client) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <ActionIcon
            component={Link}
            to={paths.editClient(client.id)}
            state={back}
            variant="subtle"
            aria-label={`Editar a ${formatPersonName(client)}`}
            title="Editar"
          >
            <IconPencil size={18} />
          </ActionIcon>
          {mayDelete ? (
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Eliminar a ${formatPersonName(client)}`}
              title="Eliminar"
              onClick={() => {
                remove.reset();
                setToDelete(client);
              }}
            >
              <IconTrash size={18} />
            </ActionIcon>
          ) : null}
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Clientes"
        actions={
          <Button component={Link} to={paths.newClient} state={back} leftSection={<IconPlus size={18} />}>
            Nuevo Cliente
          </Button>
        }
      />
      <Stack gap="md">
        <ErrorAlert error={clients.error} />
        <FilterBar
          activeCount={list.activeFilterCount}
          onClear={list.clearFilters}
          search={
            <SearchInput
              value={list.search}
              onSearch={list.setSearch}
              placeholder="Buscar por RUT, nombres o apellidos"
            />
          }
        />
        <ServerTable<ClientRow>
          {...list.table}
          aria-label="Clientes"
          records={clients.data?.rows}
          total={clients.data?.total}
          totalIsCapped={clients.data?.totalIsCapped}
          extraSortChoices={NEWEST_FIRST}
          fetching={clients.isFetching}
          error={clients.error}
          columns={columns}
          noRecordsText={list.search ? 'Ningún cliente coincide con la búsqueda' : 'Aún no hay clientes'}
        />
      </Stack>
      <ConfirmDialog
        opened={toDelete !== null}
        title="Eliminar cliente"
        confirmLabel="Eliminar"
        pendingLabel="Eliminando..."
        loading={remove.isPending}
        error={remove.error}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (!toDelete) return;
          remove.mutate(toDelete.id, {
            onSuccess: () => {
              notifySaved(`Cliente ${formatPersonName(toDelete)} eliminado`);
              setToDelete(null);
            },
          });
        }}
      >
        {toDelete
          ? `¿Eliminar a ${formatPersonName(toDelete)} (RUT ${formatRut(toDelete.rut)})? Dejará de aparecer en la lista de clientes.`
          : null}
      </ConfirmDialog>
    </>
  );
}
