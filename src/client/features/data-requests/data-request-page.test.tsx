import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorCatalog } from '../../../shared/errors';
import type { SessionUser } from '../../../shared/schemas/auth';
import { DATA_REQUEST_MESSAGES, type DataRequestDetail } from '../../../shared/schemas/data-requests';
import { sessionQueryKey } from '../../lib/session';
import { sessionUserFixture } from '../../test/render';
import DataRequestPage from './data-request-page';

afterEach(() => vi.unstubAllGlobals());

const REQUEST_ID = '00000000-0000-4000-8000-0000000000e1';
const CLIENT_ID = '00000000-0000-4000-8000-0000000000c1';

const allowed = { allowed: true, reason: null };
const refused = (code: keyof typeof errorCatalog) => ({ allowed: false, reason: errorCatalog[code].message });

function detail(extra: Partial<DataRequestDetail> = {}): DataRequestDetail {
  return {
    id: REQUEST_ID,
    kind: 'opposition',
    holderRut: '12345678-5',
    holder: {
      clientId: CLIENT_ID,
      name: 'Ana Rojas',
      isSuppressed: false,
      isDeleted: false,
      restriction: null,
      reservations: 2,
    },
    receivedDate: '2026-11-01',
    dueDate: '2026-12-01',
    daysLeft: 6,
    isOverdue: false,
    status: 'pending',
    handledBy: null,
    answeredAt: null,
    details: 'Pide que no la contacten',
    response: null,
    createdBy: { id: '00000000-0000-4000-8000-000000000001', firstName: 'Camila', lastName: 'Fuentes' },
    createdAt: '2026-11-01T13:00:00.000Z',
    version: 3,
    actions: {
      exportData: allowed,
      suppress: refused('DATA_REQUEST_WRONG_KIND'),
      restrict: allowed,
      rectify: refused('DATA_REQUEST_WRONG_KIND'),
      readBlockedValues: refused('HOLDER_NO_BLOCKED_VALUES'),
    },
    ...extra,
  };
}

type Call = { url: string; method: string; body: unknown };

/** The server: the request as given; a PUT or a restriction answer it changed; the blocked values. */
function stubServer(request: DataRequestDetail) {
  const calls: Call[] = [];
  let current = request;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(String(init.body)) : null;
      calls.push({ url, method, body });
      if (url.endsWith('/restrict')) {
        current = {
          ...current,
          status: 'answered',
          version: current.version + 1,
          holder: current.holder && { ...current.holder, restriction: 'opposition' },
          actions: { ...current.actions, restrict: refused('DATA_REQUEST_CLOSED') },
        };
      } else if (method === 'PUT') {
        current = { ...current, ...body, version: current.version + 1 };
      } else if (url.includes('/blocked-values')) {
        return {
          ok: true,
          status: 200,
          json: async () => ({
            values: [
              {
                tableName: 'clients',
                recordId: CLIENT_ID,
                columnName: 'rut',
                value: '12345678-5',
                blockedAt: '2026-11-20T15:00:00.000Z',
              },
            ],
          }),
        };
      }
      return { ok: true, status: 200, json: async () => ({ request: current }) };
    }),
  );
  return calls;
}

function renderPage(user: SessionUser = sessionUserFixture()) {
  const router = createMemoryRouter(
    [{ path: '/configuracion/solicitudes-titulares/:id', element: <DataRequestPage /> }],
    { initialEntries: [`/configuracion/solicitudes-titulares/${REQUEST_ID}`] },
  );
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

const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('a holder’s request page', () => {
  it('renders each action as the server allows it, with the server’s reason under a disabled one', async () => {
    stubServer(detail());
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Solicitud de Oposición' })).toBeTruthy();

    const exports = within(screen.getByTestId('action-export'));
    expect(
      exports.getByRole('link', { name: 'Exportar datos del titular (JSON)' }).getAttribute('href'),
    ).toBe(`/api/data-requests/holders/${CLIENT_ID}/export?format=json`);
    expect(
      exports.getByRole('link', { name: 'Exportar datos del titular (Excel)' }).getAttribute('href'),
    ).toBe(`/api/data-requests/holders/${CLIENT_ID}/export?format=xlsx`);

    expect(button('Aplicar oposición').disabled).toBe(false);
    expect(button('Suprimir datos personales').disabled).toBe(true);
    expect(screen.getByTestId('action-suppress-hint').textContent).toBe(
      errorCatalog.DATA_REQUEST_WRONG_KIND.message,
    );
    expect(button('Editar cliente').disabled).toBe(true);
    expect(screen.getByTestId('action-rectify-hint').textContent).toBe(
      errorCatalog.DATA_REQUEST_WRONG_KIND.message,
    );
    // Only when the server says there are blocked values to see.
    expect(screen.queryByRole('button', { name: 'Ver datos bloqueados' })).toBeNull();
    // A live client's name leads to their record.
    expect(screen.getByRole('link', { name: 'Ana Rojas' }).getAttribute('href')).toBe(
      `/clientes/editar/${CLIENT_ID}`,
    );
  });

  it('follows the server when it allows what the kind would not suggest, and refuses what it refuses', async () => {
    // The screen holds no rule of its own: an access request the server lets suppress shows it enabled.
    stubServer(
      detail({
        kind: 'access',
        actions: {
          exportData: refused('DATA_REQUEST_NO_HOLDER_DATA'),
          suppress: allowed,
          restrict: refused('HOLDER_ALREADY_SUPPRESSED'),
          rectify: allowed,
          readBlockedValues: refused('HOLDER_NO_BLOCKED_VALUES'),
        },
      }),
    );
    renderPage();
    await screen.findByRole('heading', { name: 'Solicitud de Acceso' });
    expect(button('Suprimir datos personales').disabled).toBe(false);
    expect(screen.getByRole('link', { name: /Editar cliente/ }).getAttribute('href')).toBe(
      `/clientes/editar/${CLIENT_ID}`,
    );
    expect(button('Exportar datos del titular (JSON)').disabled).toBe(true);
    expect(screen.queryByRole('link', { name: /Exportar datos del titular/ })).toBeNull();
    expect(screen.getByTestId('action-export-hint').textContent).toBe(
      errorCatalog.DATA_REQUEST_NO_HOLDER_DATA.message,
    );
    expect(button('Aplicar oposición o bloqueo').disabled).toBe(true);
    expect(screen.getByTestId('action-restrict-hint').textContent).toBe(
      errorCatalog.HOLDER_ALREADY_SUPPRESSED.message,
    );
  });

  it('applies the opposition after a confirmation, and shows the request answered', async () => {
    const calls = stubServer(detail());
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Aplicar oposición' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Se registrará la oposición de Ana Rojas/)).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Aplicar oposición' }));
    const restrictButton = () =>
      within(screen.getByTestId('action-restrict')).getByRole('button', {
        name: 'Aplicar oposición',
      }) as HTMLButtonElement;
    await waitFor(() => expect(restrictButton().disabled).toBe(true));
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      { url: `/api/data-requests/${REQUEST_ID}/restrict`, method: 'POST', body: null },
    ]);
    expect(screen.getByTestId('action-restrict-hint').textContent).toBe(
      errorCatalog.DATA_REQUEST_CLOSED.message,
    );
    expect(within(screen.getByTestId('holder-card')).getByText('Oposición al tratamiento')).toBeTruthy();
  });

  it('reads the blocked values of a suppressed holder only once the administrator confirms', async () => {
    const calls = stubServer(
      detail({
        kind: 'suppression',
        status: 'answered',
        holder: {
          clientId: CLIENT_ID,
          name: 'Titular suprimido',
          isSuppressed: true,
          isDeleted: true,
          restriction: null,
          reservations: 1,
        },
        actions: {
          exportData: refused('HOLDER_ALREADY_SUPPRESSED'),
          suppress: refused('HOLDER_ALREADY_SUPPRESSED'),
          restrict: refused('HOLDER_ALREADY_SUPPRESSED'),
          rectify: refused('HOLDER_ALREADY_SUPPRESSED'),
          readBlockedValues: allowed,
        },
      }),
    );
    renderPage();
    // A suppressed holder has no record to open.
    expect(await screen.findAllByText('Titular suprimido')).not.toHaveLength(0);
    expect(screen.queryByRole('link', { name: 'Titular suprimido' })).toBeNull();

    fireEvent.click(button('Ver datos bloqueados'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Esta lectura queda registrada en la auditoría.')).toBeTruthy();
    expect(calls.some((call) => call.url.includes('/blocked-values'))).toBe(false);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Ver datos' }));
    const table = await within(dialog).findByRole('table', { name: 'Datos bloqueados' });
    expect(within(table).getByText('12.345.678-5')).toBeTruthy();
    expect(within(table).getByText('RUT')).toBeTruthy();
    expect(within(table).getByText('Cliente')).toBeTruthy();
    expect(calls.filter((call) => call.url.includes('/blocked-values'))).toEqual([
      { url: `/api/data-requests/holders/${CLIENT_ID}/blocked-values`, method: 'GET', body: null },
    ]);
  });

  it('needs the answer to mark it Respondida, then saves status and answer with the version read', async () => {
    const calls = stubServer(detail());
    renderPage();
    await screen.findByRole('heading', { name: 'Solicitud de Oposición' });
    const card = within(screen.getByTestId('response-card'));
    fireEvent.click(card.getByRole('combobox', { name: /^Estado/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Respondida', hidden: true }));
    fireEvent.click(card.getByRole('button', { name: 'Guardar' }));
    expect(await card.findByText(DATA_REQUEST_MESSAGES.responseRequired)).toBeTruthy();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    fireEvent.change(card.getByLabelText(/^Respuesta/), { target: { value: 'Se registró su oposición.' } });
    fireEvent.click(card.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')).toEqual({
      url: `/api/data-requests/${REQUEST_ID}`,
      method: 'PUT',
      body: { status: 'answered', response: 'Se registró su oposición.', version: 3 },
    });
  });

  it('tells a user who is not an administrator that it is not theirs, asking nothing', () => {
    const calls = stubServer(detail());
    renderPage(sessionUserFixture({ userType: 'KAM' }));
    expect(screen.getByRole('alert').textContent).toBe(errorCatalog.FORBIDDEN.message);
    expect(calls).toHaveLength(0);
  });
});
