// Configuración → Importar (issue 32), loaded when the tab is first opened.
export { ImportsSection } from './imports-section-lazy';
