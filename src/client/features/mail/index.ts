// E-mail notices (decision 0035): Configuración → Correos (loaded when opened) and the user's
// 'Avisos por correo' dialog in the top bar.
import { lazySection } from '../../components/lazy-section';

export const MailSection = lazySection(() => import('./mail-section'));
export { MailPreferencesDialog } from './preferences-dialog-lazy';
