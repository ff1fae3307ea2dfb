import { Badge, Group, Stack, Text } from '@mantine/core';
import { formatPersonName } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import type { UserRow } from '../../../shared/schemas/settings';
import { ErrorAlert } from '../../components/error-alert';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { StatusDot } from '../../components/status-dot';
import { PersonAvatar } from '../../components/user-avatars';
import { useNarrow } from '../../lib/layout';
import { useListParams } from '../../lib/list-params';
import { useCurrentUser } from '../../lib/session';
import { useSettingsUsers } from './api';
import { editColumn, ListToolbar, useBackState, useOpenRecord } from './settings-list';

const nameOf = (user: UserRow) => formatPersonName(user);

/** Usuarios: avatar and name, e-mail, position, type, seller dot; deactivated users marked. */
export function UsersSection() {
  const canManage = can(useCurrentUser(), 'users.manage');
  const list = useListParams();
  const users = useSettingsUsers(list.query);
  const back = useBackState();
  const narrow = useNarrow();
  const openRecord = useOpenRecord<UserRow>('usuarios', canManage);

  const columns: DataTableColumn<UserRow>[] = [
    {
      accessor: 'name',
      title: 'Nombre',
      render: (user) => (
        <Group gap="sm" wrap="nowrap" justify={narrow ? 'flex-end' : 'flex-start'}>
          <PersonAvatar person={user} size={36} style={{ opacity: user.isActive ? 1 : 0.5 }} />
          <Group gap={6} wrap="wrap">
            <Text size="sm" fw={500} c={user.isActive ? undefined : 'dimmed'}>
              {nameOf(user)}
            </Text>
            {user.isActive ? null : (
              <Badge color="gray" variant="outline" size="sm">
                Inactivo
              </Badge>
            )}
          </Group>
        </Group>
      ),
    },
    { accessor: 'email', title: 'Correo Electrónico' },
    { accessor: 'position', title: 'Cargo' },
    { accessor: 'userType', title: 'Tipo', noWrap: true },
    {
      accessor: 'isSeller',
      title: 'Vendedor',
      textAlign: 'center',
      noWrap: true,
      render: (user) => (
        <StatusDot isOn={user.isSeller} label={user.isSeller ? 'Vendedor' : 'No es vendedor'} />
      ),
    },
  ];
  if (canManage) columns.push(editColumn<UserRow>('usuarios', back, nameOf, narrow));

  return (
    <Stack gap="md">
      <ListToolbar
        list={list}
        placeholder="Buscar por nombre, cargo o correo"
        searchOn="pause"
        newLabel="Nuevo Usuario"
        tab="usuarios"
        canManage={canManage}
      />
      <ErrorAlert error={users.error} />
      <ServerTable<UserRow>
        aria-label="Usuarios"
        records={users.data?.rows}
        total={users.data?.total}
        totalIsCapped={users.data?.totalIsCapped}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        fetching={users.isFetching}
        error={users.error}
        columns={columns}
        onRowClick={openRecord}
        noRecordsText={list.search ? 'Ningún usuario coincide con la búsqueda' : 'Aún no hay usuarios'}
      />
    </Stack>
  );
}
