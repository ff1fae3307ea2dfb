import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { taskStatusBadges } from '../../../shared/domain/workflow/statuses';
import { formatInstantDate, formatInteger } from '../../../shared/format';
import type { InboxTask } from '../../../shared/schemas/notifications';
import { paths } from '../../app/paths';
import { PersonAvatar } from '../../components/user-avatars';

/** Where a card leads: a sale task to its reservation flow, a payment task to its payment flow. */
export function flowPathOf(task: Pick<InboxTask, 'kind' | 'flowId'>): string {
  return task.kind === 'sale' ? paths.reservationFlow(task.flowId) : paths.paymentFlow(task.flowId);
}

/** A flow's kind as a card names it. */
export function flowKindLabel(task: Pick<InboxTask, 'kind' | 'isSecondPayment'>): string {
  return task.kind === 'sale' ? 'Flujo de venta' : task.isSecondPayment ? 'Segundo pago' : 'Flujo de pago';
}

/**
 * When the task started, or, for one of a stage the flow has not reached (assigned ahead), that it
 * has not begun and where the flow is: 'Asignada · aún no comienza (flujo en Reserva)'.
 */
export function startText(task: Pick<InboxTask, 'startedAt' | 'flowStageName'>): string {
  if (task.startedAt) return `Iniciada el ${formatInstantDate(task.startedAt)}`;
  return task.flowStageName
    ? `Asignada · aún no comienza (flujo en ${task.flowStageName})`
    : 'Asignada · aún no comienza';
}

const days = (count: number) => `${formatInteger(count)} ${count === 1 ? 'día' : 'días'}`;

function Figure({ label, value, late = false }: { label: string; value: string; late?: boolean }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c={late ? 'red.8' : 'dimmed'}>
        {label}
      </Text>
      <Text size="sm" fw={late ? 700 : 500} c={late ? 'red.8' : undefined}>
        {value}
      </Text>
    </Stack>
  );
}

/**
 * One pending task as both inboxes show it (spec part 2 §2): project and stage, status, reservation,
 * apartment, client, broker, the task, its assignee (follow-up), days since start, deadline and days
 * late. The whole card is the link to its flow ('Ver Flujo').
 */
export function TaskCard({ task, showAssignee }: { task: InboxTask; showAssignee: boolean }) {
  const status = taskStatusBadges[task.status];
  const flowLabel = flowKindLabel(task);
  return (
    <Card
      component={Link}
      to={flowPathOf(task)}
      withBorder
      radius="md"
      padding="md"
      data-testid="task-card"
      data-task-id={task.id}
      style={{ color: 'inherit', textDecoration: 'none' }}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <div style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} truncate="end">
              {task.projectName}
            </Text>
            <Text size="xs" c="dimmed">
              {task.projectStage} · {flowLabel}
            </Text>
          </div>
          <Badge color={status.color} variant="light" miw="max-content">
            {status.label}
          </Badge>
        </Group>
        <Text fw={700} size="sm">
          {task.taskName}
        </Text>
        <Group gap="lg" wrap="wrap" align="flex-start">
          <Figure label="Reserva" value={task.reservationNumber} />
          <Figure label="Depto." value={task.apartmentNumber} />
          <Figure label="Cliente" value={task.clientName} />
          <Figure label="Broker" value={task.brokerName ?? '—'} />
        </Group>
        <Group gap="lg" wrap="wrap" align="flex-start">
          <Figure
            label="Desde el inicio"
            value={task.daysSinceStart === null ? 'Sin iniciar' : days(task.daysSinceStart)}
          />
          <Figure
            label="Plazo"
            value={task.daysToComplete === null ? 'Sin plazo' : days(task.daysToComplete)}
          />
          <Figure label="Atraso" value={days(task.daysLate)} late={task.daysLate > 0} />
        </Group>
        <Group justify="space-between" align="center" wrap="nowrap" gap="xs">
          {showAssignee ? (
            task.assignee ? (
              <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                <PersonAvatar person={task.assignee} size={24} />
                <Text size="sm" truncate="end">
                  {task.assignee.firstName} {task.assignee.lastName}
                </Text>
              </Group>
            ) : (
              <Text size="sm" c="dimmed">
                Sin asignar
              </Text>
            )
          ) : (
            <Text size="xs" c="dimmed" data-testid="task-card-start">
              {startText(task)}
            </Text>
          )}
          {/* Not a second control: the card is the link; this says where it goes. */}
          <Button
            component="span"
            size="compact-sm"
            variant="light"
            rightSection={<IconArrowRight size={14} />}
            style={{ flexShrink: 0 }}
          >
            Ver Flujo
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
