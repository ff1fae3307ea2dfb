import { z } from 'zod';
import { newPassword } from './auth';
import { closed, requiredEmail, requiredText, uuid } from './common';

/**
 * The brokers' portal (issue 58, decision 0069): its accounts, as staff manage them from Brokers →
 * 'Portal', and the broker user's own session.
 */

export const brokerUserParams = z.strictObject({ brokerId: uuid(), id: uuid() });
export const brokerParams = z.strictObject({ brokerId: uuid() });

export const brokerUserInviteBody = z.strictObject({
  name: requiredText('El nombre es obligatorio', 120),
  email: requiredEmail('Ingrese un correo electrónico válido'),
});
export type BrokerUserInviteBody = z.infer<typeof brokerUserInviteBody>;

/** One account of the portal, as Brokers → 'Portal' lists it. */
export const brokerUserRow = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  isActive: z.boolean(),
  /** Invited, password not set yet. */
  isPending: z.boolean(),
  createdAt: z.string(),
});
export type BrokerUserRow = z.infer<typeof brokerUserRow>;

export const brokerUserList = z.object({
  users: z.array(brokerUserRow),
  /** Whether the signed-in staff user may invite and deactivate (an administrator or the broker's KAM). */
  canManage: z.boolean(),
});
export type BrokerUserList = z.infer<typeof brokerUserList>;

export const brokerUserAnswer = z.object({ user: brokerUserRow });

/** The link's token (base64url of 32 bytes) and the new password. */
export const portalPasswordBody = z.strictObject({
  token: closed(z.string({ error: 'El enlace no es válido' }), 'enlace')
    .min(20, { error: 'El enlace no es válido' })
    .max(100, { error: 'El enlace no es válido' }),
  password: newPassword,
});
export type PortalPasswordBody = z.infer<typeof portalPasswordBody>;

/** The broker user of a portal session: never staff, no actions of the catalogue. */
export const portalUser = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  brokerId: z.uuid(),
  brokerName: z.string(),
});
export type PortalUser = z.infer<typeof portalUser>;
export const portalUserAnswer = z.object({ user: portalUser });

/** The sale's stage in words (issue 58): what a broker follows of a reservation it brought. */
export const PORTAL_SALE_STAGES = [
  'Reserva',
  'Promesa',
  'Escrituración',
  'Escriturada',
  'Resciliada',
] as const;
export type PortalSaleStage = (typeof PORTAL_SALE_STAGES)[number];

/**
 * 'Mis operaciones': one reservation of the session's broker. Of the buyer, the name only
 * (decision 0070, Ley 21.719's minimisation): no RUT, phone or e-mail.
 */
export const portalOperationRow = z.object({
  reservationNumber: z.string(),
  projectName: z.string(),
  apartmentNumber: z.string(),
  reservationDate: z.string(),
  /** In words: 'Resciliada', 'Escriturada', or the sale flow's current stage (Reserva, Promesa, Escrituración). */
  stage: z.string(),
  buyerName: z.string(),
});
export type PortalOperationRow = z.infer<typeof portalOperationRow>;

export const portalOperationsQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(20),
});
export type PortalOperationsQuery = z.infer<typeof portalOperationsQuery>;

export const portalOperationsPage = z.object({
  rows: z.array(portalOperationRow),
  total: z.number().int(),
  totalIsCapped: z.boolean(),
});
export type PortalOperationsPage = z.infer<typeof portalOperationsPage>;
