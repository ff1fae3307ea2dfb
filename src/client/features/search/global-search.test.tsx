import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchResults } from '../../../shared/schemas/search';
import { renderWithProviders } from '../../test/render';
import { GlobalSearch, SEARCH_PLACEHOLDER } from './global-search';
import { GlobalSearch as GlobalSearchStandIn } from './global-search-lazy';

const CLIENT_ID = '00000000-0000-4000-8000-0000000000c1';
const FLOW_ID = '00000000-0000-4000-8000-0000000000f1';
const RESERVATION_ID = '00000000-0000-4000-8000-0000000000a1';
const OTHER_RESERVATION_ID = '00000000-0000-4000-8000-0000000000a2';

const results: SearchResults = {
  clients: [
    {
      id: CLIENT_ID,
      rut: '12345678-5',
      firstName: 'Juan',
      lastName: 'Pérez',
      email: null,
      reservationFlowId: FLOW_ID,
    },
  ],
  reservationsByNumber: [
    {
      id: RESERVATION_ID,
      reservationNumber: 'R-1204',
      apartmentNumber: '804',
      projectName: 'Edificio Alameda',
      projectStage: 'Etapa 1',
      clientName: 'Juan Pérez',
      isRescinded: false,
      reservationFlowId: null,
    },
  ],
  reservationsByApartment: [
    {
      id: OTHER_RESERVATION_ID,
      reservationNumber: 'R-77',
      apartmentNumber: '1204',
      projectName: 'Parque Ñuñoa',
      projectStage: 'Etapa 2',
      clientName: 'Rosa Díaz',
      isRescinded: false,
      reservationFlowId: null,
    },
  ],
  units: [],
};

function Location() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn(async () => ({ ok: true, status: 200, json: async () => results }));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

/**
 * The search requests sent. Only these: the files of a worker share one window (vitest's client
 * project), and a connection probe of an earlier test's app ('/api/health') may land here too.
 */
const searches = () =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/search'));

function setup() {
  renderWithProviders(
    <>
      <GlobalSearch />
      <Location />
    </>,
    { route: '/dashboard' },
  );
  return screen.getByRole('combobox', { name: 'Búsqueda global' }) as HTMLInputElement;
}

const options = () => screen.getAllByRole('option');
const selected = () => options().filter((option) => option.getAttribute('aria-selected') === 'true');

describe('global search', () => {
  it('waits for three characters before asking the server', async () => {
    const input = setup();
    expect(input.placeholder).toBe(SEARCH_PLACEHOLDER);
    fireEvent.change(input, { target: { value: ' ju ' } });
    expect(await screen.findByText('Escriba al menos 3 caracteres')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(searches()).toEqual([]);

    fireEvent.change(input, { target: { value: '1204' } });
    await waitFor(() => expect(options()).toHaveLength(3));
    expect(searches()).toEqual(['/api/search?q=1204']);
    // One group per type, each with its own label.
    expect(screen.getByRole('group', { name: 'Clientes' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Reservas' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Departamentos' })).toBeTruthy();
  });

  it('moves with the arrows, closes with Escape and opens the chosen result with Enter', async () => {
    const input = setup();
    fireEvent.change(input, { target: { value: '1204' } });
    await waitFor(() => expect(options()).toHaveLength(3));
    expect(selected()).toHaveLength(0);

    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(selected()[0]!.textContent).toContain('Juan Pérez');
    expect(input.getAttribute('aria-activedescendant')).toBe(selected()[0]!.id);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(selected()[0]!.textContent).toContain('Reserva R-1204');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' }); // wraps to the first
    expect(selected()[0]!.textContent).toContain('Juan Pérez');
    fireEvent.keyDown(input, { key: 'ArrowUp' }); // and back to the last
    expect(selected()[0]!.textContent).toContain('Depto. 1204');

    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');

    // The arrows open it again; Enter on a reservation without a flow opens its edit form.
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(selected()[0]!.textContent).toContain('Reserva R-1204');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByTestId('location').textContent).toBe(`/reservas/editar/${RESERVATION_ID}`);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input.value).toBe('');
  });

  it('opens the reservation flow of a client that has one, and closes when clicking outside', async () => {
    const input = setup();
    fireEvent.change(input, { target: { value: 'juan' } });
    await waitFor(() => expect(options()).toHaveLength(3));
    fireEvent.mouseDown(document.body);
    expect(screen.queryByRole('listbox')).toBeNull();

    fireEvent.focus(input);
    fireEvent.click(screen.getByRole('option', { name: /^Juan Pérez/ }));
    expect(screen.getByTestId('location').textContent).toBe(`/flujo-reservas/${FLOW_ID}`);
  });
});

describe('global search in the top bar (loaded when first reached)', () => {
  function setupStandIn() {
    renderWithProviders(<GlobalSearchStandIn />, { route: '/dashboard' });
    return () => screen.getByRole('combobox', { name: 'Búsqueda global' }) as HTMLInputElement;
  }

  it('is a plain box until reached; what was typed there is searched, the focus kept', async () => {
    const input = setupStandIn();
    const standIn = input();
    expect(standIn.placeholder).toBe(SEARCH_PLACEHOLDER);
    standIn.focus();
    fireEvent.change(standIn, { target: { value: '1204' } });
    // The real search replaces it, with the text, the focus and its results.
    await waitFor(() => expect(input()).not.toBe(standIn));
    expect(input().value).toBe('1204');
    expect(document.activeElement).toBe(input());
    await waitFor(() => expect(options()).toHaveLength(3));
    expect(searches()).toEqual(['/api/search?q=1204']);
  });

  it('Ctrl+K focuses the box before the search has loaded', async () => {
    const input = setupStandIn();
    fireEvent.keyDown(document.documentElement, { key: 'k', code: 'KeyK', ctrlKey: true });
    await waitFor(() => expect(document.activeElement).toBe(input()));
    expect(input().getAttribute('aria-expanded')).toBe('false');
  });
});
