import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  InboxMention,
  MentionReadResponse,
  MentionStatus,
  MentionsReadAllResponse,
  MentionsResponse,
} from '../../../shared/schemas/notifications';
import { TASK_COMMENTS_PARAM } from '../../app/paths';
import { api } from '../../lib/api';
import { notificationKeys } from './api';
import { flowPathOf } from './task-card';

// The mentions' fetchers (decision 0030), apart from api.ts (the bell's, in the initial bundle): only
// the lazy /notificaciones screen loads them.

export const MENTIONS_URL = '/api/notifications/mentions';

/** /notificaciones 'Menciones': a page of the signed-in user's mentions, newest first. */
export function useMyMentions(status: MentionStatus, page: number, pageSize: number) {
  return useQuery({
    queryKey: notificationKeys.mentions(status, page),
    queryFn: ({ signal }) =>
      api<MentionsResponse>(MENTIONS_URL, { query: { status, page, pageSize }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/**
 * Marks mentions read; the badge and every inbox of the user refresh (the server also tells the
 * user's other tabs). Set on the hook, so it runs even when the link that marked it has left the page.
 */
function useMentionsMutation<Variables, Result>(send: (variables: Variables) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function useMarkMentionRead() {
  return useMentionsMutation((commentId: string) =>
    api<MentionReadResponse>(`${MENTIONS_URL}/${commentId}/read`, { method: 'POST' }),
  );
}

export function useMarkAllMentionsRead() {
  return useMentionsMutation(() =>
    api<MentionsReadAllResponse>(`${MENTIONS_URL}/read-all`, { method: 'POST' }),
  );
}

/** Where a mention leads: its flow's screen, opened on the task's comments. */
export function mentionPathOf(mention: Pick<InboxMention, 'kind' | 'flowId' | 'taskId'>): string {
  const params = new URLSearchParams({ [TASK_COMMENTS_PARAM]: mention.taskId });
  return `${flowPathOf(mention)}?${params}`;
}
