import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, onSessionLost, setSignedOut } from './api';

afterEach(() => {
  setSignedOut(false);
});

function answering(status: number, body: unknown) {
  const fetch = vi.fn(async () => ({ ok: status < 400, status, json: async () => body }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('a request while signed out', () => {
  it('is not sent when it needs the session, and fails as the server’s 401 would without reporting a lost session', async () => {
    const fetch = answering(200, { rows: [] });
    const lost = vi.fn();
    const stop = onSessionLost(lost);
    setSignedOut(true);

    const refused = await api('/api/clients').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      status: 401,
      code: 'UNAUTHENTICATED',
      message: 'Debe iniciar sesión para continuar.',
    });
    expect(fetch).not.toHaveBeenCalled();
    expect(lost).not.toHaveBeenCalled();

    // What needs no session still goes: signing in, registration, who is signed in.
    await api('/api/auth/registration', { allowUnauthenticated: true });
    expect(fetch).toHaveBeenCalledTimes(1);

    // Signed in again: sent as before.
    setSignedOut(false);
    await api('/api/clients');
    expect(fetch).toHaveBeenCalledTimes(2);
    stop();
  });
});
