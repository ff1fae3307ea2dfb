import { useQuery } from '@tanstack/react-query';
import type { NotificationCount } from '../../../shared/schemas/notifications';
import { api } from '../../lib/api';

/** Invalidate this key after changing a task's status or assignee: the bell badge recounts. */
export const pendingTaskCountQueryKey = ['notifications', 'count'] as const;

/** Spec part 1 §9: the pending-task count refreshes every 60 seconds (and when the window regains focus). */
export const PENDING_COUNT_REFRESH_MS = 60_000;

export function usePendingTaskCount() {
  return useQuery({
    queryKey: pendingTaskCountQueryKey,
    queryFn: ({ signal }) => api<NotificationCount>('/api/notifications/count', { signal }),
    refetchInterval: PENDING_COUNT_REFRESH_MS,
    refetchOnWindowFocus: true,
    staleTime: 0,
  });
}
