import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../lib/api';
import { sessionQueryKey, useCurrentUser } from '../../lib/session';
import { sessionUserFixture } from '../../test/render';
import { PublicOnly, RequireSession } from '../guards';
import { AppLayout } from './app-layout';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A signed-in screen that reads the user and a list of its own, as every screen does. */
function Screen() {
  const user = useCurrentUser();
  const list = useQuery({
    queryKey: ['clients'],
    queryFn: ({ signal }) => api<{ rows: string[] }>('/api/clients', { signal }),
  });
  return (
    <p>
      Hola {user.firstName}: {list.data?.rows.length ?? '…'} clientes
    </p>
  );
}

function LoginScreen() {
  return <p>Pantalla de ingreso</p>;
}

function answer(status: number, body: unknown) {
  return { ok: status < 400, status, json: async () => body };
}

/** `logoutAnswered`: the sign-out's answer waits for it (the session already ended on the server). */
function renderSignedIn({ logoutAnswered }: { logoutAnswered?: Promise<void> } = {}) {
  const calls: string[] = [];
  let signedIn = true;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      if (url === '/api/auth/logout') {
        signedIn = false;
        await logoutAnswered;
        return answer(204, null);
      }
      if (!signedIn) return answer(401, { error: { code: 'UNAUTHENTICATED', message: 'Inicie sesión' } });
      if (url === '/api/notifications/count') return answer(200, { count: 2 });
      if (url === '/api/clients') return answer(200, { rows: ['a', 'b', 'c'] });
      return answer(404, { error: { code: 'NOT_FOUND', message: 'No encontrado' } });
    }),
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(sessionQueryKey, sessionUserFixture({ firstName: 'Ana' }));
  const router = createMemoryRouter(
    [
      {
        element: <PublicOnly />,
        // A lazy screen, as every one is (router.tsx): the signed-in screens stay while it loads.
        children: [
          {
            path: '/login',
            lazy: async () => {
              await new Promise((resolve) => setTimeout(resolve, 20));
              return { Component: LoginScreen };
            },
          },
        ],
      },
      {
        element: <RequireSession />,
        children: [{ element: <AppLayout />, children: [{ path: '/clientes', element: <Screen /> }] }],
      },
    ],
    { initialEntries: ['/clientes'] },
  );
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { calls, router, queryClient };
}

describe('signing out', () => {
  it('leaves for /login without a React error, and asks the server nothing more once signed out', async () => {
    const errors = vi.spyOn(console, 'error');
    const { calls, router, queryClient } = renderSignedIn();
    expect(await screen.findByText('Hola Ana: 3 clientes')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Cerrar Sesión' }));
    expect(await screen.findByText('Pantalla de ingreso')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    // Give any late render or request its chance.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await waitFor(() => expect(queryClient.getQueryData(sessionQueryKey)).toBeNull());

    expect(errors).not.toHaveBeenCalled();
    // After the sign-out, no request: not 'who is signed in?' (a 401), not the screen's list again.
    expect(calls.slice(calls.indexOf('POST /api/auth/logout') + 1)).toEqual([]);
    // What the signed-out user's screens had read is forgotten.
    expect(queryClient.getQueryData(['clients'])).toBeUndefined();
  });

  it('asks nothing that needs the session while the sign-out is on its way (the server would answer 401)', async () => {
    let answerLogout!: () => void;
    const { calls, queryClient } = renderSignedIn({
      logoutAnswered: new Promise((resolve) => {
        answerLogout = resolve;
      }),
    });
    expect(await screen.findByText('Hola Ana: 3 clientes')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Cerrar Sesión' }));
    await waitFor(() => expect(calls).toContain('POST /api/auth/logout'));
    // The screen's list asks again before the sign-out's answer (a slow machine, a live update).
    await queryClient.refetchQueries({ queryKey: ['clients'] });
    answerLogout();
    expect(await screen.findByText('Pantalla de ingreso')).toBeTruthy();

    expect(calls.slice(calls.indexOf('POST /api/auth/logout') + 1)).toEqual([]);
  });
});
