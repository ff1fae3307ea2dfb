import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { BellBadge, BellBadgeView, bellCountText, formatBadgeCount } from './bell-badge';

const counts = (tasks: number, mentions = 0, dataRequests = 0) => ({
  count: tasks + mentions + dataRequests,
  tasks,
  mentions,
  dataRequests,
});

afterEach(() => vi.unstubAllGlobals());

describe('bell badge', () => {
  it('caps the count at 99+', () => {
    expect(formatBadgeCount(1)).toBe('1');
    expect(formatBadgeCount(99)).toBe('99');
    expect(formatBadgeCount(100)).toBe('99+');
    expect(formatBadgeCount(12_345)).toBe('99+');
  });

  it('says what it counts: tasks, unread mentions, overdue requests — only those that are not zero', () => {
    expect(bellCountText(counts(3, 1))).toBe('3 tareas pendientes y 1 mención sin leer');
    expect(bellCountText(counts(1))).toBe('1 tarea pendiente');
    expect(bellCountText(counts(0, 2))).toBe('2 menciones sin leer');
    expect(bellCountText(counts(2, 5, 1))).toBe(
      '2 tareas pendientes, 5 menciones sin leer y 1 solicitud de titular vencida',
    );
    expect(bellCountText(counts(1_200, 0, 3))).toBe(
      '1.200 tareas pendientes y 3 solicitudes de titulares vencidas',
    );
  });

  it('counts the unread mentions with the tasks, and says so', () => {
    renderWithProviders(<BellBadgeView counts={counts(3, 1)} />);
    expect(screen.getByTestId('bell-badge').textContent).toBe('4');
    expect(screen.getByTestId('bell-badge').getAttribute('title')).toBe(
      '3 tareas pendientes y 1 mención sin leer',
    );
    expect(screen.getByText(', 3 tareas pendientes y 1 mención sin leer')).toBeTruthy();
  });

  it('shows nothing without pending tasks and the capped count otherwise', () => {
    const empty = renderWithProviders(<BellBadgeView counts={counts(0)} />);
    expect(screen.queryByTestId('bell-badge')).toBeNull();
    empty.unmount();
    renderWithProviders(<BellBadgeView counts={counts(150)} />);
    expect(screen.getByTestId('bell-badge').textContent).toBe('99+');
    expect(screen.getByTestId('bell-badge').getAttribute('title')).toBe('150 tareas pendientes');
    // Screen readers hear the exact count (the visible '99+' is hidden from them).
    expect(screen.getByText(', 150 tareas pendientes')).toBeTruthy();
    expect(screen.getByTestId('bell-badge').getAttribute('aria-hidden')).toBe('true');
  });

  it('asks the server for the signed-in user’s count', async () => {
    const fetchMock = vi.fn(async () => ({ ok: true, status: 200, json: async () => counts(5, 2) }));
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<BellBadge />);
    expect((await screen.findByTestId('bell-badge')).textContent).toBe('7');
    expect(fetchMock).toHaveBeenCalledWith('/api/notifications/count', expect.anything());
  });
});
