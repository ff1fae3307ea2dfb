import { useMemo } from 'react';
import type { UserOption } from '../../../shared/schemas/users';
import { UserChecklistDialog } from '../../components/user-checklist-dialog';
import type { FlowTaskView } from './stages-section';

/**
 * 'Asignar responsables' (spec part 2 §2): a task's assignees, several at once — or, for a task of
 * one responsible (`single`, payment flows), one — chosen from the active users. Users deactivated
 * since they were assigned stay listed while they are, marked, and can be taken off.
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
  const people = useMemo(() => {
    const activeIds = new Set(users.map((user) => user.id));
    const inactive = task.assignees
      .filter((assignee) => !activeIds.has(assignee.id))
      .map((person) => ({ ...person, isInactive: true }));
    return [...inactive, ...users];
  }, [task.assignees, users]);
  return (
    <UserChecklistDialog
      opened={opened}
      title={single ? 'Asignar responsable' : 'Asignar responsables'}
      taskName={task.name}
      people={people}
      initialIds={task.assignees.map((assignee) => assignee.id)}
      single={single}
      saving={saving}
      error={error}
      onSave={onSave}
      onClose={onClose}
    />
  );
}
