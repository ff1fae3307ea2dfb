import { Button, Checkbox, Group, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { foldForSearch, searchWords } from '../../../shared/domain/search';
import type { UserOption } from '../../../shared/schemas/users';
import { ErrorAlert } from '../../components/error-alert';
import { PersonAvatar } from '../../components/user-avatars';
import { fullName } from '../users/api';

/**
 * The sale task's default assignees: a checklist of the active users with a search box (name,
 * position, type). Users deactivated since are left out of what is saved.
 */
export function AssigneesDialog({
  opened,
  taskName,
  selectedIds,
  users,
  saving,
  error,
  onSave,
  onClose,
}: {
  opened: boolean;
  taskName: string;
  selectedIds: readonly string[];
  users: readonly UserOption[];
  saving: boolean;
  error: unknown;
  onSave: (userIds: string[]) => void;
  onClose: () => void;
}) {
  const activeIds = useMemo(() => new Set(users.map((user) => user.id)), [users]);
  const [chosen, setChosen] = useState<string[]>(() => selectedIds.filter((id) => activeIds.has(id)));
  const [search, setSearch] = useState('');
  const dropped = selectedIds.length - selectedIds.filter((id) => activeIds.has(id)).length;

  const words = searchWords(search);
  const shown = users.filter((user) => {
    const text = foldForSearch(`${user.firstName} ${user.lastName} ${user.position} ${user.userType}`);
    return words.every((word) => text.includes(word));
  });

  const toggle = (id: string, on: boolean) =>
    setChosen((current) => (on ? [...current, id] : current.filter((other) => other !== id)));

  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!saving) onClose();
      }}
      title={<Text fw={700}>Responsables por defecto</Text>}
      size="md"
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <Stack gap="sm">
        <Text size="sm">
          Tarea: <strong>{taskName}</strong>
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
              shown.map((user) => (
                <Checkbox.Card
                  key={user.id}
                  checked={chosen.includes(user.id)}
                  onChange={(on) => toggle(user.id, on)}
                  radius="md"
                  p="xs"
                  withBorder={false}
                  aria-label={fullName(user)}
                >
                  <Group gap="sm" wrap="nowrap">
                    <Checkbox.Indicator />
                    <PersonAvatar person={user} size={30} />
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" fw={500}>
                        {fullName(user)}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {user.position} · {user.userType}
                      </Text>
                    </div>
                  </Group>
                </Checkbox.Card>
              ))
            )}
          </Stack>
        </ScrollArea.Autosize>
        {dropped > 0 ? (
          <Text size="xs" c="orange">
            {dropped === 1
              ? 'Un responsable actual está desactivado y se quitará al guardar.'
              : `${dropped} responsables actuales están desactivados y se quitarán al guardar.`}
          </Text>
        ) : null}
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
