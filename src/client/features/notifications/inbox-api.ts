import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { InboxGroup, InboxResponse, InboxTask } from '../../../shared/schemas/notifications';
import { api } from '../../lib/api';
import { notificationKeys } from './api';

// The inboxes' fetchers, apart from api.ts (the bell's, in the initial bundle): only the lazy
// /notificaciones and /seguimiento screens load them.

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
