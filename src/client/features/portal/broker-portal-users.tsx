import { Alert, Badge, Button, Fieldset, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import { type BrokerUserInviteBody, brokerUserInviteBody } from '../../../shared/schemas/portal';
import { applyServerErrors } from '../../lib/forms';
import { notifySaved } from '../../lib/notify';
import { useBrokerUsers, useInviteBrokerUser, useSetBrokerUserActive } from './api';

/**
 * Brokers → 'Portal' (issue 58): the broker's people in the portal, and — when the server says this
 * user may (an administrator or the broker's KAM) — the invitation and deactivation.
 */
export function BrokerPortalUsers({ brokerId }: { brokerId: string }) {
  const users = useBrokerUsers(brokerId);
  const invite = useInviteBrokerUser(brokerId);
  const setActive = useSetBrokerUserActive(brokerId);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<BrokerUserInviteBody>({
    mode: 'uncontrolled',
    initialValues: { name: '', email: '' },
    validate: schemaResolver(brokerUserInviteBody, { sync: true }),
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await invite.mutateAsync(values);
      form.reset();
      notifySaved('Invitación enviada por correo');
    } catch (error) {
      setFailure(applyServerErrors(form, error));
    }
  });

  return (
    <Fieldset legend="Portal">
      <Stack>
        <Text size="sm" c="dimmed">
          Las personas de la corredora siguen sus operaciones y comisiones en el portal de brokers (/portal).
          La invitación llega por correo con un enlace de un solo uso, válido por 72 horas.
        </Text>
        {users.isError ? <Alert color="red">No se pudieron cargar las cuentas del portal.</Alert> : null}
        {users.data && users.data.users.length > 0 ? (
          <Table.ScrollContainer minWidth={480}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Nombre</Table.Th>
                  <Table.Th>Correo</Table.Th>
                  <Table.Th>Estado</Table.Th>
                  {users.data.canManage ? <Table.Th /> : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {users.data.users.map((user) => (
                  <Table.Tr key={user.id}>
                    <Table.Td>{user.name}</Table.Td>
                    <Table.Td>{user.email}</Table.Td>
                    <Table.Td>
                      <Badge
                        variant="light"
                        color={!user.isActive ? 'gray' : user.isPending ? 'yellow' : 'green'}
                      >
                        {!user.isActive ? 'Desactivada' : user.isPending ? 'Invitación enviada' : 'Activa'}
                      </Badge>
                    </Table.Td>
                    {users.data.canManage ? (
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="subtle"
                          color={user.isActive ? 'red' : 'blue'}
                          loading={setActive.isPending && setActive.variables?.id === user.id}
                          onClick={() => setActive.mutate({ id: user.id, isActive: !user.isActive })}
                        >
                          {user.isActive ? 'Desactivar' : 'Reactivar'}
                        </Button>
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : users.data ? (
          <Text size="sm">Aún no hay personas de esta corredora en el portal.</Text>
        ) : null}
        {users.data?.canManage ? (
          <form onSubmit={submit} noValidate>
            <Stack gap="xs">
              {failure ? (
                <Alert color="red" role="alert">
                  {failure}
                </Alert>
              ) : null}
              <Group align="flex-end" wrap="wrap">
                <TextInput
                  label="Nombre"
                  required
                  key={form.key('name')}
                  {...form.getInputProps('name')}
                  style={{ flex: '1 1 200px' }}
                />
                <TextInput
                  label="Correo Electrónico"
                  type="email"
                  required
                  key={form.key('email')}
                  {...form.getInputProps('email')}
                  style={{ flex: '1 1 220px' }}
                />
                <Button type="submit" loading={invite.isPending}>
                  Invitar al portal
                </Button>
              </Group>
            </Stack>
          </form>
        ) : null}
      </Stack>
    </Fieldset>
  );
}
