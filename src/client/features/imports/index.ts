// Configuración → Importar (issue 32), loaded when the tab is first opened.
import { lazySection } from '../../components/lazy-section';

export const ImportsSection = lazySection(() => import('./imports-section'));
