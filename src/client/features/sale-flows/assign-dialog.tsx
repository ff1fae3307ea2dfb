import { Badge, Button, Checkbox, Group, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { foldForSearch, searchWords } from '../../../shared/domain/search';
import type { UserOption } from '../../../shared/schemas/users';
import { ErrorAlert } from '../../components/error-alert';
import { PersonAvatar } from '../../components/user-avatars';
import { fullName } from '../users/api';
import type { FlowTaskView } from './stages-section';

/**
 * 'Asignar responsables' (spec part 2 §2): a task's assignees, several at once — or, for a task of
 * one responsible (`single`, payment flows), one — chosen from the active users with a search box
 * (name, position, type). Users deactivated since they were assigned stay listed while they are,
 * marked, and can be taken off.
 */
export function AssignDialog({
  opened,
  task,
  users,
  single = false,
  saving,
  error,
  onSave,
  onClose,
}: {
  opened: boolean;
  task: Pick<FlowTaskView, 'name' | 'assignees'>;
  users: readonly UserOption[];
  single?: boolean;
  saving: boolean;
  error: unknown;
  onSave: (userIds: string[]) => void;
  onClose: () => void;
}) {
  const [chosen, setChosen] = useState<string[]>(() => task.assignees.map((assignee) => assignee.id));
  const [search, setSearch] = useState('');
  const activeIds = useMemo(() => new Set(users.map((user) => user.id)), [users]);
  // The current assignees no longer active still show, so they can be taken off.
  const inactive = task.assignees.filter((assignee) => !activeIds.has(assignee.id));
  const words = searchWords(search);
  const shown = [
    ...inactive.map((person) => ({ ...person, position: '', userType: '', isInactive: true })),
    ...users.map((user) => ({ ...user, isInactive: false })),
  ].filter((person) => {
    const text = foldForSearch(
      `${person.firstName} ${person.lastName} ${person.position} ${person.userType}`,
    );
    return words.every((word) => text.includes(word));
  });
  const toggle = (id: string, on: boolean) =>
    setChosen((current) => {
      if (!on) return current.filter((other) => other !== id);
      return single ? [id] : [...current, id];
    });

  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!saving) onClose();
      }}
      title={<Text fw={700}>{single ? 'Asignar responsable' : 'Asignar responsables'}</Text>}
      size="md"
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <Stack gap="sm">
        <Text size="sm">
          Tarea: <strong>{task.name}</strong>
        </Text>
        <ErrorAlert error={error} />
        <TextInput
          placeholder="Buscar usuario por nombre o cargo"
          aria-label="Buscar usuario"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          data-autofocus
        />
        <ScrollArea.Autosize mah={340} type="auto" offsetScrollbars>
          <Stack gap={4} role="group" aria-label="Usuarios">
            {shown.length === 0 ? (
              <Text size="sm" c="dimmed" ta="center" py="md">
                Ningún usuario coincide con la búsqueda
              </Text>
            ) : (
              shown.map((person) => (
                <Checkbox.Card
                  key={person.id}
                  checked={chosen.includes(person.id)}
                  onChange={(on) => toggle(person.id, on)}
                  radius="md"
                  p="xs"
                  withBorder={false}
                  aria-label={fullName(person)}
                >
                  <Group gap="sm" wrap="nowrap">
                    <Checkbox.Indicator />
                    <PersonAvatar person={person} size={30} />
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" fw={500}>
                        {fullName(person)}
                      </Text>
                      {person.isInactive ? (
                        <Badge size="xs" color="gray">
                          Usuario desactivado
                        </Badge>
                      ) : (
                        <Text size="xs" c="dimmed">
                          {person.position} · {person.userType}
                        </Text>
                      )}
                    </div>
                  </Group>
                </Checkbox.Card>
              ))
            )}
          </Stack>
        </ScrollArea.Autosize>
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">
            {chosen.length === 0
              ? 'Ninguno seleccionado'
              : chosen.length === 1
                ? '1 seleccionado'
                : `${chosen.length} seleccionados`}
          </Text>
          <Group gap="sm">
            <Button variant="default" onClick={onClose} disabled={saving}>
              Cancelar
            </Button>
            <Button onClick={() => onSave(chosen)} loading={saving}>
              Guardar
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
