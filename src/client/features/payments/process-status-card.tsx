import {
  ActionIcon,
  Badge,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { flowStatusBadges } from '../../../shared/domain/workflow/statuses';
import { formatDateTime } from '../../../shared/format';
import type { PaymentFlowDetail } from '../../../shared/schemas/payments';
import { DatesDialog, InfoItem } from '../sale-flows';
import { useSetFlowDates } from '../sale-flows/api';

const dash = (
  <Text span size="sm" c="dimmed">
    —
  </Text>
);

/** Where the flow stands, in words: its current stage, or why it has none. */
export function currentStageText(flow: Pick<PaymentFlowDetail, 'status' | 'currentStageName'>): string {
  if (flow.status === 'pending') return 'No iniciado';
  if (flow.status === 'completed') return 'Completado';
  if (flow.status === 'cancelled') return 'Cancelado';
  return flow.currentStageName ?? '—';
}

/**
 * 'Estado del Proceso' (spec part 2 §2): progress, the start (administrators correct it, and the
 * completion, when the server allows), the completion, the days since the start and the current stage.
 */
export function ProcessStatusCard({ flow }: { flow: PaymentFlowDetail }) {
  const [editing, setEditing] = useState(false);
  const dates = useSetFlowDates({ kind: 'payment', id: flow.id });
  const badge = flowStatusBadges[flow.status];
  // Who may correct the flow's dates, and when, is the server's to say (the workflow engine).
  const canEditDates = flow.commands.editDates.allowed;

  return (
    <Paper withBorder radius="md" p="md" h="100%">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={4}>Estado del Proceso</Title>
        <Badge color={badge.color} variant="light" data-testid="flow-status">
          {badge.label}
        </Badge>
      </Group>
      <Stack gap="md">
        <Stack gap={4}>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Progreso
            </Text>
            <Text size="sm" fw={600} data-testid="flow-progress">
              {flow.progress} %
            </Text>
          </Group>
          <Progress
            value={flow.progress}
            color={flow.status === 'completed' ? 'green' : 'blue'}
            aria-label={`Progreso del flujo: ${flow.progress} %`}
          />
        </Stack>
        {/* Beside the general information (wide screens) the card is narrow: two columns. */}
        <SimpleGrid cols={{ base: 2, sm: 4, lg: 2 }} spacing="md" verticalSpacing="sm">
          <InfoItem label="Fecha de Inicio" testId="flow-started">
            <Group gap={4} wrap="nowrap">
              <Text size="sm">{flow.startedAt ? formatDateTime(flow.startedAt) : dash}</Text>
              {canEditDates ? (
                <Tooltip label="Editar fechas del flujo" withArrow>
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    aria-label="Editar fechas del flujo"
                    onClick={() => {
                      dates.reset();
                      setEditing(true);
                    }}
                  >
                    <IconPencil size={14} />
                  </ActionIcon>
                </Tooltip>
              ) : null}
            </Group>
          </InfoItem>
          <InfoItem label="Fecha de Término" testId="flow-completed">
            <Text size="sm">{flow.completedAt ? formatDateTime(flow.completedAt) : dash}</Text>
          </InfoItem>
          <InfoItem label="Días Transcurridos" testId="flow-elapsed-days">
            <Text size="sm">{flow.elapsedDays ?? dash}</Text>
          </InfoItem>
          <InfoItem label="Etapa Actual" testId="current-stage">
            <Text size="sm" fw={500}>
              {currentStageText(flow)}
            </Text>
          </InfoItem>
        </SimpleGrid>
      </Stack>
      {editing ? (
        <DatesDialog
          opened
          title="Editar fechas del flujo"
          subject={
            <>
              Flujo: <strong>{flow.isSecondPayment ? 'Segundo Pago' : 'Flujo de Pago'}</strong>
            </>
          }
          startedAt={flow.startedAt}
          completedAt={flow.completedAt}
          isCompleted={flow.status === 'completed'}
          saving={dates.isPending}
          error={dates.error}
          onClose={() => setEditing(false)}
          onSave={(values) => dates.mutate(values, { onSuccess: () => setEditing(false) })}
        />
      ) : null}
    </Paper>
  );
}
