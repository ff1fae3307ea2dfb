// The audit trail's pieces other features show: 'Historial' in the header of the client, broker,
// reservation, sale flow and payment flow screens, and Configuración → Auditoría (loaded when opened).

export { AuditSection } from './audit-section-lazy';
export { HistoryButton, HistoryDrawer } from './history-drawer';
