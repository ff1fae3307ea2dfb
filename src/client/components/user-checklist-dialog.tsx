import { Badge, Button, Checkbox, Group, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { foldForSearch, searchWords } from '../../shared/domain/search';
import { formatPersonName } from '../../shared/format';
import type { UserOption } from '../../shared/schemas/users';
import { ErrorAlert } from './error-alert';
import { PersonAvatar } from './user-avatars';

/** A person the checklist offers: an active user, or one deactivated since (shown marked). */
export type ChecklistPerson = Pick<UserOption, 'id' | 'firstName' | 'lastName' | 'avatarUrl'> &
  Partial<Pick<UserOption, 'position' | 'userType'>> & { isInactive?: boolean };

/**
 * The one user picker of the product: a task's people chosen from a searchable checklist (name,
 * position, type) — several, or one when `single`. Used by 'Asignar responsables' on a flow and by
 * the default assignees of Configuración.
 */
export function UserChecklistDialog({
  opened,
  title,
  taskName,
  people,
  initialIds,
  single = false,
  note,
  saving,
  error,
  onSave,
  onClose,
}: {
  opened: boolean;
  title: string;
  taskName: string;
  people: readonly ChecklistPerson[];
  initialIds: readonly string[];
  single?: boolean;
  /** Said under the list (e.g. who will be dropped on saving). */
  note?: ReactNode;
  saving: boolean;
  error: unknown;
  onSave: (userIds: string[]) => void;
  onClose: () => void;
}) {
  const [chosen, setChosen] = useState<string[]>(() => [...initialIds]);
  const [search, setSearch] = useState('');
  const words = searchWords(search);
  const shown = people.filter((person) => {
    const text = foldForSearch(
      `${formatPersonName(person)} ${person.position ?? ''} ${person.userType ?? ''}`,
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
      title={<Text fw={700}>{title}</Text>}
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
              shown.map((person) => (
                <Checkbox.Card
                  key={person.id}
                  checked={chosen.includes(person.id)}
                  onChange={(on) => toggle(person.id, on)}
                  radius="md"
                  p="xs"
                  withBorder={false}
                  aria-label={formatPersonName(person)}
                >
                  <Group gap="sm" wrap="nowrap">
                    <Checkbox.Indicator />
                    <PersonAvatar person={person} size={30} />
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" fw={500}>
                        {formatPersonName(person)}
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
        {note}
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
