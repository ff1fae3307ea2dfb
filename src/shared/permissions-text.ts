import type { Action } from './permissions';

// Apart from permissions.ts, which every screen's menu reads: these words are for the Permisos tab
// only and stay out of the initial bundle.

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
  'comments.delete': 'Eliminar comentarios de las tareas',
};
