import { ActionIcon, Box, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { formatRut } from '../../../shared/format';
import type { BrokerRow } from '../../../shared/schemas/brokers';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { SearchInput } from '../../components/search-input';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { useListParams } from '../../lib/list-params';
import { useBrokers } from './api';

/** The dot of the list: green when the broker's KAM receives commissions, grey otherwise. */
export function KamCommissionDot({ receives }: { receives: boolean }) {
  const label = receives ? 'El KAM recibe comisión' : 'El KAM no recibe comisión';
  return (
    <Box
      component="span"
      role="img"
      aria-label={label}
      title={label}
      data-receives={receives}
      display="inline-block"
      w={12}
      h={12}
      style={{
        borderRadius: '50%',
        background: receives ? 'var(--mantine-color-green-6)' : 'var(--mantine-color-gray-4)',
      }}
    />
  );
}

export default function BrokersPage() {
  const location = useLocation();
  const list = useListParams();
  const brokers = useBrokers(list.query);
  const back = { from: location.search };
  // On a phone the RUT goes under the name and the icons need no header, so nothing scrolls sideways.
  const narrow = useMediaQuery('(max-width: 47.99em)') ?? false;

  const columns: DataTableColumn<BrokerRow>[] = [
    {
      accessor: 'name',
      title: 'Broker',
      render: (broker) => (
        <>
          <Text size="sm" fw={500}>
            {broker.name}
          </Text>
          {narrow ? (
            <Text size="xs" c="dimmed">
              {formatRut(broker.rut)}
            </Text>
          ) : null}
        </>
      ),
    },
    {
      accessor: 'rut',
      title: 'RUT',
      noWrap: true,
      visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
      render: (broker) => formatRut(broker.rut),
    },
    {
      accessor: 'businessName',
      title: 'Razón Social',
      visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
    },
    {
      accessor: 'kamName',
      title: 'KAM',
      visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
    },
    {
      accessor: 'kamReceivesCommission',
      // Two lines on a phone ('Comisión / KAM'), one on wider screens.
      title: narrow ? <span style={{ whiteSpace: 'normal' }}>Comisión KAM</span> : 'Comisión KAM',
      textAlign: 'center',
      width: narrow ? 100 : undefined,
      render: (broker) => <KamCommissionDot receives={broker.kamReceivesCommission} />,
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
        <SearchInput
          value={list.search}
          onSearch={list.setSearch}
          placeholder="Buscar por nombre, RUT o razón social"
          maw={480}
        />
        <ServerTable<BrokerRow>
          aria-label="Brokers"
          records={brokers.data?.rows}
          total={brokers.data?.total}
          totalIsCapped={brokers.data?.totalIsCapped}
          page={list.page}
          pageSize={list.pageSize}
          onPageChange={list.setPage}
          fetching={brokers.isFetching}
          error={brokers.error}
          columns={columns}
          noRecordsText={list.search ? 'Ningún broker coincide con la búsqueda' : 'Aún no hay brokers'}
        />
      </Stack>
    </>
  );
}
