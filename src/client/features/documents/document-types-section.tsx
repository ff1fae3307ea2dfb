import {
  ActionIcon,
  Badge,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { DocumentTypeView } from '../../../shared/schemas/documents';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { FormDialog } from '../../components/form-dialog';
import { notifySaved } from '../../lib/notify';
import { useDeleteDocumentType, useDocumentTypes, useSaveDocumentType } from './api';

const VISIBILITY = [
  { value: 'all', label: 'Todo el personal' },
  { value: 'restricted', label: 'Administradores y pagos' },
];

function TypeDialog({
  type,
  opened,
  tasks,
  onClose,
}: {
  type: DocumentTypeView | null;
  opened: boolean;
  tasks: { id: string; name: string; workflowName: string }[];
  onClose: () => void;
}) {
  const save = useSaveDocumentType();
  const [name, setName] = useState(type?.name ?? '');
  const [restricted, setRestricted] = useState(type?.isRestricted ?? false);
  const [sortOrder, setSortOrder] = useState<number>(type?.sortOrder ?? 0);
  const [taskIds, setTaskIds] = useState<string[]>(type?.requiredBy.map((task) => task.taskId) ?? []);
  const close = () => {
    save.reset();
    onClose();
  };
  const groups = [...new Set(tasks.map((task) => task.workflowName))].map((group) => ({
    group,
    items: tasks
      .filter((task) => task.workflowName === group)
      .map((task) => ({ value: task.id, label: task.name })),
  }));
  return (
    <FormDialog
      opened={opened}
      title={type ? 'Editar tipo de documento' : 'Nuevo tipo de documento'}
      saving={save.isPending}
      error={save.error}
      size="lg"
      onSubmit={() =>
        save.mutate(
          {
            ...(type ? { id: type.id, version: type.version } : {}),
            name,
            isRestricted: restricted,
            sortOrder,
            requiredByTaskIds: taskIds,
          },
          {
            onSuccess: () => {
              notifySaved('Tipo de documento guardado');
              close();
            },
          },
        )
      }
      onClose={close}
    >
      <TextInput
        label="Nombre"
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        required
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="document-type-visibility">
          Quién lo ve
        </Text>
        <SegmentedControl
          aria-labelledby="document-type-visibility"
          data={VISIBILITY}
          value={restricted ? 'restricted' : 'all'}
          onChange={(value) => setRestricted(value === 'restricted')}
        />
      </Stack>
      <NumberInput
        label="Orden"
        min={0}
        max={10000}
        value={sortOrder}
        onChange={(value) => setSortOrder(typeof value === 'number' ? value : 0)}
      />
      <MultiSelect
        label="Requerido para completar las tareas"
        description="Una tarea no se puede completar mientras la reserva no tenga un documento de este tipo."
        placeholder="Ninguna"
        data={groups}
        value={taskIds}
        onChange={setTaskIds}
        searchable
        clearable
        comboboxProps={{ withinPortal: true }}
      />
    </FormDialog>
  );
}

/**
 * Configuración → Documentos (administrators): the document types, who sees each, and the tasks that
 * cannot be completed without one (issue 35). Data, not code.
 */
export default function DocumentTypesSection() {
  const types = useDocumentTypes();
  const remove = useDeleteDocumentType();
  const [editing, setEditing] = useState<DocumentTypeView | 'new' | null>(null);
  const [removing, setRemoving] = useState<DocumentTypeView | null>(null);
  if (types.isError) return <ErrorAlert error={types.error} />;
  const data = types.data;
  if (!data) return null;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={2} size="h4">
              Tipos de documento
            </Title>
            <Text size="sm" c="dimmed">
              Los documentos de cada reserva se clasifican por tipo; un tipo puede ser requisito para
              completar una tarea de los flujos.
            </Text>
          </div>
          {data.canManage ? (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              Nuevo tipo
            </Button>
          ) : null}
        </Group>
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing="xs" aria-label="Tipos de documento">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Tipo</Table.Th>
                <Table.Th>Quién lo ve</Table.Th>
                <Table.Th>Requerido por</Table.Th>
                <Table.Th ta="right">Documentos</Table.Th>
                <Table.Th ta="right">Acciones</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.types.map((type) => (
                <Table.Tr key={type.id} data-type={type.name}>
                  <Table.Td>{type.name}</Table.Td>
                  <Table.Td>
                    {type.isRestricted ? (
                      <Badge variant="light" color="grape">
                        Administradores y pagos
                      </Badge>
                    ) : (
                      <Text size="sm">Todo el personal</Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {type.requiredBy.length === 0 ? (
                      <Text size="sm" c="dimmed">
                        —
                      </Text>
                    ) : (
                      <Stack gap={2}>
                        {type.requiredBy.map((task) => (
                          <Text size="sm" key={task.taskId}>
                            {task.taskName}{' '}
                            <Text span size="xs" c="dimmed">
                              ({task.workflowName})
                            </Text>
                          </Text>
                        ))}
                      </Stack>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">{type.documentCount}</Table.Td>
                  <Table.Td>
                    {data.canManage ? (
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <ActionIcon
                          variant="subtle"
                          aria-label={`Editar ${type.name}`}
                          onClick={() => setEditing(type)}
                        >
                          <IconPencil size={18} />
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Eliminar ${type.name}`}
                          onClick={() => setRemoving(type)}
                        >
                          <IconTrash size={18} />
                        </ActionIcon>
                      </Group>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
      {editing ? (
        <TypeDialog
          key={editing === 'new' ? 'new' : editing.id}
          type={editing === 'new' ? null : editing}
          opened
          tasks={data.tasks}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        opened={removing !== null}
        title="Eliminar tipo de documento"
        confirmLabel="Eliminar"
        pendingLabel="Eliminando..."
        loading={remove.isPending}
        error={remove.error}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              notifySaved('Tipo de documento eliminado');
              setRemoving(null);
            },
          })
        }
        onClose={() => {
          remove.reset();
          setRemoving(null);
        }}
      >
        ¿Eliminar el tipo «{removing?.name}»?
      </ConfirmDialog>
    </Paper>
  );
}
