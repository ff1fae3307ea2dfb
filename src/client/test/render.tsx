import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { actionsOf } from '../../shared/permissions';
import type { SessionUser } from '../../shared/schemas/auth';

/** Renders a component with the app's providers, at a given URL. */
export function renderWithProviders(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

export function sessionUserFixture(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    email: 'ana@inmoflujo.test',
    firstName: 'Ana',
    lastName: 'Rojas',
    position: 'Analista',
    userType: 'Administrador',
    isSeller: false,
    avatarUrl: null,
    actions: actionsOf(overrides.userType ?? 'Administrador'),
    ...overrides,
  };
}
