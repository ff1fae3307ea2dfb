import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';

const Section = lazy(() =>
  import('./uf-values-section').then((module) => ({ default: module.UfValuesSection })),
);

/** Configuración → Valores UF, its code loaded when the tab is first opened (administrators only). */
export function UfValuesSection() {
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
