import { Badge, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconUserMinus } from '@tabler/icons-react';
import { can } from '../../../shared/permissions';
import type { FlowSettingsWorkflow } from '../../../shared/schemas/settings';
import type { UserOption } from '../../../shared/schemas/users';
import { PageLoader } from '../../app/shell/app-layout';
import { ErrorAlert } from '../../components/error-alert';
import { errorMessage } from '../../lib/api';
import { notifyError, notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { fullName, useUserOptions } from '../users/api';
import { usePaymentFlowSettings, useSetDefaultAssignees } from './api';
import { AssigneeList, INACTIVE_USER_LABEL } from './assignees';
import { daysText } from './sale-flow-section';

type Task = FlowSettingsWorkflow['stages'][number]['tasks'][number];

/** Configuración Flujo Pago: both payment flows, each task with one default assignee. */
export function PaymentFlowSection() {
  const canManage = can(useCurrentUser(), 'flowSettings.manage');
  const settings = usePaymentFlowSettings();
  const users = useUserOptions();

  if (settings.isPending) return <PageLoader />;
  if (settings.isError)
    return <ErrorAlert error={settings.error} title="No se pudieron cargar los flujos de pago" />;

  return (
    <Stack gap="xl">
      <ErrorAlert error={users.error} title="No se pudo cargar la lista de usuarios" />
      {settings.data.workflows.map((workflow) => (
        <Stack key={workflow.id} gap="md" component="section" aria-label={workflow.name}>
          <div>
            <Title order={3}>{workflow.name}</Title>
            <Text size="sm" c="dimmed">
              Cada tarea admite un responsable por defecto, asignado al iniciar el flujo de pago.
            </Text>
          </div>
          {workflow.stages.map((stage, index) => (
            <Paper key={stage.id} withBorder radius="md" p="md">
              <Group gap="xs" mb="sm">
                <Badge variant="light" circle>
                  {index + 1}
                </Badge>
                <Title order={4}>{stage.name}</Title>
              </Group>
              <Stack gap={0}>
                {stage.tasks.map((task, taskIndex) => (
                  <PaymentTaskRow
                    key={task.id}
                    task={task}
                    users={users.data}
                    canManage={canManage}
                    first={taskIndex === 0}
                  />
                ))}
              </Stack>
            </Paper>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}

function PaymentTaskRow({
  task,
  users,
  canManage,
  first,
}: {
  task: Task;
  users: UserOption[] | undefined;
  canManage: boolean;
  first: boolean;
}) {
  const save = useSetDefaultAssignees();
  const assigneeId = task.defaultAssigneeIds[0] ?? null;
  const days = daysText(task.daysToComplete);
  const options = (users ?? []).map((user) => ({ value: user.id, label: fullName(user) }));
  // A default assignee deactivated since still shows, so the task does not look unassigned.
  if (assigneeId && !options.some((option) => option.value === assigneeId)) {
    options.push({ value: assigneeId, label: INACTIVE_USER_LABEL });
  }

  const assign = (userIds: string[]) =>
    save.mutate(
      { taskId: task.id, userIds },
      {
        onSuccess: () =>
          notifySaved(
            userIds.length
              ? `Responsable de '${task.name}' actualizado`
              : `Se quitó la asignación de '${task.name}'`,
          ),
        onError: (error) => notifyError(errorMessage(error)),
      },
    );

  return (
    <Group
      justify="space-between"
      gap="sm"
      py="sm"
      wrap="wrap"
      style={first ? undefined : { borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Stack gap={2} style={{ flex: '1 1 260px', minWidth: 0 }}>
        <Text size="sm" fw={600}>
          {task.name}
        </Text>
        {days ? (
          <Text size="xs" c="dimmed">
            {days}
          </Text>
        ) : null}
      </Stack>
      {canManage ? (
        <Group gap="xs" wrap="wrap" style={{ flex: '1 1 320px', maxWidth: 480 }}>
          <Select
            aria-label={`Responsable por defecto de ${task.name}`}
            placeholder="Sin responsable"
            data={options}
            value={assigneeId}
            searchable
            nothingFoundMessage="Ningún usuario coincide"
            disabled={!users || save.isPending}
            onChange={(userId) => {
              if (userId && userId !== assigneeId) assign([userId]);
            }}
            style={{ flex: '1 1 220px', minWidth: 0 }}
          />
          <Button
            variant="subtle"
            color="red"
            size="xs"
            leftSection={<IconUserMinus size={16} />}
            disabled={!assigneeId || save.isPending}
            onClick={() => assign([])}
          >
            Quitar Asignación
          </Button>
        </Group>
      ) : (
        <AssigneeList ids={task.defaultAssigneeIds} users={users} emptyText="Sin responsable por defecto" />
      )}
    </Group>
  );
}
