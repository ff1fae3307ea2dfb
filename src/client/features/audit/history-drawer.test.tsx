import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry, AuditPage } from '../../../shared/schemas/audit';
import { renderWithProviders } from '../../test/render';
import { HISTORY_PAGE_SIZE } from './api';
import { changeCountText, HistoryButton, HistoryEntry, hasDetailOf } from './history-drawer';

afterEach(() => vi.unstubAllGlobals());

const RESERVATION_ID = '0b6c1f0e-7a7e-4c1a-9d3e-2f1a5b6c7d8e';

function entry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 41,
    // 13:42 UTC is 10:42 in Santiago in March (summer time, UTC−3).
    at: '2027-03-12T13:42:00.000Z',
    actor: { id: '00000000-0000-4000-8000-000000000007', name: 'Camila Fuentes' },
    action: 'update',
    table: 'broker_commissions',
    subject: 'la comisión del broker',
    summary: 'cambió Monto comisión de UF 120,00 a UF 135,50 en la comisión del broker',
    record: {
      kind: 'reservations',
      id: RESERVATION_ID,
      label: 'Reserva N° 1234',
      exists: true,
      flowKind: null,
    },
    changes: [{ field: 'Monto comisión', before: 'UF 120,00', after: 'UF 135,50' }],
    requestId: 'b9d0c7e2-1f3a-4b5c-8d6e-7f8091a2b3c4',
    ...overrides,
  };
}

const created = entry({
  id: 12,
  at: '2027-01-05T15:00:00.000Z',
  actor: null,
  action: 'insert',
  summary: 'creó la comisión del broker',
  changes: [
    { field: 'Broker', before: null, after: 'Corredora Andes SpA' },
    { field: 'Monto comisión', before: null, after: 'UF 120,00' },
  ],
});

describe('HistoryEntry', () => {
  it('reads "actor summary · time", the time in Santiago whatever the browser’s zone', () => {
    renderWithProviders(<HistoryEntry entry={entry()} />);
    const item = screen.getByRole('listitem');
    expect(item.textContent).toBe(
      'Camila Fuentes cambió Monto comisión de UF 120,00 a UF 135,50 en la comisión del broker · 12/03/2027 10:42',
    );
    expect(within(item).getByText('Camila Fuentes').tagName).toBe('SPAN');
    expect(item.querySelector('time')?.getAttribute('dateTime')).toBe('2027-03-12T13:42:00.000Z');
    // An update's sentence already names its fields: nothing to unfold.
    expect(screen.queryByRole('button', { name: 'Ver detalle' })).toBeNull();
  });

  it('names the changes no user made "sistema"', () => {
    renderWithProviders(<HistoryEntry entry={created} />);
    expect(screen.getByRole('listitem').textContent).toMatch(
      /^sistema creó la comisión del broker · 05\/01\/2027 12:00/,
    );
  });

  it('lists what a created record held under "Ver detalle", and folds it again', async () => {
    renderWithProviders(<HistoryEntry entry={created} />);
    const toggle = screen.getByRole('button', { name: 'Ver detalle' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('Monto comisión: UF 120,00')).toBeNull();

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.textContent).toBe('Ocultar detalle');
    const detail = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    await waitFor(() =>
      expect(
        within(detail)
          .getAllByRole('listitem')
          .map((line) => line.textContent),
      ).toEqual(['Broker: Corredora Andes SpA', 'Monto comisión: UF 120,00']),
    );

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.textContent).toBe('Ver detalle');
    await waitFor(() => expect(screen.queryByText('Monto comisión: UF 120,00')).toBeNull());
  });

  it('lists what a deleted record held', async () => {
    renderWithProviders(
      <HistoryEntry
        entry={entry({
          action: 'delete',
          table: 'promotions',
          summary: 'eliminó la promoción',
          changes: [{ field: 'Monto promoción', before: 'UF 50,00', after: null }],
        })}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Ver detalle' }));
    expect(await screen.findByText('Monto promoción: UF 50,00')).toBeTruthy();
  });
});

describe('hasDetailOf', () => {
  const change = [{ field: 'Responsable', before: null, after: 'Camila Fuentes' }];

  it('unfolds what a created or deleted record held, not what an update’s sentence says', () => {
    expect(hasDetailOf({ action: 'insert', table: 'promotions', changes: change })).toBe(true);
    expect(hasDetailOf({ action: 'delete', table: 'flow_task_comments', changes: change })).toBe(true);
    expect(hasDetailOf({ action: 'update', table: 'promotions', changes: change })).toBe(false);
    expect(hasDetailOf({ action: 'insert', table: 'promotions', changes: [] })).toBe(false);
  });

  it('leaves out the rows whose sentence names all they hold (assignments, mentions, new comments)', () => {
    expect(hasDetailOf({ action: 'insert', table: 'flow_task_assignees', changes: change })).toBe(false);
    expect(hasDetailOf({ action: 'delete', table: 'flow_task_assignees', changes: change })).toBe(false);
    expect(hasDetailOf({ action: 'insert', table: 'flow_task_comment_mentions', changes: change })).toBe(
      false,
    );
    expect(hasDetailOf({ action: 'insert', table: 'flow_task_comments', changes: change })).toBe(false);
  });
});

describe('changeCountText', () => {
  it('counts the changes, and says "más de" when the server stopped counting', () => {
    expect(changeCountText(1, false)).toBe('1 cambio');
    expect(changeCountText(134, false)).toBe('134 cambios');
    expect(changeCountText(1000, true)).toBe('Más de 1.000 cambios');
  });
});

/** Answers the history's pages in turn, recording the addresses asked. */
function stubHistory(pages: AuditPage[] | 'error') {
  const fetchMock = vi.fn(async (url: string) => {
    if (pages === 'error') {
      return {
        ok: false,
        status: 500,
        json: async () => ({ error: { code: 'INTERNAL', message: 'Ocurrió un error inesperado.' } }),
      };
    }
    const page = Number(new URL(url, 'http://localhost').searchParams.get('page'));
    return { ok: true, status: 200, json: async () => pages[page - 1] };
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('HistoryButton', () => {
  it('opens the drawer with the record’s changes, newest first, and appends the next page', async () => {
    const firstPage = Array.from({ length: HISTORY_PAGE_SIZE }, (_, index) =>
      entry({ id: 100 - index, summary: `cambió Departamento de ${index} a ${index + 1} en la reserva` }),
    );
    const fetchMock = stubHistory([
      { rows: firstPage, total: HISTORY_PAGE_SIZE + 1, totalIsCapped: false },
      { rows: [created], total: HISTORY_PAGE_SIZE + 1, totalIsCapped: false },
    ]);
    renderWithProviders(<HistoryButton kind="reservations" id={RESERVATION_ID} />);
    fireEvent.click(screen.getByRole('button', { name: 'Historial' }));

    const drawer = await screen.findByRole('dialog', { name: 'Historial' });
    expect(await within(drawer).findByText('21 cambios, del más reciente al más antiguo')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      `/api/audit/history/reservations/${RESERVATION_ID}?page=1&pageSize=${HISTORY_PAGE_SIZE}`,
      expect.anything(),
    );
    const list = within(drawer).getByRole('list', { name: 'Cambios' });
    expect(within(list).getAllByTestId('history-entry')).toHaveLength(HISTORY_PAGE_SIZE);

    fireEvent.click(within(drawer).getByRole('button', { name: 'Cargar más' }));
    await waitFor(() => expect(within(list).getAllByTestId('history-entry')).toHaveLength(21));
    expect(within(list).getAllByTestId('history-entry').at(-1)?.textContent).toMatch(
      /^sistema creó la comisión del broker/,
    );
    expect(within(drawer).queryByRole('button', { name: 'Cargar más' })).toBeNull();
  });

  it('says so when the record has no change recorded', async () => {
    stubHistory([{ rows: [], total: 0, totalIsCapped: false }]);
    renderWithProviders(<HistoryButton kind="clients" id={RESERVATION_ID} />);
    fireEvent.click(screen.getByRole('button', { name: 'Historial' }));
    const drawer = await screen.findByRole('dialog', { name: 'Historial' });
    expect(await within(drawer).findByText('Sin cambios registrados')).toBeTruthy();
  });

  it('shows the server’s message when the history cannot be read', async () => {
    stubHistory('error');
    renderWithProviders(<HistoryButton kind="flows" id={RESERVATION_ID} />);
    fireEvent.click(screen.getByRole('button', { name: 'Historial' }));
    const drawer = await screen.findByRole('dialog', { name: 'Historial' });
    const alert = await within(drawer).findByRole('alert');
    expect(alert.textContent).toContain('No se pudo cargar el historial');
    expect(alert.textContent).toContain('Ocurrió un error inesperado.');
  });
});
