import { ActionIcon, Button, Group, Select, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { formatRut } from '../../../shared/format';
import { BROKER_SORTS, type BrokerRow } from '../../../shared/schemas/brokers';
import { YES_NO_ALL } from '../../../shared/schemas/common';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { FilterBar } from '../../components/filter-bar';
import { PageHeader } from '../../components/page-header';
import { SearchInput } from '../../components/search-input';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { StatusDot } from '../../components/status-dot';
import { useNarrow } from '../../lib/layout';
import { oneOf, useListParams } from '../../lib/list-params';
import { useBrokerKams, useBrokers } from './api';

const KAM_COMMISSION_CHOICES = [
  { value: 'yes', label: 'Recibe comisión' },
  { value: 'no', label: 'No recibe comisión' },
];

/**
 * /brokers: searched by name, RUT or razón social, filtered by KAM and by whether the KAM receives
 * commission, by name or sorted by RUT, razón social or KAM, paged.
 */
export default function BrokersPage() {
  const location = useLocation();
  const list = useListParams({
    sort: { sorts: BROKER_SORTS, defaultSort: 'name', defaultDirection: 'asc' },
    filters: ['kam', 'comisionKam'],
  });
  const kamReceivesCommission = oneOf(YES_NO_ALL, list.filters.comisionKam);
  const brokers = useBrokers({
    ...list.query,
    ...(list.filters.kam ? { kam: list.filters.kam } : {}),
    ...(kamReceivesCommission ? { kamReceivesCommission } : {}),
  });
  const kams = useBrokerKams();
  const back = { from: location.search };
  // On a phone (cards, one line per column) the icons need no visible header.
  const narrow = useNarrow();

  const columns: DataTableColumn<BrokerRow>[] = [
    {
      accessor: 'name',
      title: 'Broker',
      sortable: true,
      render: (broker) => (
        <Text size="sm" fw={500}>
          {broker.name}
        </Text>
      ),
    },
    {
      accessor: 'rut',
      title: 'RUT',
      noWrap: true,
      sortable: true,
      visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
      render: (broker) => formatRut(broker.rut),
    },
    {
      accessor: 'businessName',
      title: 'Razón Social',
      sortable: true,
      visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
    },
    {
      accessor: 'kamName',
      title: 'KAM',
      sortable: true,
      visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
    },
    {
      accessor: 'kamReceivesCommission',
      title: 'Comisión KAM',
      textAlign: 'center',
      render: (broker) => (
        <StatusDot
          isOn={broker.kamReceivesCommission}
          label={broker.kamReceivesCommission ? 'El KAM recibe comisión' : 'El KAM no recibe comisión'}
        />
      ),
    },
    {
      accessor: 'actions',
      title: narrow ? <VisuallyHidden>Acciones</VisuallyHidden> : 'Acciones',
      textAlign: 'right',
      noWrap: true,
      render: (broker) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <ActionIcon
            component={Link}
            to={paths.editBroker(broker.id)}
            state={back}
            variant="subtle"
            aria-label={`Editar ${broker.name}`}
            title="Editar"
          >
            <IconPencil size={18} />
          </ActionIcon>
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Brokers"
        actions={
          <Button component={Link} to={paths.newBroker} state={back} leftSection={<IconPlus size={18} />}>
            Nuevo Broker
          </Button>
        }
      />
      <Stack gap="md">
        <ErrorAlert error={brokers.error} />
        <FilterBar
          activeCount={list.activeFilterCount}
          onClear={list.clearFilters}
          search={
            <SearchInput
              value={list.search}
              onSearch={list.setSearch}
              placeholder="Buscar por nombre, RUT o razón social"
            />
          }
        >
          <Select
            label="KAM"
            placeholder="Todos"
            data={kams.data ?? []}
            value={list.filters.kam ?? null}
            onChange={(value) => list.setFilter('kam', value)}
            searchable
            clearable
            nothingFoundMessage="Ningún KAM con ese nombre"
            w={{ base: '100%', sm: 220 }}
          />
          <Select
            label="Comisión KAM"
            placeholder="Todos"
            data={KAM_COMMISSION_CHOICES}
            value={kamReceivesCommission === 'all' ? null : (kamReceivesCommission ?? null)}
            onChange={(value) => list.setFilter('comisionKam', value)}
            clearable
            w={{ base: '100%', sm: 200 }}
          />
        </FilterBar>
        <ServerTable<BrokerRow>
          {...list.table}
          aria-label="Brokers"
          records={brokers.data?.rows}
          total={brokers.data?.total}
          totalIsCapped={brokers.data?.totalIsCapped}
          fetching={brokers.isFetching}
          error={brokers.error}
          columns={columns}
          noRecordsText={
            list.search || list.activeFilterCount > 0
              ? 'Ningún broker coincide con la búsqueda'
              : 'Aún no hay brokers'
          }
        />
      </Stack>
    </>
  );
}
