// The flow screens' pieces other features show (the payment flow detail uses the same stages, tasks,
// popups and header as the sale flow detail).
export { DatesDialog } from './dates-dialog';
export { InfoItem } from './flow-info-card';
export { DocumentsHeaderIcon, HeaderIcon } from './header-icon';
export { type FlowStagesView, type FlowTaskView, StagesSection, taskLockReason } from './stages-section';
