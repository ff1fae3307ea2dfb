import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { FlowSettingsWorkflow } from '../../../shared/schemas/settings';

/** A task of a flow's settings, as both Configuración Flujo Venta and Flujo Pago list it. */
export type FlowSettingsTask = FlowSettingsWorkflow['stages'][number]['tasks'][number];

export function daysText(days: number | null): string | null {
  if (days === null) return null;
  return days === 1 ? '1 día para completar' : `${days} días para completar`;
}

/**
 * One stage of a flow's settings, numbered, with a row per task: its name, its days to complete,
 * what the row adds under them (`details`) and, on the right, what the user may change (`actions`).
 */
export function FlowStagePanel({
  stage,
  index,
  renderTask,
}: {
  stage: FlowSettingsWorkflow['stages'][number];
  index: number;
  renderTask: (task: FlowSettingsTask) => { details?: ReactNode; actions?: ReactNode };
}) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={stage.name}>
      <Group gap="xs" mb="sm">
        <Badge variant="light" circle>
          {index + 1}
        </Badge>
        <Title order={4}>{stage.name}</Title>
      </Group>
      <Stack gap={0}>
        {stage.tasks.map((task, taskIndex) => {
          const { details, actions } = renderTask(task);
          const days = daysText(task.daysToComplete);
          return (
            <Group
              key={task.id}
              justify="space-between"
              gap="sm"
              py="sm"
              wrap="wrap"
              style={
                taskIndex === 0 ? undefined : { borderTop: '1px solid var(--mantine-color-default-border)' }
              }
            >
              <Stack gap={4} style={{ flex: '1 1 260px', minWidth: 0 }}>
                <Text size="sm" fw={600}>
                  {task.name}
                </Text>
                {days ? (
                  <Text size="xs" c="dimmed">
                    {days}
                  </Text>
                ) : null}
                {details}
              </Stack>
              {actions}
            </Group>
          );
        })}
      </Stack>
    </Paper>
  );
}
