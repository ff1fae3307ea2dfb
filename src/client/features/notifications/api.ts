import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { NotificationCount } from '../../../shared/schemas/notifications';
import { api } from '../../lib/api';
import { type LiveEventHandlers, useLiveEvents, useLiveEventsConnected } from '../../lib/live-events';
import { sessionQueryKey } from '../../lib/session';
// Keys only (not api.ts): this module is in the shell, which must not pull other features' fetchers.
import { approvalKeys } from '../approvals/keys';
import { stockKeys } from '../stock/keys';

export const notificationKeys = {
  /** Everything this feature caches: the badge, both inboxes and the mentions. */
  all: ['notifications'] as const,
  count: ['notifications', 'count'] as const,
  /** The signed-in user's own: their tasks (this key) and their mentions (below it). */
  mine: ['notifications', 'mine'] as const,
  mentionsAll: ['notifications', 'mine', 'mentions'] as const,
  mentions: (status: string, page: number) => ['notifications', 'mine', 'mentions', status, page] as const,
  followUpAll: ['notifications', 'follow-up'] as const,
  followUp: (userId: string | null) => ['notifications', 'follow-up', userId ?? 'all'] as const,
};

/** Invalidate this key after changing a task's status or assignee: the bell badge recounts. */
export const pendingTaskCountQueryKey = notificationKeys.count;

/**
 * Spec part 1 §9: the badge's count (pending tasks, unread mentions) refreshes every 60 seconds (and when the window regains
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

/**
 * What a live event refreshes: the inboxes and badge it concerns, any open screen of the flow, and
 * the approvals list and detail.
 */
export function liveUpdateHandlers(queryClient: QueryClient): LiveEventHandlers {
  const refreshFlow = (ids: string[]) =>
    queryClient.invalidateQueries({
      predicate: (query) => query.queryKey.some((part) => typeof part === 'string' && ids.includes(part)),
    });
  return {
    flowChanged(event) {
      // Everyone's follow-up changes with any flow; the user's own lists (tasks, mentions) only with
      // theirs.
      void queryClient.invalidateQueries({
        queryKey: event.mine ? notificationKeys.all : notificationKeys.followUpAll,
      });
      void refreshFlow([event.flowId, event.reservationId]);
      // The approvals list and detail are keyed by task: any flow's change may add, remove or decide
      // one (only the screens open now refetch).
      void queryClient.invalidateQueries({ queryKey: approvalKeys.all });
      // A unit's status follows its reservation's sale flow: Disponibilidad and the picker refresh.
      void queryClient.invalidateQueries({ queryKey: stockKeys.all });
    },
    inboxChanged() {
      void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    },
    stockChanged() {
      void queryClient.invalidateQueries({ queryKey: stockKeys.all });
    },
    permissionsChanged() {
      // Menus and buttons render from the session's actions (decision 0061).
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
    resync() {
      void queryClient.invalidateQueries();
    },
    sessionEnded() {
      // The session check asks again: without a session the guard sends the user to /login.
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  };
}

/** Keeps the tab's live stream open (mounted once, by the bell in the top bar). */
export function useLiveUpdates() {
  const queryClient = useQueryClient();
  const handlers = useMemo(() => liveUpdateHandlers(queryClient), [queryClient]);
  useLiveEvents(handlers);
}
