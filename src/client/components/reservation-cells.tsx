import { Anchor, Badge, Group, Text } from '@mantine/core';
import type { CSSProperties } from 'react';
import { Link } from 'react-router';

/**
 * A reservation's number in a list, as every list shows it: a link when it leads somewhere, red with
 * 'Resciliada' once rescinded.
 */
export function ReservationNumberCell({
  reservationNumber,
  isRescinded,
  to,
}: {
  reservationNumber: string;
  isRescinded: boolean;
  to?: string;
}) {
  const color = isRescinded ? 'red' : undefined;
  return (
    // In a table with many columns the badge goes under the number rather than widen the column.
    <Group gap={6} wrap="wrap" style={{ rowGap: 2 }}>
      {to ? (
        <Anchor
          component={Link}
          to={to}
          fw={600}
          size="sm"
          c={color}
          // The link opens what it names, not what a click on its row opens.
          onClick={(event) => event.stopPropagation()}
        >
          {reservationNumber}
        </Anchor>
      ) : (
        <Text size="sm" fw={600} c={color}>
          {reservationNumber}
        </Text>
      )}
      {isRescinded ? (
        <Badge color="red" size="sm" miw="max-content">
          Resciliada
        </Badge>
      ) : null}
    </Group>
  );
}

/** A project in a list: its name over its stage. */
export function ProjectCell({ name, stage }: { name: string; stage: string }) {
  return (
    <div>
      <Text size="sm">{name}</Text>
      <Text size="xs" c="dimmed">
        {stage}
      </Text>
    </div>
  );
}

/** Rescinded reservations show red in every list (spec part 2, issue 13). */
export function rescindedRowStyle(row: { isRescinded: boolean }): CSSProperties | undefined {
  return row.isRescinded ? { backgroundColor: 'var(--mantine-color-red-0)' } : undefined;
}
