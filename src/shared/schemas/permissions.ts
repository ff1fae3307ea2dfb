import { z } from 'zod';
import { ACTION_NAMES, USER_TYPES } from '../permissions';
import { closed } from './common';

/** Configuración → Permisos (decision 0061): every action, its words, who holds it by default and now. */
export const permissionRow = z.object({
  action: z.enum(ACTION_NAMES as [string, ...string[]]),
  label: z.string(),
  fixed: z.boolean(),
  defaultHolders: z.array(z.enum(USER_TYPES)),
  holders: z.array(z.enum(USER_TYPES)),
});
export type PermissionRow = z.infer<typeof permissionRow>;

export const permissionsResponse = z.object({
  userTypes: z.array(z.enum(USER_TYPES)),
  actions: z.array(permissionRow),
});
export type PermissionsResponse = z.infer<typeof permissionsResponse>;

/** The action and user type of one switch; an unknown action is a 404 (the service says so). */
export const permissionGrantParams = z.object({
  action: closed(z.string().regex(/^[A-Za-z]+\.[A-Za-z]+$/, { message: 'Acción no válida' }), 'acción'),
  userType: z.enum(USER_TYPES, { message: 'Tipo de usuario no válido' }),
});

export const permissionGrantBody = z.object({ granted: z.boolean({ message: 'Indique si se otorga' }) });
