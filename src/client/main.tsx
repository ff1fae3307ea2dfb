import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createRouter } from './app/router';
import { theme } from './app/theme';
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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light">
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
);
