import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ImportRun } from '../../../shared/schemas/imports';
import { renderWithProviders } from '../../test/render';
import ImportsSection from './imports-section';

afterEach(() => vi.unstubAllGlobals());

function run(extra: Partial<ImportRun>): ImportRun {
  return {
    id: '00000000-0000-4000-8000-0000000000a1',
    kind: 'reservations',
    fileName: 'reservas_corregidas.xlsx',
    fileHash: 'abc',
    status: 'applying',
    headerRow: 1,
    totalRows: 3,
    processedRows: 0,
    counts: { created: 0, updated: 0, unchanged: 0, errors: 0 },
    failure: null,
    createdByName: 'Alicia Administradora',
    createdAt: '2026-11-26T17:09:00.000Z',
    startedAt: '2026-11-26T17:09:01.000Z',
    finishedAt: null,
    undoneAt: null,
    canUndo: false,
    ...extra,
  };
}

describe('Importaciones realizadas', () => {
  it('follows a run applied in the background until it ends, without a reload', async () => {
    let finished = false;
    const fetchMock = vi.fn(async (url: string) => {
      if (url === '/api/imports/runs') {
        const rows = finished
          ? [
              run({
                status: 'applied',
                processedRows: 3,
                counts: { created: 3, updated: 0, unchanged: 0, errors: 0 },
                canUndo: true,
              }),
            ]
          : [run({})];
        return { ok: true, status: 200, json: async () => ({ rows }) };
      }
      return { ok: false, status: 404, json: async () => ({ message: 'No encontrado' }) };
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<ImportsSection />, { route: '/configuracion/importar' });
    const table = await screen.findByRole('table', { name: 'Importaciones realizadas' });
    await within(table).findByText('Aplicando');
    finished = true;
    // The list asks again by itself while a run is being applied (every 2 s).
    expect(await within(table).findByText('Aplicada', {}, { timeout: 6_000 })).toBeTruthy();
    expect(within(table).getByText('3 nuevos, 0 actualizados, 0 sin cambios, 0 con errores')).toBeTruthy();
    const calls = fetchMock.mock.calls.filter(([url]) => url === '/api/imports/runs').length;
    // Once ended, the list stops asking.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/imports/runs').length).toBe(calls);
  });

  it('says why a run ended without its rows: interrupted by a stop, or with records left', async () => {
    const rows = [
      run({ id: '00000000-0000-4000-8000-0000000000b1', status: 'failed', failure: 'IMPORT_INTERRUPTED' }),
      run({
        id: '00000000-0000-4000-8000-0000000000b2',
        status: 'failed',
        failure: 'IMPORT_FAILED: Cliente 12.345.678-5',
      }),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => ({ ok: true, status: 200, json: async () => ({ rows }) })),
    );
    renderWithProviders(<ImportsSection />, { route: '/configuracion/importar' });
    const table = await screen.findByRole('table', { name: 'Importaciones realizadas' });
    expect(
      await within(table).findByText(
        'La importación se interrumpió porque el servidor se detuvo; se deshizo y no quedó nada importado.',
      ),
    ).toBeTruthy();
    expect(
      within(table).getByText(
        'La importación no se completó. Se deshizo todo salvo estos registros, que cambiaron después: Cliente 12.345.678-5.',
      ),
    ).toBeTruthy();
  });

  it("offers 'Unidades y precios' among the kinds, with its template", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => ({ ok: true, status: 200, json: async () => ({ rows: [] }) })),
    );
    renderWithProviders(<ImportsSection />, { route: '/configuracion/importar' });
    const select = (await screen.findByLabelText('Tipo de datos')) as HTMLSelectElement;
    expect([...select.options].map((option) => option.text)).toEqual([
      'Clientes',
      'Brokers',
      'Unidades y precios',
      'Reservas',
    ]);
    fireEvent.change(select, { target: { value: 'units' } });
    expect(screen.getByRole('link', { name: 'Descargar plantilla' }).getAttribute('href')).toBe(
      '/api/imports/templates/units',
    );
  });

  it("after 'Deshacer importación' says the run was undone (issue 57)", async () => {
    let undone = false;
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      const applied = run({
        status: undone ? 'undone' : 'applied',
        processedRows: 3,
        counts: { created: 3, updated: 0, unchanged: 0, errors: 0 },
        canUndo: !undone,
      });
      if (url === '/api/imports/runs')
        return { ok: true, status: 200, json: async () => ({ rows: [applied] }) };
      if (url.endsWith('/undo') && init?.method === 'POST') {
        undone = true;
        return { ok: true, status: 200, json: async () => ({ run: { ...applied, status: 'undone' } }) };
      }
      return { ok: false, status: 404, json: async () => ({ message: 'No encontrado' }) };
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<ImportsSection />, { route: '/configuracion/importar' });
    const table = await screen.findByRole('table', { name: 'Importaciones realizadas' });
    fireEvent.click(await within(table).findByRole('button', { name: 'Deshacer importación' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deshacer importación' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deshacer importación' }));
    const said = await screen.findByText(/Se deshizo la importación de reservas_corregidas\.xlsx/);
    expect(said.closest('[role="status"]')).toBeTruthy();
    expect(await within(table).findByText('Deshecha')).toBeTruthy();
  });
});
