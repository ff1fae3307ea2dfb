import { Badge, Button, Group, Paper, Text } from '@mantine/core';
import { IconUser } from '@tabler/icons-react';
import { formatRut } from '../../../shared/format';
import type { ClientSummary } from './lookups';

/** The chosen buyer above the reservation form, with 'Cambiar Cliente'. */
export function ClientCard({
  client,
  onChange,
  disabled,
}: {
  client: ClientSummary;
  onChange: () => void;
  disabled?: boolean;
}) {
  return (
    <Paper withBorder p="md" radius="md" mb="md">
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm">
          <IconUser size={22} />
          <div>
            <Group gap="xs">
              <Text fw={600} data-testid="reservation-client">
                {client.firstName} {client.lastName}
              </Text>
              {client.isDeleted ? (
                <Badge color="red" variant="light">
                  Cliente eliminado
                </Badge>
              ) : null}
            </Group>
            <Text size="sm" c="dimmed">
              RUT {formatRut(client.rut)}
            </Text>
          </div>
        </Group>
        {disabled ? null : (
          <Button variant="light" onClick={onChange}>
            Cambiar Cliente
          </Button>
        )}
      </Group>
    </Paper>
  );
}
