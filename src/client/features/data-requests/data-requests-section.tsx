import { Anchor, Button, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DATA_REQUEST_DAYS } from '../../../shared/domain/privacy';
import { formatDate, formatPersonName } from '../../../shared/format';
import {
  DATA_REQUEST_KINDS,
  DATA_REQUEST_SORTS,
  DATA_REQUEST_STATUSES,
  type DataRequestListQuery,
  type DataRequestRow,
  dataRequestKindLabels,
  dataRequestStatusLabels,
} from '../../../shared/schemas/data-requests';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { FilterBar, filterWidth } from '../../components/filter-bar';
import { SearchInput } from '../../components/search-input';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { type ListParams, oneOf, useListParams } from '../../lib/list-params';
import { notifySaved } from '../../lib/notify';
import { useDataRequests } from './api';
import { RegisterRequestDialog } from './register-request-dialog';
import { Deadline, holderName, RequestStatusBadge, RestrictionBadge } from './request-parts';
import { RetentionSection } from './retention-section';

/** The register's filters as the address keeps them (`?estado=all&tipo=suppression&q=…`). */
export const DATA_REQUEST_FILTERS = ['estado', 'tipo'] as const;
type Filter = (typeof DATA_REQUEST_FILTERS)[number];

/** The status filter's choices: the open requests (the default, out of the address), all, or one status. */
const STATUS_FILTERS = ['all', ...DATA_REQUEST_STATUSES] as const;
const OPEN = 'open';
const ALL_KINDS = 'todos';

/** The part of the tab shown (`?vista=retencion`; the register by default). */
const VIEW_PARAM = 'vista';
const RETENTION_VIEW = 'retencion';

/** The register's request as the API takes it (an edited address's nonsense left out). */
export function dataRequestQueryOf(
  list: Pick<ListParams<(typeof DATA_REQUEST_SORTS)[number], Filter>, 'query' | 'filters'>,
): DataRequestListQuery {
  const status = oneOf(STATUS_FILTERS, list.filters.estado);
  const kind = oneOf(DATA_REQUEST_KINDS, list.filters.tipo);
  return { ...list.query, ...(status ? { status } : {}), ...(kind ? { kind } : {}) };
}

const columns: DataTableColumn<DataRequestRow>[] = [
  {
    accessor: 'kind',
    title: 'Tipo',
    render: (row) => (
      <Anchor component={Link} to={paths.dataRequest(row.id)} size="sm" fw={500}>
        {dataRequestKindLabels[row.kind]}
      </Anchor>
    ),
  },
  {
    accessor: 'holder',
    title: 'Titular',
    render: (row) => (
      <>
        {holderName(row)}
        {row.holder?.restriction ? (
          <>
            {' '}
            <RestrictionBadge restriction={row.holder.restriction} />
          </>
        ) : null}
        {row.holder ? null : (
          <Text size="xs" c="dimmed">
            No es cliente
          </Text>
        )}
      </>
    ),
  },
  {
    accessor: 'receivedDate',
    title: 'Recibida',
    noWrap: true,
    sortable: true,
    render: (row) => formatDate(row.receivedDate),
  },
  {
    accessor: 'dueDate',
    title: 'Vence',
    noWrap: true,
    sortable: true,
    render: (row) => <Deadline request={row} />,
  },
  {
    accessor: 'status',
    title: 'Estado',
    render: (row) => <RequestStatusBadge status={row.status} />,
  },
  {
    accessor: 'handledBy',
    title: 'Atendida por',
    render: (row) =>
      row.handledBy ? (
        formatPersonName(row.handledBy)
      ) : (
        <Text span size="sm" c="dimmed">
          —
        </Text>
      ),
  },
];

/** The register: every request, open ones first by due date, filtered by status and kind, searched. */
function RequestsRegister() {
  const navigate = useNavigate();
  const list = useListParams({
    sort: { sorts: DATA_REQUEST_SORTS, defaultSort: 'dueDate', defaultDirection: 'asc' },
    filters: DATA_REQUEST_FILTERS,
  });
  const query = dataRequestQueryOf(list);
  const requests = useDataRequests(query);
  const [registering, setRegistering] = useState(false);
  const filtered = list.activeFilterCount > 0 || Boolean(list.search.trim());

  const statusChoices = [
    { value: OPEN, label: 'Abiertas' },
    { value: 'all', label: 'Todas' },
    ...DATA_REQUEST_STATUSES.map((status) => ({ value: status, label: dataRequestStatusLabels[status] })),
  ];
  const kindChoices = [
    { value: ALL_KINDS, label: 'Todos los tipos' },
    ...DATA_REQUEST_KINDS.map((kind) => ({ value: kind, label: dataRequestKindLabels[kind] })),
  ];

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Text size="sm" c="dimmed" maw={720} style={{ flex: '1 1 320px' }}>
          Las solicitudes de acceso, rectificación, supresión, oposición, portabilidad y bloqueo de los
          titulares (Ley 21.719). Cada una debe responderse dentro de {DATA_REQUEST_DAYS} días corridos desde
          su recepción.
        </Text>
        <Button leftSection={<IconPlus size={18} />} onClick={() => setRegistering(true)}>
          Registrar solicitud
        </Button>
      </Group>
      <FilterBar
        searchMaxWidth={320}
        activeCount={list.activeFilterCount}
        onClear={list.clearFilters}
        search={
          <SearchInput
            value={list.search}
            onSearch={list.setSearch}
            placeholder="Buscar nombre o RUT"
            aria-label="Buscar por nombre o RUT"
          />
        }
      >
        <Select
          label="Estado"
          data={statusChoices}
          value={oneOf(STATUS_FILTERS, list.filters.estado) ?? OPEN}
          onChange={(value) => list.setFilter('estado', value === OPEN ? null : value)}
          allowDeselect={false}
          w={filterWidth(170)}
        />
        <Select
          label="Tipo"
          data={kindChoices}
          value={oneOf(DATA_REQUEST_KINDS, list.filters.tipo) ?? ALL_KINDS}
          onChange={(value) => list.setFilter('tipo', value === ALL_KINDS ? null : value)}
          allowDeselect={false}
          w={filterWidth(190)}
        />
      </FilterBar>
      <ErrorAlert error={requests.error} />
      <ServerTable<DataRequestRow>
        {...list.table}
        aria-label="Solicitudes de titulares"
        records={requests.data?.rows}
        total={requests.data?.total}
        totalIsCapped={requests.data?.totalIsCapped}
        fetching={requests.isFetching}
        error={requests.error}
        columns={columns}
        onRowClick={({ record, event }) => {
          // The kind is a link already: a click on it is its own navigation.
          if ((event.target as HTMLElement).closest('a')) return;
          navigate(paths.dataRequest(record.id));
        }}
        noRecordsText={
          filtered ? 'Ninguna solicitud cumple los filtros' : 'No hay solicitudes abiertas de titulares'
        }
      />
      <RegisterRequestDialog
        opened={registering}
        onClose={() => setRegistering(false)}
        onRegistered={(request) => {
          setRegistering(false);
          notifySaved(
            request.holder
              ? 'Solicitud registrada'
              : 'Solicitud registrada y respondida: no se tratan datos de este titular',
          );
          navigate(paths.dataRequest(request.id));
        }}
      />
    </Stack>
  );
}

/**
 * Configuración → 'Solicitudes de titulares' (administrators; Ley 21.719, decision 0027): the register
 * of holders' requests and, as a second view, 'Retención' — the clients with nothing live for the
 * retention period, to review. Each view keeps its own page and filters in the address.
 */
export default function DataRequestsSection() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const view = params.get(VIEW_PARAM) === RETENTION_VIEW ? RETENTION_VIEW : 'solicitudes';
  return (
    <Stack gap="md">
      <SegmentedControl
        value={view}
        onChange={(next) =>
          navigate({ search: next === RETENTION_VIEW ? `?${VIEW_PARAM}=${RETENTION_VIEW}` : '' })
        }
        data={[
          { value: 'solicitudes', label: 'Solicitudes' },
          { value: RETENTION_VIEW, label: 'Retención' },
        ]}
        aria-label="Vista"
        style={{ alignSelf: 'flex-start' }}
      />
      {view === RETENTION_VIEW ? <RetentionSection /> : <RequestsRegister />}
    </Stack>
  );
}
