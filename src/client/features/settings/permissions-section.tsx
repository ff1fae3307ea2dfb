import {
  Alert,
  Box,
  Group,
  List,
  Loader,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { policyDescriptions, taskRuleDescriptions } from '../../../shared/permissions-text';
import type { PermissionRow, PermissionsResponse } from '../../../shared/schemas/permissions';
import { errorMessage } from '../../lib/api';
import { notifyError, notifySaved } from '../../lib/notify';
import { usePermissions, useSetPermission } from './api';

export const FIXED_LABEL = 'Fijo por la especificación';

type UserType = PermissionsResponse['userTypes'][number];

interface CellProps {
  row: PermissionRow;
  userType: UserType;
  pending: boolean;
  onChange: (row: PermissionRow, userType: UserType, granted: boolean) => void;
  /** Phones: the switch names its user type beside it. */
  withLabel?: boolean;
}

/** One action for one user type: a switch, or a locked mark when the spec fixes the action. */
function HolderSwitch({ row, userType, pending, onChange, withLabel = false }: CellProps) {
  const held = row.holders.includes(userType);
  const name = `${row.label} — ${userType}`;
  if (row.fixed) {
    return (
      <Tooltip label={FIXED_LABEL} withArrow>
        <Group gap={4} wrap="nowrap" justify={withLabel ? 'flex-start' : 'center'}>
          <Switch
            checked={held}
            disabled
            readOnly
            aria-label={`${name} (${FIXED_LABEL})`}
            label={withLabel ? userType : undefined}
            size="sm"
          />
          <ThemeIcon size="sm" variant="transparent" color="gray" role="img" aria-label={FIXED_LABEL}>
            <IconLock size={14} />
          </ThemeIcon>
        </Group>
      </Tooltip>
    );
  }
  return (
    <Switch
      checked={held}
      disabled={pending}
      aria-label={name}
      label={withLabel ? userType : undefined}
      size="sm"
      onChange={(event) => onChange(row, userType, event.currentTarget.checked)}
    />
  );
}

/**
 * Configuración → Permisos (issue 56, decision 0061): every action of the catalogue × every user type,
 * as the server holds it now. The office grants and withdraws the actions the spec does not fix; each
 * switch saves at once and the server's answer redraws the matrix. Fixed actions show a lock.
 */
export function PermissionsSection() {
  const permissions = usePermissions();
  const setPermission = useSetPermission();
  const [pending, setPending] = useState<string | null>(null);

  if (permissions.isPending) return <Loader size="sm" aria-label="Cargando permisos" />;
  if (permissions.isError) {
    return <Alert color="red">{errorMessage(permissions.error)}</Alert>;
  }
  const { userTypes, actions } = permissions.data;

  const change = (row: PermissionRow, userType: UserType, granted: boolean) => {
    const key = `${row.action}|${userType}`;
    setPending(key);
    setPermission.mutate(
      { action: row.action, userType, granted },
      {
        onSuccess: () =>
          notifySaved(
            granted ? `${userType}: se otorgó «${row.label}»` : `${userType}: se retiró «${row.label}»`,
          ),
        onError: (error) => notifyError(errorMessage(error)),
        onSettled: () => setPending(null),
      },
    );
  };
  const isPending = (row: PermissionRow, userType: UserType) => pending === `${row.action}|${userType}`;

  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed" maw={760}>
        Lo que puede hacer cada tipo de usuario. Active o desactive una acción para un tipo de usuario: el
        cambio se guarda al instante, queda en la auditoría y rige desde la siguiente acción de cada persona.
        Las acciones con candado las fija la especificación y no se pueden cambiar.
      </Text>

      <Paper withBorder radius="md" visibleFrom="sm">
        <Table.ScrollContainer minWidth={860}>
          <Table verticalSpacing="sm" striped aria-label="Permisos por tipo de usuario">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Acción</Table.Th>
                {userTypes.map((userType) => (
                  <Table.Th key={userType} ta="center">
                    {userType}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {actions.map((row) => (
                <Table.Tr key={row.action} data-action={row.action}>
                  <Table.Td>
                    <Text size="sm">{row.label}</Text>
                    {row.fixed && (
                      <Text size="xs" c="dimmed">
                        {FIXED_LABEL}
                      </Text>
                    )}
                  </Table.Td>
                  {userTypes.map((userType) => (
                    <Table.Td key={userType} ta="center">
                      <Group justify="center">
                        <HolderSwitch
                          row={row}
                          userType={userType}
                          pending={isPending(row, userType)}
                          onChange={change}
                        />
                      </Group>
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>

      {/* Phones: one card per action, a switch per user type. */}
      <Stack gap="xs" hiddenFrom="sm" role="list" aria-label="Permisos por acción">
        {actions.map((row) => (
          <Paper key={row.action} withBorder radius="md" p="sm" role="listitem" data-action={row.action}>
            <Group gap={6} wrap="nowrap" align="flex-start">
              {row.fixed && (
                <ThemeIcon size="sm" variant="transparent" color="gray">
                  <IconLock size={14} />
                </ThemeIcon>
              )}
              <Text size="sm" fw={500}>
                {row.label}
              </Text>
            </Group>
            {row.fixed ? (
              <Text size="xs" c="dimmed" mt={4}>
                {FIXED_LABEL}. Permitido a: {row.holders.join(', ')}
              </Text>
            ) : (
              <Group gap="md" mt="xs">
                {userTypes.map((userType) => (
                  <HolderSwitch
                    key={userType}
                    row={row}
                    userType={userType}
                    pending={isPending(row, userType)}
                    onChange={change}
                    withLabel
                  />
                ))}
              </Group>
            )}
          </Paper>
        ))}
      </Stack>

      <Box>
        <Title order={4} mb="xs">
          Reglas sobre registros
        </Title>
        <List size="sm" spacing={6}>
          {[...Object.values(policyDescriptions), ...taskRuleDescriptions].map((description) => (
            <List.Item key={description}>{description}</List.Item>
          ))}
        </List>
      </Box>

      <Text size="sm" maw={760}>
        Todo lo demás (clientes, brokers, reservas y las tareas de los flujos) está abierto a todos los tipos
        de usuario.
      </Text>
    </Stack>
  );
}
