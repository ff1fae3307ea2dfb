import { Badge, Stack, Text } from '@mantine/core';
import { formatRut } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { BANK_STATUS_LABELS } from '../../../shared/schemas/brokers';
import type { AgencyRow } from '../../../shared/schemas/settings';
import { ErrorAlert } from '../../components/error-alert';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { useNarrow } from '../../lib/layout';
import { useListParams } from '../../lib/list-params';
import { useCurrentUser } from '../../lib/session';
import { useAgencies } from './api';
import { editColumn, ListToolbar, useBackState, useOpenRecord } from './settings-list';

/** Inmobiliarias: RUT, Razón Social, Banco, Tipo de Cuenta, Número de Cuenta; search on Enter. */
export function AgenciesSection() {
  const canManage = can(useCurrentUser(), 'agencies.manage');
  const list = useListParams();
  const agencies = useAgencies(list.query);
  const back = useBackState();
  const narrow = useNarrow();
  const openRecord = useOpenRecord<AgencyRow>('inmobiliarias', canManage);

  const columns: DataTableColumn<AgencyRow>[] = [
    { accessor: 'rut', title: 'RUT', noWrap: true, render: (agency) => formatRut(agency.rut) },
    {
      accessor: 'businessName',
      title: 'Razón Social',
      render: (agency) => (
        <Text size="sm" fw={500}>
          {agency.businessName}
        </Text>
      ),
    },
    { accessor: 'bank', title: 'Banco' },
    { accessor: 'accountType', title: 'Tipo de Cuenta', noWrap: true },
    { accessor: 'accountNumber', title: 'Número de Cuenta', noWrap: true },
    {
      accessor: 'accountStatus',
      title: 'Cuenta',
      noWrap: true,
      render: (agency) => (
        <Badge size="sm" variant="light" color={agency.accountStatus === 'unverified' ? 'orange' : 'green'}>
          {BANK_STATUS_LABELS[agency.accountStatus]}
        </Badge>
      ),
    },
  ];
  if (canManage)
    columns.push(editColumn<AgencyRow>('inmobiliarias', back, (agency) => agency.businessName, narrow));

  return (
    <Stack gap="md">
      <ListToolbar
        list={list}
        placeholder="Buscar por RUT o razón social (Enter)"
        searchOn="enter"
        newLabel="Nueva Inmobiliaria"
        tab="inmobiliarias"
        canManage={canManage}
      />
      <ErrorAlert error={agencies.error} />
      <ServerTable<AgencyRow>
        aria-label="Inmobiliarias"
        records={agencies.data?.rows}
        total={agencies.data?.total}
        totalIsCapped={agencies.data?.totalIsCapped}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        fetching={agencies.isFetching}
        error={agencies.error}
        columns={columns}
        onRowClick={openRecord}
        noRecordsText={
          list.search
            ? 'Ninguna inmobiliaria coincide con la búsqueda'
            : 'Aún no hay inmobiliarias registradas'
        }
      />
    </Stack>
  );
}
