import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const registrationQueryKey = ['auth', 'registration'] as const;

/**
 * The server's answer to "may someone register now?" (REGISTRATION: open, first-user, closed; under
 * first-user only while nobody has an account). The login page offers 'Registrarse' only when it is
 * yes; the register page says so when it is no.
 */
export function useRegistrationIsOpen() {
  return useQuery({
    queryKey: registrationQueryKey,
    queryFn: async ({ signal }) =>
      (await api<{ isOpen: boolean }>('/api/auth/registration', { signal, allowUnauthenticated: true }))
        .isOpen,
  });
}
