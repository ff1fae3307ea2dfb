export { UfValuesSection } from './uf-values-section-lazy';
