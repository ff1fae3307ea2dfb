import { type Actor, isAdmin } from './permissions';

/**
 * Record-level policies (beside `permissions.ts`, which says what a user type may do at all): may
 * this user take this action on this record? The server enforces them; the client uses them to hide
 * what would be refused; the Permisos tab lists them.
 */

export interface PolicyUser extends Actor {
  id: string;
}

interface Policies {
  /** Approve or reject an approval task: its assignee, or an administrator (workflows.md §4). */
  'task.decide': { assigneeIds: readonly string[] };
  /** See another user's pending tasks (Seguimiento): administrators only (spec part 2 §6). */
  'tasks.readOf': { userId: string };
}

export type PolicyAction = keyof Policies;

const rules: { [A in PolicyAction]: (user: PolicyUser, record: Policies[A]) => boolean } = {
  'task.decide': (user, task) => isAdmin(user) || task.assigneeIds.includes(user.id),
  'tasks.readOf': (user, owner) => isAdmin(user) || owner.userId === user.id,
};

export function allow<A extends PolicyAction>(user: PolicyUser, action: A, record: Policies[A]): boolean {
  return rules[action](user, record);
}

/** The policies in words, for the Permisos tab (generated from the same rules the server runs). */
export const policyDescriptions: Record<PolicyAction, string> = {
  'task.decide': 'Aprobar o rechazar una aprobación: la persona asignada a la tarea, o un administrador',
  'tasks.readOf': 'Ver las tareas pendientes de otro usuario (Seguimiento): solo administradores',
};
