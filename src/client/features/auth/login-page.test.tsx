import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import LoginPage from './login-page';

afterEach(() => vi.unstubAllGlobals());

/** The server's answer to GET /api/auth/registration. */
function registrationAnswers(isOpen: boolean) {
  const json = vi.fn(async () => ({ isOpen }));
  const fetchMock = vi.fn(async (_url: string) => ({ ok: true, status: 200, json }));
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, json };
}

describe('LoginPage', () => {
  it('offers Registrarse when the server says registration is open', async () => {
    const { fetchMock } = registrationAnswers(true);
    renderWithProviders(<LoginPage />, { route: '/login' });
    const link = await screen.findByRole('link', { name: 'Registrarse' });
    expect(link.getAttribute('href')).toBe('/register');
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/registration', expect.anything());
  });

  it('does not offer Registrarse when registration is closed (a dead end otherwise)', async () => {
    const { fetchMock, json } = registrationAnswers(false);
    renderWithProviders(<LoginPage />, { route: '/login' });
    await waitFor(() => expect(json).toHaveBeenCalled());
    // The answer has arrived and been rendered: the form is there, the link is not.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/registration', expect.anything());
    expect(screen.queryByText('¿No tiene una cuenta?', { exact: false })).toBeNull();
    expect(screen.getByRole('button', { name: 'Iniciar Sesión' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Registrarse' })).toBeNull();
  });
});
