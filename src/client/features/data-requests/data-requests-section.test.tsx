import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DataRequestPage, DataRequestRow } from '../../../shared/schemas/data-requests';
import DataRequestsSection from './data-requests-section';

afterEach(() => vi.unstubAllGlobals());

const TAB = '/configuracion/solicitudes-titulares';

function row(extra: Partial<DataRequestRow>): DataRequestRow {
  return {
    id: '00000000-0000-4000-8000-0000000000e1',
    kind: 'access',
    holderRut: '12345678-5',
    holder: null,
    receivedDate: '2026-10-20',
    dueDate: '2026-11-19',
    daysLeft: -6,
    isOverdue: true,
    status: 'pending',
    handledBy: null,
    answeredAt: null,
    ...extra,
  };
}

const ROWS: DataRequestRow[] = [
  row({
    holder: {
      clientId: '00000000-0000-4000-8000-0000000000c1',
      name: 'Ana Rojas',
      isSuppressed: false,
      isDeleted: false,
      restriction: 'blocking',
      reservations: 1,
    },
    handledBy: { id: '00000000-0000-4000-8000-000000000001', firstName: 'Camila', lastName: 'Fuentes' },
    status: 'in_progress',
  }),
  row({
    id: '00000000-0000-4000-8000-0000000000e2',
    kind: 'suppression',
    holderRut: '9876543-3',
    holder: {
      clientId: '00000000-0000-4000-8000-0000000000c2',
      name: 'Titular suprimido',
      isSuppressed: true,
      isDeleted: true,
      restriction: null,
      reservations: 2,
    },
    dueDate: '2026-12-01',
    daysLeft: 6,
    isOverdue: false,
    status: 'answered',
  }),
  row({
    id: '00000000-0000-4000-8000-0000000000e3',
    kind: 'portability',
    holderRut: '11111111-1',
    dueDate: '2026-11-25',
    daysLeft: 0,
    isOverdue: false,
  }),
];

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function stubApi(page: DataRequestPage) {
  const fetchMock = vi.fn(async (_url: string) => ({ ok: true, status: 200, json: async () => page }));
  vi.stubGlobal('fetch', fetchMock);
  return () => fetchMock.mock.calls.map(([url]) => url);
}

function renderAt(route: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[route]}>
          <DataRequestsSection />
          <Location />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const location = () => screen.getByTestId('location').textContent;

async function choose(label: string, option: string) {
  fireEvent.click(screen.getByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
}

describe('Solicitudes de titulares', () => {
  it('lists the open requests by due date, each holder by name or RUT, with its countdown', async () => {
    const urls = stubApi({ rows: ROWS, total: 3, totalIsCapped: false });
    renderAt(TAB);
    const table = await screen.findByRole('table', { name: 'Solicitudes de titulares' });
    await within(table).findByText('Ana Rojas');
    expect(urls()).toContain('/api/data-requests?page=1&pageSize=25&sort=dueDate&direction=asc');

    const lines = within(table).getAllByRole('row').slice(1);
    const first = within(lines[0]!);
    expect(first.getByRole('link', { name: 'Acceso' }).getAttribute('href')).toBe(
      `${TAB}/00000000-0000-4000-8000-0000000000e1`,
    );
    expect(first.getByText('Bloqueado')).toBeTruthy();
    expect(first.getByText('20/10/2026')).toBeTruthy();
    expect(first.getByText('Vencida hace 6 días').getAttribute('style')).toContain('red');
    expect(first.getByText('En curso')).toBeTruthy();
    expect(first.getByText('Camila Fuentes')).toBeTruthy();

    const second = within(lines[1]!);
    expect(second.getByText('Titular suprimido')).toBeTruthy();
    expect(second.getByText('Respondida')).toBeTruthy();
    expect(second.queryByTestId('deadline')).toBeNull();

    const third = within(lines[2]!);
    expect(third.getByText('11.111.111-1')).toBeTruthy();
    expect(third.getByText('No es cliente')).toBeTruthy();
    expect(third.getByText('Vence hoy')).toBeTruthy();
  });

  it('keeps the status and kind filters in the address and asks the register for them', async () => {
    const urls = stubApi({ rows: [], total: 0, totalIsCapped: false });
    renderAt(TAB);
    await choose('Estado', 'Todas');
    expect(location()).toBe(`${TAB}?estado=all`);
    await choose('Tipo', 'Supresión');
    expect(location()).toBe(`${TAB}?estado=all&tipo=suppression`);
    await waitFor(() =>
      expect(urls()).toContain(
        '/api/data-requests?page=1&pageSize=25&sort=dueDate&direction=asc&status=all&kind=suppression',
      ),
    );
    await choose('Estado', 'Abiertas');
    expect(location()).toBe(`${TAB}?tipo=suppression`);
    expect(await screen.findByText('Ninguna solicitud cumple los filtros')).toBeTruthy();
  });

  it('shows the retention list as a second view, with the years it counts', async () => {
    const fetchMock = vi.fn(async (url: string) => ({
      ok: true,
      status: 200,
      json: async () =>
        url.includes('/settings')
          ? { settings: { retentionYears: 5, importFileDays: 30, mailCopyDays: 30, version: 2 } }
          : {
              rows: [
                {
                  clientId: '00000000-0000-4000-8000-0000000000c3',
                  rut: '12345678-5',
                  name: 'Pedro Soto',
                  lastActivityDate: '2019-03-04',
                  reservations: 0,
                },
              ],
              total: 1,
              totalIsCapped: false,
              retentionYears: 5,
            },
    }));
    vi.stubGlobal('fetch', fetchMock);
    renderAt(TAB);
    fireEvent.click(screen.getByRole('radio', { name: 'Retención' }));
    expect(location()).toBe(`${TAB}?vista=retencion`);
    expect(await screen.findByRole('link', { name: 'Pedro Soto' })).toBeTruthy();
    expect(
      screen.getByText(/Clientes sin reservas vigentes en los últimos 5 años, para revisar/),
    ).toBeTruthy();
    expect((screen.getByLabelText(/Años de retención/) as HTMLInputElement).value).toBe('5');
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain(
      '/api/data-requests/retention?page=1&pageSize=25',
    );
  });

  it('edits how long import files and .eml copies are kept: refused in Spanish out of range, saved in range', async () => {
    const saved: unknown[] = [];
    const fetchMock = vi.fn(async (url: string, init?: { method?: string; body?: string }) => {
      if (url.includes('/settings') && init?.method === 'PUT') {
        const body = JSON.parse(init.body ?? '{}');
        saved.push(body);
        return { ok: true, status: 200, json: async () => ({ settings: { ...body, version: 3 } }) };
      }
      return {
        ok: true,
        status: 200,
        json: async () =>
          url.includes('/settings')
            ? { settings: { retentionYears: 5, importFileDays: 30, mailCopyDays: 30, version: 2 } }
            : { rows: [], total: 0, totalIsCapped: false, retentionYears: 5 },
      };
    });
    vi.stubGlobal('fetch', fetchMock);
    renderAt(`${TAB}?vista=retencion`);
    const importDays = (await screen.findByLabelText(
      /Días que se guardan los archivos importados/,
    )) as HTMLInputElement;
    const mailDays = screen.getByLabelText(/Días que se guardan las copias de correos/) as HTMLInputElement;
    expect(importDays.value).toBe('30');
    expect(mailDays.value).toBe('30');

    fireEvent.change(importDays, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Indique los días (entre 1 y 3650).')).toBeTruthy();
    expect(saved).toEqual([]);

    fireEvent.change(importDays, { target: { value: '10' } });
    fireEvent.change(mailDays, { target: { value: '7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() =>
      expect(saved).toEqual([{ retentionYears: 5, importFileDays: 10, mailCopyDays: 7, version: 2 }]),
    );
  });
});
