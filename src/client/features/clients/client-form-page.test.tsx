import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '../../../shared/schemas/auth';
import type { Client } from '../../../shared/schemas/clients';
import { sessionQueryKey } from '../../lib/session';
import { sessionUserFixture } from '../../test/render';
import ClientFormPage from './client-form-page';

afterEach(() => vi.unstubAllGlobals());

const CLIENT_ID = '00000000-0000-4000-8000-0000000000c1';

function clientAt(version: number, firstName: string, restriction: Client['restriction'] = null): Client {
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
    restriction,
    restrictionReason: restriction ? 'No desea recibir publicidad' : null,
    version,
    // What the server answers (clients.service): a blocked holder's data cannot be edited.
    canEdit: restriction !== 'blocking',
    editRefusal:
      restriction === 'blocking'
        ? 'Los datos de este cliente están bloqueados por una solicitud del titular (Ley 21.719): levante el bloqueo para modificarlos'
        : null,
  };
}

/** The edit address in a data router (the form's leave guard needs one). */
function renderEditPage(user: SessionUser = sessionUserFixture()) {
  const router = createMemoryRouter([{ path: '/clientes/editar/:id', element: <ClientFormPage /> }], {
    initialEntries: [`/clientes/editar/${CLIENT_ID}`],
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(sessionQueryKey, user);
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

describe('the holder’s data rights on a client’s screen (Ley 21.719)', () => {
  /** The server: the client as given until its restriction is lifted. */
  function stubClient(restriction: Client['restriction']) {
    let stored = clientAt(4, 'Ana', restriction);
    const calls: { url: string; method: string }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        calls.push({ url, method });
        if (method === 'DELETE') {
          stored = clientAt(5, 'Ana', null);
          return answer(204, null);
        }
        return answer(200, { client: stored });
      }),
    );
    return calls;
  }

  it('offers an administrator the export of the holder’s data as JSON and Excel', async () => {
    stubClient(null);
    renderEditPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Datos del titular' }));
    const json = await screen.findByRole('menuitem', {
      name: 'Exportar datos del titular (JSON)',
      hidden: true,
    });
    const excel = screen.getByRole('menuitem', { name: 'Exportar datos del titular (Excel)', hidden: true });
    expect(json.getAttribute('href')).toBe(`/api/data-requests/holders/${CLIENT_ID}/export?format=json`);
    expect(excel.getAttribute('href')).toBe(`/api/data-requests/holders/${CLIENT_ID}/export?format=xlsx`);
    expect(screen.queryByTestId('restriction-alert')).toBeNull();
  });

  it('marks a blocked client, and lets an administrator lift it after a confirmation', async () => {
    const calls = stubClient('blocking');
    renderEditPage();
    const alert = await screen.findByTestId('restriction-alert');
    expect(alert.textContent).toContain('Datos bloqueados');
    expect(screen.getByTestId('restriction-reason').textContent).toBe('Motivo: No desea recibir publicidad');
    // 'Guardar' says why it cannot save before anyone presses it (issue 57).
    const save = screen.getByRole('button', { name: 'Guardar' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/levante el bloqueo para modificarlos/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Levantar restricción' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('¿Levantar el bloqueo de los datos de Ana Rojas?');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Levantar restricción' }));
    await waitFor(() => expect(screen.queryByTestId('restriction-alert')).toBeNull());
    expect((screen.getByRole('button', { name: 'Guardar' }) as HTMLButtonElement).disabled).toBe(false);
    expect(calls.filter((call) => call.method === 'DELETE')).toEqual([
      { url: `/api/data-requests/holders/${CLIENT_ID}/restriction`, method: 'DELETE' },
    ]);
  });

  it('renders the server’s answer: Guardar disabled with the server’s reason, whatever the restriction', async () => {
    // The form derives nothing: a refusal the server gives for any reason is what it shows.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        answer(200, {
          client: { ...clientAt(3, 'Ana'), canEdit: false, editRefusal: 'Motivo del servidor.' },
        }),
      ),
    );
    renderEditPage();
    const save = await screen.findByRole('button', { name: 'Guardar' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Motivo del servidor.')).toBeTruthy();
  });

  it('shows the opposition to anyone, but neither the export nor the lifting to a non-administrator', async () => {
    stubClient('opposition');
    renderEditPage(sessionUserFixture({ userType: 'KAM' }));
    expect((await screen.findByTestId('restriction-alert')).textContent).toContain(
      'Oposición al tratamiento',
    );
    expect(screen.queryByRole('button', { name: 'Levantar restricción' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Datos del titular' })).toBeNull();
    // An opposition does not stop editing.
    expect((screen.getByRole('button', { name: 'Guardar' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
