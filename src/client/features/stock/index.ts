export { ProjectStockSection } from './project-stock-section';
export type { KnownUnit, UnitChoice, UnitFigures } from './unit-picker';
export { UnitPicker, unitFigures, useProjectInventory } from './unit-picker';
