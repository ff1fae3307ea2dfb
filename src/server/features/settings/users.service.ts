import { isAdministratorType } from '../../../shared/permissions';
import type { PageQuery } from '../../../shared/schemas/common';
import type {
  SettingsUser,
  UserCreateValues,
  UserPage,
  UserUpdateValues,
} from '../../../shared/schemas/settings';
import type { ReadContext, ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as auth from '../auth/auth.service';
import * as files from '../files/files.service';
import { requireCan } from './settings-access';
import * as queries from './users.queries';

/**
 * Staff accounts (Configuración → Usuarios). Only administrators manage them. Deactivating a user or
 * setting their password ends their sessions in the same transaction, and their open event streams
 * right after the commit (`sessions-ended`, on every instance); a deactivated user keeps their
 * history and assignments but cannot sign in. At least one active administrator always remains.
 */

export function list(ctx: ReadContext, query: PageQuery): Promise<UserPage> {
  return queries.listUsers(ctx.db, query);
}

export async function get(ctx: ReadContext, id: string): Promise<SettingsUser> {
  const user = await queries.findUser(ctx.db, id);
  if (!user) throw new AppError('USER_NOT_FOUND');
  return user;
}

/**
 * Creates an account of any user type inside the caller's transaction; an Administrador also gets
 * the admin role entry (spec part 2 §6). Also used by `npm run user:create`.
 */
export async function insertAccountIn(tx: Executor, values: UserCreateValues): Promise<string> {
  const { password, ...profile } = values;
  const passwordHash = await auth.hashPassword(password);
  try {
    const id = await auth.createProfileIn(tx, { ...profile, passwordHash });
    await auth.syncAdminRoleIn(tx, id, profile.userType);
    return id;
  } catch (error) {
    if (isUniqueViolation(error, 'profiles_email_key')) throw new AppError('USER_EMAIL_TAKEN');
    throw error;
  }
}

export async function create(ctx: ServiceContext, values: UserCreateValues): Promise<SettingsUser> {
  requireCan(ctx, 'users.manage');
  if (await queries.emailTaken(ctx.db, values.email)) throw new AppError('USER_EMAIL_TAKEN');
  const id = await ctx.db.transaction((tx) => insertAccountIn(tx, values));
  return get(ctx, id);
}

/** Locks the user and, when the change would leave no active administrator, refuses it. */
async function lockForChange(
  tx: Executor,
  id: string,
  losesAdministration: (current: { userType: string; isActive: boolean }) => boolean,
) {
  const current = await queries.lockUser(tx, id);
  if (!current) throw new AppError('USER_NOT_FOUND');
  if (losesAdministration(current) && (await queries.lockOtherActiveAdmins(tx, id)) === 0) {
    throw new AppError('LAST_ADMINISTRATOR');
  }
  return current;
}

const isActiveAdmin = (user: { userType: string; isActive: boolean }) =>
  isAdministratorType(user.userType) && user.isActive;

/** Saves an edit read at `version` (the e-mail is not editable); a stale version answers 409. */
export async function update(
  ctx: ServiceContext,
  id: string,
  values: UserUpdateValues,
): Promise<SettingsUser> {
  requireCan(ctx, 'users.manage');
  const { version, ...fields } = values;
  await ctx.db.transaction(async (tx) => {
    await lockForChange(tx, id, (current) => isActiveAdmin(current) && !isAdministratorType(fields.userType));
    if (!(await auth.updateProfileIn(tx, id, version, fields))) throw new AppError('STALE_VERSION');
    await auth.syncAdminRoleIn(tx, id, fields.userType);
  });
  return get(ctx, id);
}

/** Deactivates a user: their sessions end at once; their history and assignments stay. */
export async function deactivate(ctx: ServiceContext, id: string): Promise<SettingsUser> {
  requireCan(ctx, 'users.manage');
  if (id === ctx.user.id) throw new AppError('USER_SELF_DEACTIVATION');
  await ctx.db.transaction(async (tx) => {
    await lockForChange(tx, id, isActiveAdmin);
    await auth.setProfileActiveIn(tx, id, false);
    await auth.endSessionsIn(tx, id);
  });
  ctx.events.publish({ type: 'sessions-ended', userId: id });
  return get(ctx, id);
}

export async function reactivate(ctx: ServiceContext, id: string): Promise<SettingsUser> {
  requireCan(ctx, 'users.manage');
  await ctx.db.transaction(async (tx) => {
    await lockForChange(tx, id, () => false);
    await auth.setProfileActiveIn(tx, id, true);
  });
  return get(ctx, id);
}

/**
 * An administrator sets a new password for a user; every session of that user ends — but the one
 * asking, when they set their own (`currentSessionId`), so they are not signed out mid-task.
 */
export async function setPassword(
  ctx: ServiceContext,
  id: string,
  password: string,
  currentSessionId?: string,
): Promise<void> {
  requireCan(ctx, 'users.manage');
  const passwordHash = await auth.hashPassword(password);
  const exceptSessionId = id === ctx.user.id ? currentSessionId : undefined;
  await ctx.db.transaction(async (tx) => {
    await lockForChange(tx, id, () => false);
    await auth.setPasswordHashIn(tx, id, passwordHash);
    await auth.endSessionsIn(tx, id, exceptSessionId);
  });
  ctx.events.publish({ type: 'sessions-ended', userId: id, exceptSessionId });
}

/** Replaces the avatar (null removes it): the new image stored, the old one deleted, in one transaction. */
export async function setAvatar(
  ctx: ServiceContext,
  id: string,
  image: Buffer | null,
): Promise<SettingsUser> {
  requireCan(ctx, 'users.manage');
  // Re-encoded before the transaction, so the connection is not held while the image is decoded.
  const prepared = image ? await files.prepareImage(image, 'avatar') : null;
  await ctx.db.transaction(async (tx) => {
    const current = await lockForChange(tx, id, () => false);
    const avatarUrl = prepared ? await files.storePreparedImage(tx, prepared, ctx.user.id) : null;
    await auth.setAvatarUrlIn(tx, id, avatarUrl);
    await files.deleteStoredFile(tx, current.avatarUrl);
  });
  return get(ctx, id);
}
