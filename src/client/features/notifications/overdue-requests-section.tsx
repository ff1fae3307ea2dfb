import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatRut } from '../../../shared/domain/rut';
import { formatDate, formatInteger } from '../../../shared/format';
import { dataRequestKindLabels } from '../../../shared/schemas/data-requests';
import type { OverdueDataRequest } from '../../../shared/schemas/notifications';
import { paths } from '../../app/paths';
import { overdueText } from '../data-requests';

const HEADING_ID = 'solicitudes-vencidas';

/**
 * An administrator's holders' requests past their 30 days (Ley 21.719), above the task groups of
 * /notificaciones: each one's kind, holder and how late it is, leading to the request.
 */
export function OverdueRequestsSection({ requests }: { requests: OverdueDataRequest[] }) {
  if (requests.length === 0) return null;
  return (
    <section aria-labelledby={HEADING_ID} data-testid="overdue-data-requests">
      <Group gap="sm" mb="sm" align="center">
        <Title order={3} size="h4" id={HEADING_ID}>
          Solicitudes de titulares vencidas
        </Title>
        <Badge variant="light" color="red" miw="max-content">
          {formatInteger(requests.length)} {requests.length === 1 ? 'solicitud' : 'solicitudes'}
        </Badge>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="md">
        {requests.map((request) => (
          <Paper
            key={request.id}
            withBorder
            radius="md"
            p="md"
            style={{ borderLeft: '4px solid var(--mantine-color-red-7)' }}
          >
            <Stack gap={4}>
              <Anchor component={Link} to={paths.dataRequest(request.id)} fw={600} size="sm">
                Solicitud de {dataRequestKindLabels[request.kind]}
              </Anchor>
              <Text size="sm">{request.clientName ?? formatRut(request.holderRut)}</Text>
              <Group gap={6} wrap="nowrap" align="center">
                <IconAlertTriangle size={14} color="var(--mantine-color-red-text)" aria-hidden />
                <Text size="xs" c="red" fw={600}>
                  {overdueText(request.daysOverdue)}
                </Text>
                <Text size="xs" c="dimmed">
                  · venció el {formatDate(request.dueDate)}
                </Text>
              </Group>
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
    </section>
  );
}
