import { Avatar, Group, Text, Tooltip } from '@mantine/core';
import { formatPersonName } from '../../../shared/format';
import type { UserOption } from '../../../shared/schemas/users';
import { PersonAvatar, SHOWN_AVATARS } from '../../components/user-avatars';

/** Labels for the users of a task: active users by name; others (since deactivated) say so. */
export function assigneesOf(ids: readonly string[], users: readonly UserOption[] | undefined) {
  const byId = new Map((users ?? []).map((user) => [user.id, user]));
  return ids.map((id) => ({ id, user: byId.get(id) ?? null }));
}

export const INACTIVE_USER_LABEL = 'Usuario desactivado';

/** A task's default assignees: up to three avatars, then +N, and their names. */
export function AssigneeList({
  ids,
  users,
  emptyText = 'Sin responsables por defecto',
}: {
  ids: readonly string[];
  users: readonly UserOption[] | undefined;
  emptyText?: string;
}) {
  if (ids.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {emptyText}
      </Text>
    );
  }
  const assignees = assigneesOf(ids, users);
  const names = assignees.map(({ user }) => (user ? formatPersonName(user) : INACTIVE_USER_LABEL));
  return (
    <Group gap="xs" wrap="nowrap" align="center">
      <Avatar.Group spacing="xs">
        {assignees.slice(0, SHOWN_AVATARS).map(({ id, user }) =>
          user ? (
            <Tooltip key={id} label={formatPersonName(user)} withArrow>
              <PersonAvatar person={user} size={30} />
            </Tooltip>
          ) : (
            <Avatar key={id} size={30} alt={INACTIVE_USER_LABEL} />
          ),
        )}
        {assignees.length > SHOWN_AVATARS ? (
          <Tooltip label={names.slice(SHOWN_AVATARS).join(', ')} withArrow>
            <Avatar size={30}>+{assignees.length - SHOWN_AVATARS}</Avatar>
          </Tooltip>
        ) : null}
      </Avatar.Group>
      <Text size="sm" style={{ minWidth: 0 }}>
        {names.join(', ')}
      </Text>
    </Group>
  );
}
