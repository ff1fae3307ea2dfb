import { Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconUserMinus } from '@tabler/icons-react';
import { formatPersonName } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import type { UserOption } from '../../../shared/schemas/users';
import { PageLoader } from '../../app/shell/app-layout';
import { ErrorAlert } from '../../components/error-alert';
import { errorMessage } from '../../lib/api';
import { notifyError, notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { useUserOptions } from '../users/api';
import { usePaymentFlowSettings, useSetDefaultAssignees } from './api';
import { AssigneeList, INACTIVE_USER_LABEL } from './assignees';
import { type FlowSettingsTask, FlowStagePanel } from './flow-stages';

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
            <FlowStagePanel
              key={stage.id}
              stage={stage}
              index={index}
              renderTask={(task) => ({
                actions: <PaymentTaskAssignee task={task} users={users.data} canManage={canManage} />,
              })}
            />
          ))}
        </Stack>
      ))}
    </Stack>
  );
}

/** The task's one default assignee: a select for who may change it, the name for the rest. */
function PaymentTaskAssignee({
  task,
  users,
  canManage,
}: {
  task: FlowSettingsTask;
  users: UserOption[] | undefined;
  canManage: boolean;
}) {
  const save = useSetDefaultAssignees();
  const assigneeId = task.defaultAssigneeIds[0] ?? null;
  if (!canManage) {
    return (
      <AssigneeList ids={task.defaultAssigneeIds} users={users} emptyText="Sin responsable por defecto" />
    );
  }
  const options = (users ?? []).map((user) => ({ value: user.id, label: formatPersonName(user) }));
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
  );
}
