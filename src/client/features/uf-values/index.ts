// Configuración → Valores UF (decision 0034), loaded when the tab is first opened.
import { lazySection } from '../../components/lazy-section';

export const UfValuesSection = lazySection(() =>
  import('./uf-values-section').then((module) => ({ default: module.UfValuesSection })),
);
