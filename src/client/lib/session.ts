import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { LoginBody, RegisterBody, SessionUser } from '../../shared/schemas/auth';
import { paths } from '../app/paths';
import { ApiError, api } from './api';
import { forgetAllDrafts } from './drafts';

export const sessionQueryKey = ['session'] as const;

/** The signed-in user, or null. A 401 simply means "not signed in". */
async function fetchSessionUser(): Promise<SessionUser | null> {
  try {
    return (await api<{ user: SessionUser }>('/api/auth/me', { allowUnauthenticated: true })).user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useSession() {
  return useQuery({
    queryKey: sessionQueryKey,
    queryFn: fetchSessionUser,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The signed-in user inside the authenticated layout (which guarantees one). */
export function useCurrentUser(): SessionUser {
  const { data } = useSession();
  if (!data) throw new Error('useCurrentUser outside the authenticated layout');
  return data;
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) =>
      api<{ user: SessionUser }>('/api/auth/login', { method: 'POST', body, allowUnauthenticated: true }),
    onSuccess: ({ user }) => {
      queryClient.clear();
      forgetAllDrafts();
      queryClient.setQueryData(sessionQueryKey, user);
    },
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterBody) =>
      api<{ user: SessionUser }>('/api/auth/register', { method: 'POST', body, allowUnauthenticated: true }),
  });
}

/** Signs out and goes to /login. 401, 403 and 404 from the server are ignored (already signed out). */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    try {
      await api('/api/auth/logout', { method: 'POST', allowUnauthenticated: true });
    } catch (error) {
      if (!(error instanceof ApiError) || ![401, 403, 404].includes(error.status)) throw error;
    }
    queryClient.clear();
    forgetAllDrafts();
    queryClient.setQueryData(sessionQueryKey, null);
    navigate(paths.login, { replace: true });
  };
}
