import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Client } from '../../../shared/schemas/clients';
import ClientFormPage from './client-form-page';

afterEach(() => vi.unstubAllGlobals());

const CLIENT_ID = '00000000-0000-4000-8000-0000000000c1';

function clientAt(version: number, firstName: string): Client {
  return {
    id: CLIENT_ID,
    rut: '12345678-5',
    firstName,
    lastName: 'Rojas',
    birthDate: '1985-03-02',
    phone: null,
    email: null,
    createdAt: '2026-11-01T12:00:00.000Z',
    updatedAt: '2026-11-01T12:00:00.000Z',
    version,
  } as Client;
}

/** The edit address in a data router (the form's leave guard needs one). */
function renderEditPage() {
  const router = createMemoryRouter([{ path: '/clientes/editar/:id', element: <ClientFormPage /> }], {
    initialEntries: [`/clientes/editar/${CLIENT_ID}`],
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

function answer(status: number, body: unknown) {
  return { ok: status < 400, status, json: async () => body };
}

/** The server: the first read answers version 1; someone else saves (version 2) before our save. */
function stubServer() {
  let stored = clientAt(1, 'Ana');
  const calls: { method: string; body?: unknown }[] = [];
  const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (method === 'GET') {
      const answered = answer(200, { client: stored });
      stored = clientAt(2, 'Otra Persona');
      return answered;
    }
    return answer(409, {
      error: {
        code: 'STALE_VERSION',
        message: 'El registro fue modificado por otro usuario. Recargue la página.',
      },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

describe('the record form scaffold (client form)', () => {
  it('keeps what was typed on a stale save and offers the current data, which replaces it', async () => {
    const calls = stubServer();
    renderEditPage();
    const firstName = (await screen.findByLabelText(/Nombres/)) as HTMLInputElement;
    expect(firstName.value).toBe('Ana');

    fireEvent.change(firstName, { target: { value: 'Ana María' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));

    await screen.findByText('El registro fue modificado por otro usuario. Recargue la página.');
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      firstName: 'Ana María',
      version: 1,
    });
    expect(firstName.value).toBe('Ana María');

    fireEvent.click(screen.getByRole('button', { name: 'Cargar los datos actuales' }));
    await waitFor(() =>
      expect((screen.getByLabelText(/Nombres/) as HTMLInputElement).value).toBe('Otra Persona'),
    );
    expect(screen.queryByText('Cargar los datos actuales')).toBeNull();
  });

  it('says why a record cannot be loaded and offers the way back', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        answer(404, {
          error: { code: 'CLIENT_NOT_FOUND', message: 'El cliente no existe o fue eliminado.' },
        }),
      ),
    );
    renderEditPage();
    await screen.findByText('Error al cargar el cliente: El cliente no existe o fue eliminado.');
    expect(screen.getByRole('heading', { name: 'Editar Cliente' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver a Clientes' }).getAttribute('href')).toBe('/clientes');
  });
});
