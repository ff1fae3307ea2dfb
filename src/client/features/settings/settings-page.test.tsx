import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '../../../shared/schemas/auth';
import { SETTINGS_TABS } from '../../app/paths';
import { sessionQueryKey } from '../../lib/session';
import { sessionUserFixture } from '../../test/render';
import SettingsPage from './settings-page';

afterEach(() => vi.unstubAllGlobals());

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderAt(route: string, user: SessionUser = sessionUserFixture()) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(sessionQueryKey, user);
  return render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[route]}>
          <Routes>
            <Route path="/configuracion/:tab" element={<SettingsPage />} />
          </Routes>
          <Location />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const emptyPage = { rows: [], total: 0, totalIsCapped: false };

function stubApi() {
  const fetchMock = vi.fn(async (_url: string) => ({ ok: true, status: 200, json: async () => emptyPage }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('SettingsPage', () => {
  it('shows the nine tabs to an administrator in the spec’s order and selects the one in the address', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => ({ ok: true, status: 200, json: async () => ({ userTypes: [], actions: [] }) })),
    );
    renderAt('/configuracion/permisos');
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'Proyectos',
      'Inmobiliarias',
      'Usuarios',
      'Configuración Flujo Venta',
      'Configuración Flujo Pago',
      'Permisos',
      'Auditoría',
      'Solicitudes de titulares',
      'Correos',
      'Importar',
      'Valores UF',
      'Respaldos',
      'Documentos',
      'Pagos',
    ]);
    expect(screen.getByRole('tab', { name: 'Permisos' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Proyectos' }).getAttribute('aria-selected')).toBe('false');
    expect(await screen.findByRole('table', { name: 'Permisos por tipo de usuario' })).toBeTruthy();
  });

  it('opens the tab of the address with its list, searched as the address says', async () => {
    const fetchMock = stubApi();
    renderAt('/configuracion/inmobiliarias?q=norte');
    expect(screen.getByRole('tab', { name: 'Inmobiliarias' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('link', { name: 'Nueva Inmobiliaria' })).toBeTruthy();
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/settings/agencies?page=1&pageSize=25&search=norte',
        expect.anything(),
      ),
    );
    expect(
      (screen.getByPlaceholderText('Buscar por RUT o razón social (Enter)') as HTMLInputElement).value,
    ).toBe('norte');
  });

  it('puts the chosen tab in the address (without the other list’s search)', () => {
    stubApi();
    renderAt('/configuracion/inmobiliarias?q=norte');
    fireEvent.click(screen.getByRole('tab', { name: 'Usuarios' }));
    expect(screen.getByTestId('location').textContent).toBe('/configuracion/usuarios');
    expect(screen.getByRole('tab', { name: 'Usuarios' }).getAttribute('aria-selected')).toBe('true');
  });

  it('offers every tab in a select on a phone (shown there instead of the tabs), and goes to the one chosen', () => {
    stubApi();
    renderAt('/configuracion/proyectos');
    const select = screen.getByRole('combobox', { name: 'Sección' }) as HTMLSelectElement;
    expect([...select.options].map((option) => option.textContent)).toEqual(
      screen.getAllByRole('tab').map((tab) => tab.textContent),
    );
    // An administrator: every tab of Configuración.
    expect(select.options).toHaveLength(SETTINGS_TABS.length);
    expect(select.value).toBe('proyectos');
    // The select and the tab list are each shown on one side of the phone breakpoint only.
    expect(select.closest('[class*="hiddenFrom"], .mantine-hidden-from-sm')).toBeTruthy();
    expect(screen.getByRole('tablist').className).toContain('mantine-visible-from-sm');
    fireEvent.change(select, { target: { value: 'solicitudes-titulares' } });
    expect(screen.getByTestId('location').textContent).toBe('/configuracion/solicitudes-titulares');
  });

  it('shows the lists without the new button to a user who is not an administrator', () => {
    stubApi();
    renderAt('/configuracion/proyectos', sessionUserFixture({ userType: 'KAM' }));
    expect(screen.getByRole('tab', { name: 'Proyectos' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByRole('link', { name: 'Nuevo Proyecto' })).toBeNull();
  });

  it('shows Pagos to the payments team and hides it from a KAM (issue 53)', () => {
    stubApi();
    renderAt('/configuracion/proyectos', sessionUserFixture({ userType: 'KAM' }));
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).not.toContain('Pagos');
    cleanup();
    renderAt('/configuracion/proyectos', sessionUserFixture({ userType: 'Gestor de Pagos' }));
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toContain('Pagos');
  });

  it('hides Auditoría from a user who is not an administrator, and says why at its address', () => {
    stubApi();
    renderAt('/configuracion/auditoria', sessionUserFixture({ userType: 'KAM' }));
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).not.toContain('Auditoría');
    expect(screen.getByRole('alert').textContent).toBe('No tiene permisos para realizar esta acción.');
    expect(screen.queryByRole('table', { name: 'Auditoría' })).toBeNull();
  });

  it('opens Auditoría for an administrator (its code loaded on demand)', async () => {
    const fetchMock = stubApi();
    renderAt('/configuracion/auditoria?registro=reservations');
    expect(screen.getByRole('tab', { name: 'Auditoría' }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByRole('searchbox', { name: 'Buscar en los valores' })).toBeTruthy();
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/audit?page=1&pageSize=25&kind=reservations',
        expect.anything(),
      ),
    );
  });

  it('hides Solicitudes de titulares from a user who is not an administrator', () => {
    stubApi();
    renderAt('/configuracion/solicitudes-titulares', sessionUserFixture({ userType: 'KAM' }));
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).not.toContain(
      'Solicitudes de titulares',
    );
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).not.toContain('Correos');
    expect(screen.getByRole('alert').textContent).toBe('No tiene permisos para realizar esta acción.');
    expect(screen.queryByRole('button', { name: 'Registrar solicitud' })).toBeNull();
  });

  it('hides Importar from a user who is not an administrator', () => {
    stubApi();
    renderAt('/configuracion/importar', sessionUserFixture({ userType: 'KAM' }));
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).not.toContain('Importar');
    expect(screen.getByRole('alert').textContent).toBe('No tiene permisos para realizar esta acción.');
    expect(screen.queryByRole('button', { name: 'Descargar plantilla' })).toBeNull();
  });

  it('opens Solicitudes de titulares for an administrator (its code loaded on demand)', async () => {
    const fetchMock = stubApi();
    renderAt('/configuracion/solicitudes-titulares?estado=all');
    expect(screen.getByRole('tab', { name: 'Solicitudes de titulares' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(await screen.findByRole('button', { name: 'Registrar solicitud' })).toBeTruthy();
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/data-requests?page=1&pageSize=25&sort=dueDate&direction=asc&status=all',
        expect.anything(),
      ),
    );
  });

  it('answers an unknown tab with the not-found page', () => {
    renderAt('/configuracion/otra-cosa');
    expect(screen.getByText('Página no encontrada')).toBeTruthy();
    expect(screen.queryByRole('tab')).toBeNull();
  });
});
