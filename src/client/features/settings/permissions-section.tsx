import { Box, Group, List, Paper, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconMinus } from '@tabler/icons-react';
import {
  ACTION_NAMES,
  ACTIONS,
  holdersOf,
  holds,
  USER_TYPES,
  type UserType,
} from '../../../shared/permissions';
import { policyDescriptions, taskRuleDescriptions } from '../../../shared/permissions-text';

function Allowed({ allowed, userType }: { allowed: boolean; userType: UserType }) {
  return allowed ? (
    <ThemeIcon
      size="sm"
      radius="xl"
      color="green"
      variant="light"
      role="img"
      aria-label={`${userType}: permitido`}
      data-allowed="true"
    >
      <IconCheck size={14} />
    </ThemeIcon>
  ) : (
    <ThemeIcon
      size="sm"
      radius="xl"
      color="gray"
      variant="transparent"
      role="img"
      aria-label={`${userType}: no permitido`}
      data-allowed="false"
    >
      <IconMinus size={14} />
    </ThemeIcon>
  );
}

/**
 * Permisos: what each user type may do, read-only and generated from the same rules the server
 * checks (`can` over ADMIN_ACTIONS, and the record-level policies), so it cannot drift from them.
 */
export function PermissionsSection() {
  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed" maw={760}>
        Lo que puede hacer cada tipo de usuario. Esta tabla se genera a partir de las mismas reglas que aplica
        el servidor en cada acción; para cambiar lo que puede hacer una persona, cambie su tipo de usuario en
        la pestaña Usuarios.
      </Text>

      <Paper withBorder radius="md" visibleFrom="sm">
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="sm" striped aria-label="Permisos por tipo de usuario">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Acción</Table.Th>
                {USER_TYPES.map((userType) => (
                  <Table.Th key={userType} ta="center">
                    {userType}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {ACTION_NAMES.map((action) => (
                <Table.Tr key={action} data-action={action}>
                  <Table.Td>{ACTIONS[action].label}</Table.Td>
                  {USER_TYPES.map((userType) => (
                    <Table.Td key={userType} ta="center">
                      <Group justify="center">
                        <Allowed allowed={holds(userType, action)} userType={userType} />
                      </Group>
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>

      {/* Phones: one card per action, naming the user types allowed. */}
      <Stack gap="xs" hiddenFrom="sm" role="list" aria-label="Permisos por acción">
        {ACTION_NAMES.map((action) => (
          <Paper key={action} withBorder radius="md" p="sm" role="listitem">
            <Text size="sm" fw={500}>
              {ACTIONS[action].label}
            </Text>
            <Text size="xs" c="dimmed" mt={4}>
              Permitido a: {holdersOf(action).join(', ') || 'nadie'}
            </Text>
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
