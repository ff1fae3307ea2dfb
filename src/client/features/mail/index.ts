// E-mail notices (decision 0035): Configuración → Correos (loaded when opened) and the user's
// 'Avisos por correo' dialog in the top bar.

export { MailSection } from './mail-section-lazy';
export { MailPreferencesDialog } from './preferences-dialog-lazy';
