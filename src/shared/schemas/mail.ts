import { z } from 'zod';
import { pageOf, requiredText } from './common';
import { requiredDate } from './fields';

/**
 * E-mail notices (issue 34, decision 0035): Configuración → 'Correos' (administrators), the user's
 * choice of notices (profile menu) and the holidays of the business-day calendar.
 */

export const MAIL_KINDS = [
  'approval',
  'mention',
  'notices',
  'paymentCompleted',
  'bankAccount',
  'digest',
  'reminder',
  'test',
  'portalInvitation',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export const mailKindLabels: Record<MailKind, string> = {
  approval: 'Aprobación pendiente',
  mention: 'Mención',
  notices: 'Avisos agrupados',
  paymentCompleted: 'Pago completado (KAM)',
  bankAccount: 'Cuenta bancaria (broker, promoción o inmobiliaria)',
  digest: 'Resumen diario',
  reminder: 'Recordatorio de plazo',
  test: 'Correo de prueba',
  portalInvitation: 'Invitación al portal de brokers',
};

export const MAIL_STATUSES = ['pending', 'sent', 'failed', 'discarded'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

export const mailStatusLabels: Record<MailStatus, string> = {
  pending: 'Pendiente',
  sent: 'Enviado',
  failed: 'Fallido',
  discarded: 'Descartado',
};

export const mailListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  status: z.enum(MAIL_STATUSES, { error: 'Estado no válido' }).optional(),
});

export const mailListRow = z.object({
  id: z.string(),
  kind: z.enum(MAIL_KINDS),
  status: z.enum(MAIL_STATUSES),
  recipient: z.string().nullable(),
  recipientName: z.string().nullable(),
  subject: z.string().nullable(),
  noticeCount: z.number().int(),
  attempts: z.number().int(),
  /** The SMTP server's answer to the last failed attempt, or why it was discarded. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sendAfter: z.string(),
  sentAt: z.string().nullable(),
});
export type MailListRow = z.infer<typeof mailListRow>;

export const mailPage = pageOf(mailListRow).extend({
  /** How messages leave: through an SMTP server, or written as .eml files on the server. */
  transport: z.enum(['smtp', 'files']),
});

export const mailRetryResponse = z.object({ id: z.string(), status: z.enum(MAIL_STATUSES) });
export const mailTestResponse = z.object({ id: z.string(), to: z.string() });

export const mailPreferences = z.strictObject({
  assigned: z.boolean(),
  approvals: z.boolean(),
  mentions: z.boolean(),
  rejections: z.boolean(),
  reminders: z.boolean(),
  digest: z.boolean(),
});
export type MailPreferences = z.infer<typeof mailPreferences>;
export const mailPreferencesResponse = z.object({ preferences: mailPreferences });

export const mailPreferenceLabels: Record<keyof MailPreferences, string> = {
  assigned: 'Tareas que me asignan',
  approvals: 'Aprobaciones que esperan mi visto bueno',
  mentions: 'Menciones en comentarios',
  rejections: 'Rechazos de aprobaciones que solicité',
  reminders: 'Recordatorio el día hábil antes del plazo de una tarea',
  digest: 'Resumen diario de tareas atrasadas (08:00, días hábiles)',
};

export const holiday = z.object({ date: z.string(), name: z.string() });
export const holidayListQuery = z.strictObject({
  year: z.coerce.number({ error: 'Año no válido' }).int({ error: 'Año no válido' }).min(2000).max(2100),
});
export const holidayList = z.object({ holidays: z.array(holiday) });
export const holidayBody = z.strictObject({
  date: requiredDate('Ingrese la fecha del feriado', 'Fecha no válida'),
  name: requiredText('Ingrese el nombre del feriado', 120),
});
export const holidayParams = z.strictObject({ date: z.iso.date({ error: 'Fecha no válida' }) });
