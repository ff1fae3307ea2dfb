// Respaldos (issue 30, decision 0031): Configuración → Respaldos (loaded when opened) and the
// administrators' dashboard warning when the last good backup is old.

export { BackupWarning } from './backup-warning';
export { BackupsSection } from './backups-section-lazy';
