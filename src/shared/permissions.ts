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
] as const;
export type Action = (typeof ADMIN_ACTIONS)[number];

/** The actions in words, for the Permisos tab (generated from the same list the server checks). */
export const actionDescriptions: Record<Action, string> = {
  'clients.delete': 'Eliminar clientes',
  'reservations.delete': 'Eliminar reservas',
  'reservations.rescind': 'Resciliar reservas (irreversible)',
  'payments.start': 'Iniciar un flujo de pago («Proceder con Pago»)',
  'promotions.delete': 'Eliminar promociones',
  'menu.followUp': 'Ver el seguimiento de tareas de todos los usuarios (menú Seguimiento)',
  'menu.approvals': 'Ver el menú Aprobaciones',
  'agencies.manage': 'Crear y editar inmobiliarias',
  'projects.manage': 'Crear y editar proyectos (y sus logos)',
  'users.manage': 'Crear, editar, desactivar y reactivar usuarios; cambiar sus contraseñas',
  'flowSettings.manage': 'Cambiar el vendedor por defecto y los responsables por defecto de los flujos',
  'audit.read': 'Ver y exportar la auditoría de todos los cambios (Configuración → Auditoría)',
};

export interface Actor {
  userType: UserType | string;
}

export function isAdmin(actor: Actor): boolean {
  return actor.userType === 'Administrador';
}

export function can(actor: Actor, action: Action): boolean {
  return (ADMIN_ACTIONS as readonly string[]).includes(action) ? isAdmin(actor) : true;
}
