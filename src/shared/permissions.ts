/**
 * User types and what each may do. The server checks these on every action; the client only
 * uses them to hide what the user may not do.
 */
export const USER_TYPES = ['Administrador', 'KAM', 'Gestor de Pagos', 'Supervisor', 'Operaciones'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** Actions that only administrators may take (spec part 1 §6, part 2 §6). */
export const ADMIN_ACTIONS = [
  'clients.delete',
  'reservations.delete',
  'reservations.rescind',
  'payments.start',
  'promotions.delete',
  'menu.followUp',
  'menu.approvals',
  'agencies.manage',
  'projects.manage',
  'users.manage',
  'flowSettings.manage',
  'audit.read',
  'comments.delete',
  'dataRequests.manage',
  'mail.manage',
  'imports.manage',
  'stock.manage',
  'reservations.overridePolicy',
  'ufValues.manage',
  'backups.manage',
  'documents.delete',
  'documentTypes.manage',
  'brokerInvoices.accept',
] as const;
export type Action = (typeof ADMIN_ACTIONS)[number];

export interface Actor {
  userType: UserType | string;
}

export function isAdmin(actor: Actor): boolean {
  return actor.userType === 'Administrador';
}

export function can(actor: Actor, action: Action): boolean {
  return (ADMIN_ACTIONS as readonly string[]).includes(action) ? isAdmin(actor) : true;
}
