// Configuración → Pagos (issue 53): loaded when its tab is opened.
import { lazySection } from '../../components/lazy-section';

export const PaymentSettingsSection = lazySection(() => import('./payment-settings-section'));
