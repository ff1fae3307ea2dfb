// The holders' data rights pieces other features show (Ley 21.719, decision 0027): Configuración →
// Solicitudes de titulares (loaded when opened), the client screens' export, restriction mark and
// 'Levantar restricción', and the countdown words /notificaciones uses.
import { lazySection } from '../../components/lazy-section';

export const DataRequestsSection = lazySection(() => import('./data-requests-section'));
export { HolderDataMenu, RestrictionAlert } from './holder-actions';
export { overdueText, RestrictionBadge } from './request-parts';
