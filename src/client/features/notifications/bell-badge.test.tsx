import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { BellBadge, BellBadgeView, formatBadgeCount } from './bell-badge';

afterEach(() => vi.unstubAllGlobals());

describe('bell badge', () => {
  it('caps the count at 99+', () => {
    expect(formatBadgeCount(1)).toBe('1');
    expect(formatBadgeCount(99)).toBe('99');
    expect(formatBadgeCount(100)).toBe('99+');
    expect(formatBadgeCount(12_345)).toBe('99+');
  });

  it('shows nothing without pending tasks and the capped count otherwise', () => {
    const empty = renderWithProviders(<BellBadgeView count={0} />);
    expect(screen.queryByTestId('bell-badge')).toBeNull();
    empty.unmount();
    renderWithProviders(<BellBadgeView count={150} />);
    expect(screen.getByTestId('bell-badge').textContent).toBe('99+');
    expect(screen.getByTestId('bell-badge').getAttribute('title')).toBe('150 tareas pendientes');
    // Screen readers hear the exact count (the visible '99+' is hidden from them).
    expect(screen.getByText(', 150 tareas pendientes')).toBeTruthy();
    expect(screen.getByTestId('bell-badge').getAttribute('aria-hidden')).toBe('true');
  });

  it('asks the server for the signed-in user’s count', async () => {
    const fetchMock = vi.fn(async () => ({ ok: true, status: 200, json: async () => ({ count: 7 }) }));
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<BellBadge />);
    expect((await screen.findByTestId('bell-badge')).textContent).toBe('7');
    expect(fetchMock).toHaveBeenCalledWith('/api/notifications/count', expect.anything());
  });
});
