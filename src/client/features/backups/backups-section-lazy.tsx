import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';

const Section = lazy(() => import('./backups-section'));

/** Configuración → Respaldos, its code loaded when the tab is first opened (administrators only). */
export function BackupsSection() {
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
