import { Badge, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconUsersPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { can } from '../../../shared/permissions';
import type { FlowSettingsWorkflow } from '../../../shared/schemas/settings';
import type { UserOption } from '../../../shared/schemas/users';
import { PageLoader } from '../../app/shell/app-layout';
import { ErrorAlert } from '../../components/error-alert';
import { errorMessage } from '../../lib/api';
import { notifyError, notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { useUserOptions } from '../users/api';
import { useSaleFlowSettings, useSetDefaultAssignees, useSetDefaultSeller } from './api';
import { AssigneeList } from './assignees';
import { AssigneesDialog } from './assignees-dialog';

type Task = FlowSettingsWorkflow['stages'][number]['tasks'][number];

export function daysText(days: number | null): string | null {
  if (days === null) return null;
  return days === 1 ? '1 día para completar' : `${days} días para completar`;
}

/** Configuración Flujo Venta: the default seller, then each stage's tasks and their default assignees. */
export function SaleFlowSection() {
  const canManage = can(useCurrentUser(), 'flowSettings.manage');
  const settings = useSaleFlowSettings();
  const users = useUserOptions();
  const setSeller = useSetDefaultSeller();

  if (settings.isPending) return <PageLoader />;
  if (settings.isError)
    return <ErrorAlert error={settings.error} title="No se pudo cargar el flujo de venta" />;
  const { defaultSellerId, sellers, workflow } = settings.data;

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="md" maw={560}>
        <Select
          label="Vendedor por defecto"
          description="Se propone como vendedor al registrar una nueva reserva."
          placeholder="Sin vendedor por defecto"
          data={sellers.map((seller) => ({
            value: seller.id,
            label: `${seller.firstName} ${seller.lastName}`,
          }))}
          value={defaultSellerId}
          searchable
          clearable
          nothingFoundMessage="Ningún vendedor coincide"
          disabled={!canManage || setSeller.isPending}
          onChange={(userId) =>
            setSeller.mutate(userId, {
              onSuccess: () =>
                notifySaved(userId ? 'Vendedor por defecto actualizado' : 'Se quitó el vendedor por defecto'),
              onError: (error) => notifyError(errorMessage(error)),
            })
          }
        />
        {sellers.length === 0 ? (
          <Text size="xs" c="dimmed" mt="xs">
            No hay vendedores activos: marque 'Vendedor' en la ficha de un usuario.
          </Text>
        ) : null}
      </Paper>

      <div>
        <Title order={3}>{workflow.name}</Title>
        <Text size="sm" c="dimmed">
          Los responsables por defecto de cada tarea se asignan al crear el flujo de una reserva.
        </Text>
      </div>
      <ErrorAlert error={users.error} title="No se pudo cargar la lista de usuarios" />
      {workflow.stages.map((stage, index) => (
        <Paper key={stage.id} withBorder radius="md" p="md" component="section" aria-label={stage.name}>
          <Group gap="xs" mb="sm">
            <Badge variant="light" circle>
              {index + 1}
            </Badge>
            <Title order={4}>{stage.name}</Title>
          </Group>
          <Stack gap={0}>
            {stage.tasks.map((task, taskIndex) => (
              <SaleTaskRow
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
  );
}

function SaleTaskRow({
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
  const [editing, setEditing] = useState(false);
  const save = useSetDefaultAssignees();
  const days = daysText(task.daysToComplete);
  return (
    <Group
      justify="space-between"
      gap="xs"
      py="sm"
      wrap="wrap"
      style={first ? undefined : { borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Stack gap={4} style={{ flex: '1 1 320px', minWidth: 0 }}>
        <Text size="sm" fw={600}>
          {task.name}
        </Text>
        {days ? (
          <Text size="xs" c="dimmed">
            {days}
          </Text>
        ) : null}
        <AssigneeList ids={task.defaultAssigneeIds} users={users} />
      </Stack>
      {canManage ? (
        <Button
          variant="light"
          size="xs"
          leftSection={<IconUsersPlus size={16} />}
          disabled={!users}
          onClick={() => {
            save.reset();
            setEditing(true);
          }}
          aria-label={`Asignar responsables a ${task.name}`}
        >
          Asignar
        </Button>
      ) : null}
      {editing && users ? (
        <AssigneesDialog
          opened
          taskName={task.name}
          selectedIds={task.defaultAssigneeIds}
          users={users}
          saving={save.isPending}
          error={save.error}
          onClose={() => setEditing(false)}
          onSave={(userIds) =>
            save.mutate(
              { taskId: task.id, userIds },
              {
                onSuccess: () => {
                  notifySaved('Responsables por defecto actualizados');
                  setEditing(false);
                },
              },
            )
          }
        />
      ) : null}
    </Group>
  );
}
