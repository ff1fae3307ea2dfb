import { Center, Loader } from '@mantine/core';
import { type ComponentType, lazy, Suspense } from 'react';

/**
 * A Configuración section whose code is loaded when its tab is first opened (administrators' tabs
 * most users never see stay out of the initial bundle, decision 0005), a loader meanwhile.
 */
export function lazySection(load: () => Promise<{ default: ComponentType }>): ComponentType {
  const Section = lazy(load);
  // biome-ignore lint/correctness/noComponentHookFactories: made once per section when its feature's index loads, never during a render
  return function LazySection() {
    return (
      <Suspense
        fallback={
          <Center py="xl">
            <Loader role="status" aria-label="Cargando" />
          </Center>
        }
      >
        <Section />
      </Suspense>
    );
  };
}
