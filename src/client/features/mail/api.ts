import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PageParams } from '../../../shared/schemas/common';
import type { MailPreferences, MailStatus, mailPage } from '../../../shared/schemas/mail';
import { api } from '../../lib/api';

/**
 * E-mail notices (/api/mail, decision 0035): Configuración → Correos (administrators), the holidays,
 * and the signed-in user's choice of notices.
 */

export const MAIL_URL = '/api/mail';

export type MailPage = z.infer<typeof mailPage>;
export interface MailQuery extends PageParams {
  status?: MailStatus;
}
export interface Holiday {
  date: string;
  name: string;
}

export const mailKeys = {
  all: ['mail'] as const,
  messages: ['mail', 'messages'] as const,
  list: (query: MailQuery) => ['mail', 'messages', query] as const,
  holidays: (year: number) => ['mail', 'holidays', year] as const,
  preferences: ['mail', 'preferences'] as const,
};

export function useMailMessages(query: MailQuery) {
  return useQuery({
    queryKey: mailKeys.list(query),
    queryFn: ({ signal }) => api<MailPage>(`${MAIL_URL}/messages`, { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** 'Reintentar': the message is due again; the list refreshes (again shortly after, once sent). */
export function useRetryMail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ id: string; status: MailStatus }>(`${MAIL_URL}/messages/${id}/retry`, { method: 'POST' }),
    onSuccess: () => refreshSoon(queryClient),
  });
}

export function useSendTestMail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ id: string; to: string }>(`${MAIL_URL}/test`, { method: 'POST' }),
    onSuccess: () => refreshSoon(queryClient),
  });
}

/** The sender works in the background: read the list now, and once more when it has had its turn. */
function refreshSoon(queryClient: ReturnType<typeof useQueryClient>) {
  void queryClient.invalidateQueries({ queryKey: mailKeys.messages });
  setTimeout(() => void queryClient.invalidateQueries({ queryKey: mailKeys.messages }), 1500);
}

export function useHolidays(year: number) {
  return useQuery({
    queryKey: mailKeys.holidays(year),
    queryFn: async ({ signal }) =>
      (await api<{ holidays: Holiday[] }>(`${MAIL_URL}/holidays`, { query: { year }, signal })).holidays,
  });
}

export function useAddHoliday() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Holiday) => api<Holiday>(`${MAIL_URL}/holidays`, { method: 'POST', body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['mail', 'holidays'] }),
  });
}

export function useRemoveHoliday() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (date: string) => api<void>(`${MAIL_URL}/holidays/${date}`, { method: 'DELETE' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['mail', 'holidays'] }),
  });
}

export function useMailPreferences(enabled: boolean) {
  return useQuery({
    queryKey: mailKeys.preferences,
    queryFn: async ({ signal }) =>
      (await api<{ preferences: MailPreferences }>(`${MAIL_URL}/preferences`, { signal })).preferences,
    enabled,
  });
}

export function useSaveMailPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: MailPreferences) =>
      (await api<{ preferences: MailPreferences }>(`${MAIL_URL}/preferences`, { method: 'PUT', body }))
        .preferences,
    onSuccess: (preferences) => queryClient.setQueryData(mailKeys.preferences, preferences),
  });
}
