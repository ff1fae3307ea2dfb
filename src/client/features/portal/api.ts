import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginBody } from '../../../shared/schemas/auth';
import type {
  BrokerUserInviteBody,
  BrokerUserList,
  BrokerUserRow,
  PortalOperationsPage,
  PortalPasswordBody,
  PortalUser,
} from '../../../shared/schemas/portal';
import { api } from '../../lib/api';

/**
 * The brokers' portal (issue 58, decision 0069). Its calls carry the portal's own cookie, never a
 * staff session: they are sent as calls that need no staff session, so a 401 of the portal is the
 * portal's to handle (its sign-in page), not the staff app's lost session.
 */
const PORTAL = { allowUnauthenticated: true } as const;

export const portalKeys = {
  me: ['portal', 'me'] as const,
  users: (brokerId: string) => ['portal', 'users', brokerId] as const,
};

/** The broker user of this browser's portal session, or null when signed out. */
export function usePortalUser() {
  return useQuery({
    queryKey: portalKeys.me,
    queryFn: async ({ signal }) => {
      try {
        return (await api<{ user: PortalUser }>('/api/portal/me', { ...PORTAL, signal })).user;
      } catch (error) {
        if ((error as { status?: number }).status === 401) return null;
        throw error;
      }
    },
    retry: false,
  });
}

export function usePortalLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) =>
      api<{ user: PortalUser }>('/api/portal/auth/login', { ...PORTAL, method: 'POST', body }),
    onSuccess: (answer) => client.setQueryData(portalKeys.me, answer.user),
  });
}

export function usePortalLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<null>('/api/portal/auth/logout', { ...PORTAL, method: 'POST' }),
    onSettled: () => client.setQueryData(portalKeys.me, null),
  });
}

export function useSetPortalPassword() {
  return useMutation({
    mutationFn: (body: PortalPasswordBody) =>
      api<null>('/api/portal/auth/password', { ...PORTAL, method: 'POST', body }),
  });
}

// --- Brokers → 'Portal' (staff) -------------------------------------------------------------------

export function useBrokerUsers(brokerId: string) {
  return useQuery({
    queryKey: portalKeys.users(brokerId),
    queryFn: ({ signal }) => api<BrokerUserList>(`/api/brokers/${brokerId}/portal-users`, { signal }),
  });
}

export function useInviteBrokerUser(brokerId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BrokerUserInviteBody) =>
      api<{ user: BrokerUserRow }>(`/api/brokers/${brokerId}/portal-users`, { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: portalKeys.users(brokerId) }),
  });
}

export function useSetBrokerUserActive(brokerId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) =>
      api<{ user: BrokerUserRow }>(
        `/api/brokers/${brokerId}/portal-users/${id}/${isActive ? 'reactivate' : 'deactivate'}`,
        { method: 'POST' },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: portalKeys.users(brokerId) }),
  });
}

export function usePortalOperations(page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['portal', 'operations', page],
    queryFn: ({ signal }) =>
      api<PortalOperationsPage>('/api/portal/operations', { ...PORTAL, query: { page }, signal }),
    enabled,
  });
}
