export { DocumentTypesSection } from './document-types-section-lazy';
