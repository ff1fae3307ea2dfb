import { Button, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconUsersPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { formatPersonName } from '../../../shared/format';
import { can } from '../../../shared/permissions';
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
import { type FlowSettingsTask, FlowStagePanel } from './flow-stages';

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
            label: formatPersonName(seller),
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
        <FlowStagePanel
          key={stage.id}
          stage={stage}
          index={index}
          renderTask={(task) => ({
            details: <AssigneeList ids={task.defaultAssigneeIds} users={users.data} />,
            actions: canManage ? <SaleTaskAssignees task={task} users={users.data} /> : null,
          })}
        />
      ))}
    </Stack>
  );
}

/** 'Asignar': the task's default assignees, several, chosen in a dialog. */
function SaleTaskAssignees({ task, users }: { task: FlowSettingsTask; users: UserOption[] | undefined }) {
  const [editing, setEditing] = useState(false);
  const save = useSetDefaultAssignees();
  return (
    <>
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
    </>
  );
}
