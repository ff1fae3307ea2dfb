import {
  ACTION_LABELS,
  ACTION_NAMES,
  ACTIONS,
  type Action,
  can,
  holdersOf,
  holds,
  isAction,
  isAdministratorType,
  USER_TYPES,
  type UserType,
} from '../../../shared/permissions';
import type { PermissionsResponse } from '../../../shared/schemas/permissions';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { AppError } from '../../http/app-error';
import { type GrantsStore, grantsOf } from './grants-store';
import * as queries from './permissions.queries';

/** What administrators must always keep, or nobody could give anything back (decision 0061). */
const KEPT_BY_ADMINISTRATORS: readonly Action[] = ['permissions.manage', 'users.manage'];

function requireManager(ctx: Pick<ServiceContext, 'user'>) {
  if (!can(ctx.user, 'permissions.manage')) throw new AppError('FORBIDDEN');
}

/**
 * The user types that hold `action` under the office's grants as stored now (read in the caller's
 * transaction, so a grant changed on another instance counts): whom a notice for that action's
 * holders reaches (decision 0077).
 */
export async function holdersIn(tx: Executor, action: Action): Promise<UserType[]> {
  return holdersOf(action, grantsOf(await queries.findGrants(tx)));
}

/** Configuración → Permisos: every action of the catalogue with its default and current holders. */
export function list(ctx: Pick<ServiceContext, 'user'>, store: GrantsStore): PermissionsResponse {
  requireManager(ctx);
  const grants = store.current();
  return {
    userTypes: [...USER_TYPES],
    actions: ACTION_NAMES.map((action) => ({
      action,
      label: ACTION_LABELS[action],
      fixed: ACTIONS[action].fixed,
      defaultHolders: [...ACTIONS[action].holders],
      holders: holdersOf(action, grants),
    })),
  };
}

/**
 * Grants or withdraws a grantable action to a user type, audited (the table's triggers, as the
 * signed-in administrator), in one transaction. A row is kept only where the office differs from the
 * catalogue's default. After the commit this instance reloads its grants and the others are told to.
 */
export async function setGrant(
  ctx: ServiceContext,
  store: GrantsStore,
  action: string,
  userType: UserType,
  granted: boolean,
): Promise<PermissionsResponse> {
  requireManager(ctx);
  if (!isAction(action)) throw new AppError('PERMISSION_UNKNOWN');
  if (KEPT_BY_ADMINISTRATORS.includes(action) && isAdministratorType(userType) && !granted) {
    throw new AppError('PERMISSION_ADMIN_KEEPS');
  }
  if (ACTIONS[action].fixed) throw new AppError('PERMISSION_FIXED');
  const isDefault = holds(userType, action) === granted;
  await ctx.db.transaction(async (tx) => {
    if (isDefault) await queries.deleteGrant(tx, action, userType);
    else
      await queries.upsertGrant(tx, {
        action,
        userType,
        granted,
        changedBy: ctx.user.id,
        changedAt: ctx.now,
      });
  });
  await store.reload();
  ctx.events.publish({ type: 'permissions-changed' });
  return list(ctx, store);
}
