// Respaldos (issue 30, decision 0031): Configuración → Respaldos (loaded when opened) and the
// administrators' dashboard warning when the last good backup is old.
import { lazySection } from '../../components/lazy-section';

export { BackupWarning } from './backup-warning';
export const BackupsSection = lazySection(() => import('./backups-section'));
