import { type Query, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import type { LoginBody, RegisterBody, SessionUser } from '../../shared/schemas/auth';
import { paths } from '../app/paths';
import { ApiError, api, setSignedOut } from './api';
import { forgetAllDrafts } from './drafts';
import { expectSessionEnd } from './live-events';

export const sessionQueryKey = ['session'] as const;

/** The signed-in user, or null. A 401 simply means "not signed in". */
async function fetchSessionUser(): Promise<SessionUser | null> {
  try {
    const { user } = await api<{ user: SessionUser }>('/api/auth/me', { allowUnauthenticated: true });
    setSignedOut(false);
    return user;
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

/**
 * The signed-in user inside the authenticated layout (which guarantees one). When the session ends
 * (signed out, or a 401) the answer becomes "nobody" and the user goes to /login; while the router
 * loads that lazy screen the shell stays mounted, and a render of it meanwhile (the shell's own, the
 * guard above not re-rendered yet) read "nobody" and threw: every sign-out logged a React error
 * (issue 28 §7). A component that had a user keeps it until it unmounts.
 */
export function useCurrentUser(): SessionUser {
  const { data } = useSession();
  const last = useRef<SessionUser | null>(null);
  if (data) last.current = data;
  if (!last.current) throw new Error('useCurrentUser outside the authenticated layout');
  return last.current;
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) =>
      api<{ user: SessionUser }>('/api/auth/login', { method: 'POST', body, allowUnauthenticated: true }),
    onSuccess: ({ user }) => {
      setSignedOut(false);
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

/**
 * Signs out and goes to /login. 401, 403 and 404 from the server are ignored (already signed out).
 * The session's answer becomes "nobody", then every other answer is forgotten: clearing the whole
 * cache also dropped the session's answer, and a screen still mounted asked the server again who was
 * signed in (a 401 in the console). This tab's live stream is told the session's end is expected.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    // This tab's stream will say the session ended: nothing to check, the user is signing out.
    const expected = expectSessionEnd();
    // Nothing else is asked of the server meanwhile: it would answer 401 (see `setSignedOut`).
    setSignedOut(true);
    try {
      await api('/api/auth/logout', { method: 'POST', allowUnauthenticated: true });
    } catch (error) {
      if (!(error instanceof ApiError) || ![401, 403, 404].includes(error.status)) {
        setSignedOut(false);
        expected.cancel();
        throw error;
      }
    }
    forgetAllDrafts();
    queryClient.setQueryData(sessionQueryKey, null);
    navigate(paths.login, { replace: true });
    const others = { predicate: (query: Query) => query.queryKey[0] !== sessionQueryKey[0] };
    // Reads still on their way are dropped (the server would only answer 401 now).
    void queryClient.cancelQueries(others);
    queryClient.removeQueries(others);
  };
}
