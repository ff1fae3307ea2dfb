import { Text } from '@mantine/core';
import type { UserOption } from '../../../shared/schemas/users';
import { UserChecklistDialog } from '../../components/user-checklist-dialog';

/**
 * The sale task's default assignees, chosen from the active users. Users deactivated since are left
 * out of what is saved (and the dialog says so).
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
  const activeIds = new Set(users.map((user) => user.id));
  const kept = selectedIds.filter((id) => activeIds.has(id));
  const dropped = selectedIds.length - kept.length;
  return (
    <UserChecklistDialog
      opened={opened}
      title="Responsables por defecto"
      taskName={taskName}
      people={users}
      initialIds={kept}
      note={
        dropped > 0 ? (
          <Text size="xs" c="orange">
            {dropped === 1
              ? 'Un responsable actual está desactivado y se quitará al guardar.'
              : `${dropped} responsables actuales están desactivados y se quitarán al guardar.`}
          </Text>
        ) : null
      }
      saving={saving}
      error={error}
      onSave={onSave}
      onClose={onClose}
    />
  );
}
