import { Avatar, type AvatarProps, Group, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatPersonName } from '../../shared/format';

export interface AvatarPerson {
  id: string;
  firstName: string;
  lastName: string;
  avatarUrl?: string | null;
}

/** A user's picture, or their initials on a colour of their own. */
export function PersonAvatar({
  person,
  ...props
}: { person: AvatarPerson } & Omit<AvatarProps, 'src' | 'name' | 'alt'>) {
  const name = formatPersonName(person);
  return <Avatar src={person.avatarUrl ?? null} name={name} alt={name} color="initials" {...props} />;
}

/** Spec part 2 §9: avatars shown max 3, then +N. */
export const SHOWN_AVATARS = 3;

/**
 * Up to three avatars, then '+N'; each name on hover (the '+N' lists the rest); the whole group is
 * named for screen readers. `empty` is what an empty list shows.
 */
export function AvatarStack({
  people,
  size = 28,
  empty = null,
  label = 'Asignados',
}: {
  people: readonly AvatarPerson[];
  /** What the group is, for screen readers: 'Asignados: Ana Rojas, Bruno Díaz'. */
  label?: string;
  size?: number;
  empty?: ReactNode;
}) {
  if (people.length === 0) {
    return typeof empty === 'string' ? (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    ) : (
      empty
    );
  }
  const rest = people.slice(SHOWN_AVATARS);
  return (
    <Tooltip.Group openDelay={150} closeDelay={50}>
      {/* Side by side, never overlapping: overlapped, two avatars hid each other's initials (issue 57). */}
      <Group
        gap={4}
        wrap="nowrap"
        role="group"
        data-testid="avatar-stack"
        aria-label={`${label}: ${people.map(formatPersonName).join(', ')}`}
      >
        {people.slice(0, SHOWN_AVATARS).map((person) => (
          <Tooltip key={person.id} label={formatPersonName(person)} withArrow>
            <PersonAvatar person={person} size={size} />
          </Tooltip>
        ))}
        {rest.length > 0 ? (
          <Tooltip label={rest.map(formatPersonName).join(', ')} withArrow multiline maw={260}>
            <Avatar size={size} aria-label={`${rest.length} más`}>
              +{rest.length}
            </Avatar>
          </Tooltip>
        ) : null}
      </Group>
    </Tooltip.Group>
  );
}
