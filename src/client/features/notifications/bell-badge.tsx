import { Box, VisuallyHidden } from '@mantine/core';
import { useEffect } from 'react';
import type { NotificationCount } from '../../../shared/schemas/notifications';
import { useLiveUpdates, usePendingTaskCount } from './api';

/** The badge cap of spec part 1 §9: '99+' above 99. */
export function formatBadgeCount(count: number): string {
  return count > 99 ? '99+' : String(count);
}

const listFormat = new Intl.ListFormat('es', { type: 'conjunction' });
const amount = (count: number, one: string, many: string) =>
  `${count.toLocaleString('es-CL')} ${count === 1 ? one : many}`;

/**
 * What the badge counts, in words: '3 tareas pendientes y 1 mención sin leer' (and an administrator's
 * overdue holders' requests); only the parts that are not zero.
 */
export function bellCountText(counts: Omit<NotificationCount, 'count'>): string {
  const parts = [
    counts.tasks > 0 ? amount(counts.tasks, 'tarea pendiente', 'tareas pendientes') : null,
    counts.mentions > 0 ? amount(counts.mentions, 'mención sin leer', 'menciones sin leer') : null,
    counts.dataRequests > 0
      ? amount(counts.dataRequests, 'solicitud de titular vencida', 'solicitudes de titulares vencidas')
      : null,
  ].filter((part): part is string => part !== null);
  return listFormat.format(parts);
}

/**
 * The red badge on the top bar's bell: the signed-in user's pending tasks (workflows.md §6) plus
 * their unread mentions (decision 0030) and, for administrators, the holders' requests past due.
 * Nothing when there are none. A failed count is only logged (spec part 1 §8). The bell holds the
 * tab's live stream: the count (and any open inbox or flow screen) refreshes when a change concerns
 * it, and on a 60-second timer only while the stream is down.
 */
export function BellBadge() {
  useLiveUpdates();
  const { data, error } = usePendingTaskCount();
  useEffect(() => {
    if (error) console.error('No se pudo contar las notificaciones', error);
  }, [error]);
  return <BellBadgeView counts={data ?? { count: 0, tasks: 0, mentions: 0, dataRequests: 0 }} />;
}

export function BellBadgeView({ counts }: { counts: NotificationCount }) {
  const { count } = counts;
  if (count <= 0) return null;
  const text = bellCountText(counts);
  return (
    <>
      <VisuallyHidden>{`, ${text}`}</VisuallyHidden>
      <Box
        aria-hidden
        component="span"
        data-testid="bell-badge"
        title={text}
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
