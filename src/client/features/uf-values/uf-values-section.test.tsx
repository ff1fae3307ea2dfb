import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UfAutomatic } from '../../../shared/schemas/uf-values';
import { renderWithProviders } from '../../test/render';
import { UfValuesSection } from './uf-values-section';

afterEach(() => vi.unstubAllGlobals());

const month = { month: '2026-11', days: [], canManage: true };
const json = (body: unknown) => ({ ok: true, status: 200, json: async () => body });

function serve(automatic: UfAutomatic, afterFetch?: UfAutomatic) {
  let fetched = false;
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url.startsWith('/api/uf-values?')) return json(month);
    if (url === '/api/uf-values/automatic' && init?.method === 'POST') {
      fetched = true;
      return json({ fetch: afterFetch?.last });
    }
    if (url === '/api/uf-values/automatic') return json(fetched && afterFetch ? afterFetch : automatic);
    return { ok: false, status: 404, json: async () => ({ message: 'No encontrado' }) };
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('Valores UF: the automatic fetch', () => {
  it('says how to turn it on when the server has no API key', async () => {
    serve({ enabled: false, source: null, last: null });
    renderWithProviders(<UfValuesSection />, { route: '/configuracion/valores-uf' });
    expect(await screen.findByText(/Consulta automática desactivada/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Consultar ahora' })).toBeNull();
  });

  it('shows why the last attempt saved nothing, and asks again on request', async () => {
    const failed: UfAutomatic = {
      enabled: true,
      source: 'api.cmfchile.cl',
      last: {
        attemptedAt: '2026-11-26T12:00:00.000Z',
        status: 'failed',
        received: 0,
        added: 0,
        failure: 'La fuente respondió con el error 503',
      },
    };
    const saved: UfAutomatic = {
      ...failed,
      last: {
        attemptedAt: '2026-11-26T13:00:00.000Z',
        status: 'saved',
        received: 30,
        added: 30,
        failure: null,
      },
    };
    const fetchMock = serve(failed, saved);
    renderWithProviders(<UfValuesSection />, { route: '/configuracion/valores-uf' });
    const last = await screen.findByTestId('uf-automatic-last');
    expect(last.textContent).toContain('no se guardó nada: La fuente respondió con el error 503');
    expect(screen.getByText('Consulta automática (api.cmfchile.cl)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Consultar ahora' }));
    expect((await screen.findByText(/30 valores recibidos, 30 nuevos/)).textContent).toContain(
      'Última consulta',
    );
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => url === '/api/uf-values/automatic' && init?.method === 'POST',
      ),
    ).toBe(true);
  });
});
