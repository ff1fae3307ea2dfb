import { can, type Holder } from './permissions';

/**
 * Record-level policies (beside `permissions.ts`, which says what a user type may do at all): may
 * this user take this action on this record? The services call `allow`; the Permisos tab lists them.
 * What may be done on a flow's tasks is not here: the workflow engine's authority decides it
 * (`shared/domain/workflow/authority.ts`, issue 26), and the flow screens render its answer.
 */

export interface PolicyUser extends Holder {
  id: string;
}

interface Policies {
  /** See another user's pending tasks (Seguimiento): whoever may see everyone's (spec part 2 §6). */
  'tasks.readOf': { userId: string };
  /**
   * See, preview and download a document of a type (issue 35): a restricted type ('Administradores y
   * pagos') only administrators and the payments team ('Gestor de Pagos'); the others all staff.
   */
  'documents.read': { isRestricted: boolean };
  /**
   * Record or correct the broker's invoice on its task (issue 33): the payments team ('Gestor de
   * Pagos') while the task is not completed, administrators always (as any change to a completed task).
   */
  'brokerInvoices.record': { taskStatus: string };
  /**
   * Mark a payment batch paid on the bank's date (issues 33 and 53): the payments team ('Gestor de
   * Pagos') on a day from `earliest` (N business days back, a setting) to today, administrators on
   * any past day (as completing a task with another date, spec part 2 §8).
   */
  'paymentBatches.markPaid': { paidDate: string; today: string; earliest: string };
  /**
   * Change the bank data that decides where money goes (a broker's account, a promotion's payee, an
   * agency's account; issue 53): the payments team and administrators.
   */
  'bankAccounts.change': { payee: 'broker' | 'promotion' | 'agency' };
  /**
   * Verify a change of bank data (issue 53): a second person of the payments team or an
   * administrator, never the change's author.
   */
  'bankAccounts.verify': { changedBy: string | null };
}

export type PolicyAction = keyof Policies;

const rules: { [A in PolicyAction]: (user: PolicyUser, record: Policies[A]) => boolean } = {
  'tasks.readOf': (user, owner) => owner.userId === user.id || can(user, 'menu.followUp'),
  'documents.read': (user, type) => !type.isRestricted || can(user, 'documents.readRestricted'),
  'brokerInvoices.record': (user, task) =>
    can(user, 'flows.administer') || (can(user, 'brokerInvoices.record') && task.taskStatus !== 'completed'),
  'paymentBatches.markPaid': (user, batch) =>
    can(user, 'paymentBatches.manage') &&
    (can(user, 'flows.administer') || (batch.paidDate >= batch.earliest && batch.paidDate <= batch.today)),
  'bankAccounts.change': (user) => can(user, 'bankAccounts.change'),
  'bankAccounts.verify': (user, change) => can(user, 'bankAccounts.verify') && change.changedBy !== user.id,
};

export function allow<A extends PolicyAction>(user: PolicyUser, action: A, record: Policies[A]): boolean {
  return rules[action](user, record);
}
