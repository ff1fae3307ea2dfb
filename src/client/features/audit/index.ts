// The audit trail's pieces other features show: 'Historial' in the header of the client, broker,
// reservation, sale flow and payment flow screens, and Configuración → Auditoría (loaded when opened).
import { lazySection } from '../../components/lazy-section';

export const AuditSection = lazySection(() => import('./audit-section'));
export { HistoryButton, HistoryDrawer } from './history-drawer';
