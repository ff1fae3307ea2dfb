import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';

const Section = lazy(() => import('./data-requests-section'));

/**
 * Configuración → Solicitudes de titulares, its code loaded when the tab is first opened
 * (administrators only).
 */
export function DataRequestsSection() {
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <Loader aria-label="Cargando" />
        </Center>
      }
    >
      <Section />
    </Suspense>
  );
}
