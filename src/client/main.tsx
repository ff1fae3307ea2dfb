// Mantine's stylesheets of the components in use (app/styles.ts); the date pickers' own, and their
// Spanish calendar (dayjs's es locale), come with the first screen that shows one
// (components/date-field.tsx).
import './app/styles';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createRouter } from './app/router';
import { cssVariablesResolver, theme } from './app/theme';
import { createQueryClient } from './lib/query-client';

// Toasts are not needed to paint the first screen: their container loads right after.
const Notifications = lazy(() =>
  import('@mantine/notifications').then((m) => ({ default: m.Notifications })),
);

const queryClient = createQueryClient();
const router = createRouter();

// Rendered in a transition: the first render yields to the browser instead of one long task.
startTransition(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <QueryClientProvider client={queryClient}>
          <Suspense>
            <Notifications position="top-right" />
          </Suspense>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  ),
);
