import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';

const Section = lazy(() => import('./document-types-section'));

/** Configuración → Documentos, its code loaded when the tab is first opened (administrators only). */
export function DocumentTypesSection() {
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
