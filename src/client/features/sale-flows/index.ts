// The flow screens' pieces other features show (the payment flow detail uses the same stages, tasks,
// popups and header as the sale flow detail; /notificaciones shows a mention's comment as the
// comments popup does).

export { highlightMentions } from './comments-dialog';
export { FlowHeaderDescription, FlowShortcuts, HeaderIcon } from './flow-header';
export { InfoItem } from './flow-info-card';
export { type FlowStagesView, type FlowTaskView, RejectionNote, StagesSection } from './stages-section';
export { DatesDialog } from './task-dates-dialog';
