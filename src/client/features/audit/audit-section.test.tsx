import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry, AuditPage, AuditUser } from '../../../shared/schemas/audit';
import AuditSection, { recordPath, userChoiceLabel } from './audit-section';

afterEach(() => vi.unstubAllGlobals());

const CAMILA = '00000000-0000-4000-8000-000000000007';
const USERS: AuditUser[] = [
  { id: CAMILA, name: 'Camila Fuentes', position: 'Jefa de Ventas', isActive: true },
  { id: '00000000-0000-4000-8000-000000000008', name: 'Rodrigo Soto', position: 'KAM', isActive: false },
];
const FLOW_ID = '5d1c9a8e-2b3f-4c6d-9e0f-1a2b3c4d5e6f';

const ROW: AuditEntry = {
  id: 7,
  at: '2027-03-12T13:42:00.000Z',
  actor: { id: CAMILA, name: 'Camila Fuentes' },
  action: 'update',
  table: 'flow_tasks',
  subject: 'la tarea COF PENDIENTE FIRMA',
  summary: 'cambió Inicio de 10/03/2027 09:00 a 11/03/2027 09:00 en la tarea COF PENDIENTE FIRMA',
  record: {
    kind: 'flows',
    id: FLOW_ID,
    label: 'Flujo de Venta Regular · Reserva N° 1234',
    exists: true,
    flowKind: 'sale',
  },
  changes: [{ field: 'Inicio', before: '10/03/2027 09:00', after: '11/03/2027 09:00' }],
  requestId: null,
};

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/** Answers the user list and the log (with `page`), recording the log's addresses. */
function stubApi(page: AuditPage) {
  const fetchMock = vi.fn(async (url: string) => ({
    ok: true,
    status: 200,
    json: async () => (url.startsWith('/api/audit/users') ? { users: USERS } : page),
  }));
  vi.stubGlobal('fetch', fetchMock);
  return {
    logUrls: () =>
      fetchMock.mock.calls.map(([url]) => url).filter((url) => !url.startsWith('/api/audit/users')),
  };
}

function renderAt(route: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[route]}>
          <AuditSection />
          <Location />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const location = () => screen.getByTestId('location').textContent;

async function choose(label: string, option: string) {
  fireEvent.click(screen.getByRole('combobox', { name: label }));
  // The dropdown's transition does not run in jsdom: its options count as hidden.
  fireEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
}

describe('AuditSection', () => {
  it('writes the chosen user, kind and search in the address, and asks the log for them', async () => {
    const api = stubApi({ rows: [ROW], total: 1, totalIsCapped: false });
    renderAt('/configuracion/auditoria');
    await screen.findByText(ROW.summary);
    expect(api.logUrls()).toEqual(['/api/audit?page=1&pageSize=25']);

    await choose('Usuario', 'Camila Fuentes — Jefa de Ventas');
    expect(location()).toBe(`/configuracion/auditoria?usuario=${CAMILA}`);
    await choose('Registro', 'Flujos');
    expect(location()).toBe(`/configuracion/auditoria?usuario=${CAMILA}&registro=flows`);

    const search = screen.getByRole('searchbox', { name: 'Buscar en los valores' });
    fireEvent.change(search, { target: { value: ' 135.50 ' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(location()).toBe(`/configuracion/auditoria?usuario=${CAMILA}&registro=flows&q=135.50`);
    await waitFor(() =>
      expect(api.logUrls().at(-1)).toBe(
        `/api/audit?page=1&pageSize=25&user=${CAMILA}&kind=flows&search=135.50`,
      ),
    );

    // 'sistema' is a user of the filter; 'Todos los usuarios' takes the filter away.
    await choose('Usuario', 'sistema');
    expect(location()).toBe('/configuracion/auditoria?usuario=sistema&registro=flows&q=135.50');
    await choose('Usuario', 'Todos los usuarios');
    expect(location()).toBe('/configuracion/auditoria?registro=flows&q=135.50');
  });

  it('writes the typed dates in the address as Santiago days', async () => {
    const api = stubApi({ rows: [ROW], total: 1, totalIsCapped: false });
    renderAt('/configuracion/auditoria?registro=flows');
    await screen.findByText(ROW.summary);
    fireEvent.change(screen.getByRole('textbox', { name: 'Desde' }), { target: { value: '01/03/2027' } });
    expect(location()).toBe('/configuracion/auditoria?registro=flows&desde=2027-03-01');
    fireEvent.change(screen.getByRole('textbox', { name: 'Hasta' }), { target: { value: '31/03/2027' } });
    expect(location()).toBe('/configuracion/auditoria?registro=flows&desde=2027-03-01&hasta=2027-03-31');
    await waitFor(() =>
      expect(api.logUrls().at(-1)).toBe(
        '/api/audit?page=1&pageSize=25&kind=flows&from=2027-03-01&to=2027-03-31',
      ),
    );
  });

  it('reads the filters of a shared address, exports them, and clears them', async () => {
    const api = stubApi({ rows: [ROW], total: 1, totalIsCapped: false });
    renderAt(
      `/configuracion/auditoria?usuario=${CAMILA}&registro=reservations&desde=2027-03-01&hasta=2027-03-31`,
    );
    await screen.findByText(ROW.summary);
    expect(api.logUrls()).toEqual([
      `/api/audit?page=1&pageSize=25&user=${CAMILA}&kind=reservations&from=2027-03-01&to=2027-03-31`,
    ]);
    expect((screen.getByRole('combobox', { name: 'Registro' }) as HTMLInputElement).value).toBe('Reservas');
    expect((screen.getByRole('textbox', { name: 'Desde' }) as HTMLInputElement).value).toBe('01/03/2027');
    expect(screen.getByRole('link', { name: 'Exportar CSV' }).getAttribute('href')).toBe(
      `/api/audit/export?user=${CAMILA}&kind=reservations&from=2027-03-01&to=2027-03-31&format=csv`,
    );
    expect(screen.getByRole('link', { name: 'Exportar Excel' }).getAttribute('href')).toBe(
      `/api/audit/export?user=${CAMILA}&kind=reservations&from=2027-03-01&to=2027-03-31&format=xlsx`,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Limpiar filtros' }));
    expect(location()).toBe('/configuracion/auditoria');
  });

  it('shows each change with its date, user, record link, action and changed values', async () => {
    stubApi({ rows: [ROW], total: 1, totalIsCapped: false });
    renderAt('/configuracion/auditoria');
    await screen.findByText(ROW.summary);
    const table = screen.getByRole('table', { name: 'Auditoría' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '12/03/2027 10:42',
      'Camila Fuentes',
      'Flujo de Venta Regular · Reserva N° 1234',
      ROW.summary,
      'Inicio: 10/03/2027 09:00 → 11/03/2027 09:00',
    ]);
    expect(within(row).getByRole('link').getAttribute('href')).toBe(`/flujo-reservas/${FLOW_ID}`);
  });

  it('leaves the exports disabled while no change matches', async () => {
    stubApi({ rows: [], total: 0, totalIsCapped: false });
    renderAt('/configuracion/auditoria?registro=brokers');
    expect(await screen.findByText('Ningún cambio cumple los filtros')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Exportar CSV' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Exportar Excel' }).hasAttribute('disabled')).toBe(true);
  });
});

describe('recordPath', () => {
  const record = (
    kind: string,
    label: string,
    more: { id?: string | null; exists?: boolean; flowKind?: 'sale' | 'payment' | null } = {},
  ) => ({ kind, label, id: FLOW_ID, exists: true, flowKind: null, ...more });

  it('leads to the record’s screen, a flow to its sale or payment flow screen', () => {
    expect(recordPath(record('clients', 'Cliente Juan Pérez'))).toBe(`/clientes/editar/${FLOW_ID}`);
    expect(recordPath(record('brokers', 'Broker Andes'))).toBe(`/brokers/editar/${FLOW_ID}`);
    expect(recordPath(record('reservations', 'Reserva N° 12'))).toBe(`/reservas/editar/${FLOW_ID}`);
    expect(recordPath(record('flows', 'Flujo de Venta Regular · Reserva N° 12', { flowKind: 'sale' }))).toBe(
      `/flujo-reservas/${FLOW_ID}`,
    );
    expect(
      recordPath(record('flows', 'Flujo de Pago Principal · Reserva N° 12', { flowKind: 'payment' })),
    ).toBe(`/pagos/flujo/${FLOW_ID}`);
  });

  it('leads nowhere for a deleted record or one without a screen', () => {
    expect(recordPath(record('reservations', 'Reserva (eliminado)', { exists: false }))).toBeNull();
    expect(recordPath(record('default_seller', 'Vendedor por defecto', { id: null }))).toBeNull();
    expect(recordPath(record('roles', 'Rol Ventas'))).toBeNull();
  });
});

describe('userChoiceLabel', () => {
  it('names the user with the position, and marks a deactivated account', () => {
    expect(USERS.map(userChoiceLabel)).toEqual([
      'Camila Fuentes — Jefa de Ventas',
      'Rodrigo Soto — KAM (desactivado)',
    ]);
  });
});
