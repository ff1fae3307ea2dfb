// Mantine's stylesheets of the components in use (app/styles.ts); the date pickers' own comes with
// the first screen that shows one (components/date-field.tsx).
import './app/styles';
import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { lazy, StrictMode, Suspense, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createRouter } from './app/router';
import { cssVariablesResolver, theme } from './app/theme';
import { createQueryClient } from './lib/query-client';

// Mantine's date pickers name months and weekdays through dayjs. Instants are shown in
// America/Santiago by shared/format; date inputs work on 'YYYY-MM-DD' strings, free of time zones.
dayjs.locale('es');

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
        <DatesProvider settings={{ locale: 'es', firstDayOfWeek: 1 }}>
          <QueryClientProvider client={queryClient}>
            <Suspense>
              <Notifications position="top-right" />
            </Suspense>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </DatesProvider>
      </MantineProvider>
    </StrictMode>,
  ),
);
