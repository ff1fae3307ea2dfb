import { Box, VisuallyHidden } from '@mantine/core';
import { useEffect } from 'react';
import { useLiveUpdates, usePendingTaskCount } from './api';

/** The badge cap of spec part 1 §9: '99+' above 99. */
export function formatBadgeCount(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/**
 * The red badge on the top bar's bell: the signed-in user's pending tasks (workflows.md §6).
 * Nothing when there are none. A failed count is only logged (spec part 1 §8). The bell holds the
 * tab's live stream: the count (and any open inbox or flow screen) refreshes when a change concerns
 * it, and on a 60-second timer only while the stream is down.
 */
export function BellBadge() {
  useLiveUpdates();
  const { data, error } = usePendingTaskCount();
  useEffect(() => {
    if (error) console.error('No se pudo contar las tareas pendientes', error);
  }, [error]);
  return <BellBadgeView count={data?.count ?? 0} />;
}

export function BellBadgeView({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <>
      <VisuallyHidden>{`, ${count} ${count === 1 ? 'tarea pendiente' : 'tareas pendientes'}`}</VisuallyHidden>
      <Box
        aria-hidden
        component="span"
        data-testid="bell-badge"
        title={`${count} tareas pendientes`}
        // Inside the bell button's box: the button clips what overflows it.
        style={{
          position: 'absolute',
          top: 1,
          right: 1,
          minWidth: 16,
          height: 16,
          padding: '0 4px',
          borderRadius: 8,
          background: 'var(--mantine-color-red-filled)',
          color: 'var(--mantine-color-white)',
          fontSize: 10,
          fontWeight: 700,
          lineHeight: '16px',
          textAlign: 'center',
          boxShadow: '0 0 0 1.5px var(--mantine-color-body)',
          pointerEvents: 'none',
        }}
      >
        {formatBadgeCount(count)}
      </Box>
    </>
  );
}
