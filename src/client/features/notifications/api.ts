import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type {
  InboxGroup,
  InboxResponse,
  InboxTask,
  NotificationCount,
} from '../../../shared/schemas/notifications';
import { api } from '../../lib/api';
import { type LiveEventHandlers, useLiveEvents, useLiveEventsConnected } from '../../lib/live-events';

export const notificationKeys = {
  /** Everything this feature caches: the badge and both inboxes. */
  all: ['notifications'] as const,
  count: ['notifications', 'count'] as const,
  mine: ['notifications', 'mine'] as const,
  followUpAll: ['notifications', 'follow-up'] as const,
  followUp: (userId: string | null) => ['notifications', 'follow-up', userId ?? 'all'] as const,
};

/** Invalidate this key after changing a task's status or assignee: the bell badge recounts. */
export const pendingTaskCountQueryKey = notificationKeys.count;

/**
 * Spec part 1 §9: the pending-task count refreshes every 60 seconds (and when the window regains
 * focus) — only while the live stream is down; with it, it refreshes when a change concerns the user.
 */
export const PENDING_COUNT_REFRESH_MS = 60_000;

export function usePendingTaskCount() {
  const live = useLiveEventsConnected();
  return useQuery({
    queryKey: pendingTaskCountQueryKey,
    queryFn: ({ signal }) => api<NotificationCount>('/api/notifications/count', { signal }),
    refetchInterval: live ? false : PENDING_COUNT_REFRESH_MS,
    refetchOnWindowFocus: !live,
    staleTime: 0,
  });
}

export const NOTIFICATIONS_URL = '/api/notifications';
export const FOLLOW_UP_URL = '/api/notifications/follow-up';

/** /notificaciones: the first page of every stage group of the user's own pending tasks. */
export function useMyTasks() {
  return useQuery({
    queryKey: notificationKeys.mine,
    queryFn: ({ signal }) => api<InboxResponse>(NOTIFICATIONS_URL, { signal }),
    staleTime: 0,
  });
}

/** /seguimiento: everyone's pending tasks, or one user's (the server answers non-administrators their own). */
export function useFollowUp(userId: string | null) {
  return useQuery({
    queryKey: notificationKeys.followUp(userId),
    queryFn: ({ signal }) => api<InboxResponse>(FOLLOW_UP_URL, { query: userId ? { userId } : {}, signal }),
    staleTime: 0,
  });
}

/**
 * A group's cards: its first page, then each 'Ver más' page after the last card (keyset). A new first
 * page (the list refreshed) starts over from it.
 */
export function useGroupPages(url: string, query: Record<string, string>, group: InboxGroup) {
  const [more, setMore] = useState<{ rows: InboxTask[]; cursor: string | null }>({
    rows: [],
    cursor: group.nextCursor,
  });
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setMore({ rows: [], cursor: group.nextCursor });
    setError(null);
  }, [group]);
  const loadMore = useCallback(async () => {
    if (!more.cursor) return;
    setLoading(true);
    setError(null);
    try {
      const page = await api<InboxResponse>(url, {
        query: { ...query, stage: group.stage, after: more.cursor },
      });
      const next = page.groups[0];
      setMore((current) => ({
        rows: [...current.rows, ...(next?.rows ?? [])],
        cursor: next?.nextCursor ?? null,
      }));
    } catch (failure) {
      setError(failure);
    } finally {
      setLoading(false);
    }
  }, [url, query, group.stage, more.cursor]);
  return {
    rows: useMemo(() => [...group.rows, ...more.rows], [group.rows, more.rows]),
    hasMore: more.cursor !== null,
    loadMore,
    loading,
    error,
  };
}

/** What a live event refreshes: the inboxes and badge it concerns, and any open screen of the flow. */
export function liveUpdateHandlers(queryClient: QueryClient): LiveEventHandlers {
  const refreshFlow = (ids: string[]) =>
    queryClient.invalidateQueries({
      predicate: (query) => query.queryKey.some((part) => typeof part === 'string' && ids.includes(part)),
    });
  return {
    flowChanged(event) {
      // Everyone's follow-up changes with any flow; the user's own lists only with theirs.
      void queryClient.invalidateQueries({
        queryKey: event.mine ? notificationKeys.all : notificationKeys.followUpAll,
      });
      void refreshFlow([event.flowId, event.reservationId]);
    },
    resync() {
      void queryClient.invalidateQueries();
    },
  };
}

/** Keeps the tab's live stream open (mounted once, by the bell in the top bar). */
export function useLiveUpdates() {
  const queryClient = useQueryClient();
  const handlers = useMemo(() => liveUpdateHandlers(queryClient), [queryClient]);
  useLiveEvents(handlers);
}
