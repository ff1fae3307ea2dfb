// Configuración → Documentos (issue 35, decision 0037), loaded when the tab is first opened.
import { lazySection } from '../../components/lazy-section';

export const DocumentTypesSection = lazySection(() => import('./document-types-section'));
