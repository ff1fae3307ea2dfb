import { createHash, randomBytes } from 'node:crypto';
import { can } from '../../../shared/permissions';
import type { SessionUser } from '../../../shared/schemas/auth';
import type {
  BrokerUserInviteBody,
  BrokerUserList,
  BrokerUserRow,
  PortalOperationsPage,
  PortalOperationsQuery,
  PortalPasswordBody,
  PortalUser,
} from '../../../shared/schemas/portal';
import type { ServiceContext } from '../../context';
import { actingAs } from '../../db/actor';
import type { Database } from '../../db/client';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as audit from '../audit/audit.service';
import {
  type AuthSettings,
  decoyPasswordHash,
  hashPassword,
  type LoginThrottleLimits,
  portalSignInThrottle,
  verifyPassword,
} from '../auth/auth.service';
import * as mail from '../mail/mail.service';
import * as queries from './portal.queries';

/**
 * The brokers' portal (issue 58, decision 0069): people of one broker agency, never staff. Their
 * accounts are invited from Brokers → 'Portal' by whoever holds 'brokerUsers.manage' or by the
 * broker's KAM; a single-use link valid 72 hours sets the password; a session is bound to the
 * account's broker, and every portal read takes the broker from it, never from the request.
 */

/** How long an invitation's link works. */
export const INVITATION_HOURS = 72;

/** The SHA-256 of a token (a cookie's or a link's): what the database keeps, never the token. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const newToken = () => randomBytes(32).toString('base64url');

/** The staff user may manage this broker's accounts: the catalogue's action, or they are its KAM. */
function mayManage(user: SessionUser, broker: { kamEmail: string | null }): boolean {
  return (
    can(user, 'brokerUsers.manage') ||
    (broker.kamEmail !== null && broker.kamEmail.trim().toLowerCase() === user.email.trim().toLowerCase())
  );
}

const rowOf = (row: Awaited<ReturnType<typeof queries.findBrokerUser>> & object): BrokerUserRow => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
});

async function brokerOf(ctx: Pick<ServiceContext, 'db'>, brokerId: string) {
  const broker = await queries.findBroker(ctx.db, brokerId);
  if (!broker) throw new AppError('BROKER_NOT_FOUND');
  return broker;
}

/** Brokers → 'Portal': the broker's accounts, for any staff user; whether they may manage them. */
export async function list(ctx: ServiceContext, brokerId: string): Promise<BrokerUserList> {
  const broker = await brokerOf(ctx, brokerId);
  const rows = await queries.listBrokerUsers(ctx.db, brokerId);
  return { users: rows.map(rowOf), canManage: mayManage(ctx.user, broker) };
}

/**
 * Invites a person of the broker: the account (no password yet), its link's hash, and the e-mail in
 * the outbox, in one transaction. An address already used by a portal account is refused.
 */
export async function invite(
  ctx: ServiceContext,
  brokerId: string,
  body: BrokerUserInviteBody,
): Promise<BrokerUserRow> {
  const broker = await brokerOf(ctx, brokerId);
  if (!mayManage(ctx.user, broker)) throw new AppError('FORBIDDEN');
  if (await queries.emailTaken(ctx.db, body.email)) throw new AppError('BROKER_USER_EMAIL_TAKEN');
  const token = newToken();
  const expiresAt = new Date(ctx.now.getTime() + INVITATION_HOURS * 3_600_000);
  try {
    const row = await ctx.db.transaction(async (tx) => {
      const created = await queries.insertBrokerUser(tx, {
        brokerId,
        name: body.name,
        email: body.email,
        invitedBy: ctx.user.id,
      });
      await queries.insertToken(tx, {
        id: tokenHash(token),
        brokerUserId: created.id,
        purpose: 'invitation',
        expiresAt,
      });
      await mail.recordPortalInvitationIn(
        tx,
        {
          toAddress: body.email,
          name: body.name,
          brokerName: broker.name,
          path: `/portal/clave?token=${token}`,
          expiresAt,
        },
        ctx.now,
      );
      return created;
    });
    return rowOf(row);
  } catch (error) {
    if (isUniqueViolation(error, 'broker_users_email_key')) throw new AppError('BROKER_USER_EMAIL_TAKEN');
    throw error;
  }
}

/**
 * Deactivates or reactivates an account; deactivating ends its sessions in the same transaction
 * (the session look-up also refuses an inactive account: no request after the commit gets through).
 */
export async function setActive(
  ctx: ServiceContext,
  brokerId: string,
  id: string,
  isActive: boolean,
): Promise<BrokerUserRow> {
  const broker = await brokerOf(ctx, brokerId);
  if (!mayManage(ctx.user, broker)) throw new AppError('FORBIDDEN');
  const found = await queries.findBrokerUser(ctx.db, brokerId, id);
  if (!found) throw new AppError('BROKER_USER_NOT_FOUND');
  await ctx.db.transaction(async (tx) => {
    await queries.setBrokerUserActive(tx, id, isActive);
    if (!isActive) await queries.deleteSessionsOf(tx, id);
  });
  return rowOf({ ...found, isActive });
}

/**
 * The link's page: sets the password of the link's account and uses the link up, in one transaction;
 * a wrong, used or expired link (or a deactivated account) changes nothing. Earlier sessions end.
 */
export async function setPassword(
  db: Database,
  body: PortalPasswordBody,
  now: Date,
  requestId: string | null,
): Promise<void> {
  const passwordHash = await hashPassword(body.password);
  // The account is its own author here (the audit trail names it): the link names it first, then the
  // transaction uses the link up (a second request with the same link finds it used).
  const id = tokenHash(body.token);
  const named = await queries.findTokenUser(db, id);
  if (!named) throw new AppError('PORTAL_LINK_INVALID');
  await actingAs(db, { userId: named, requestId }).transaction(async (tx) => {
    if ((await queries.updateTokenUsed(tx, id, now)) !== named) throw new AppError('PORTAL_LINK_INVALID');
    await queries.setPasswordHash(tx, named, passwordHash);
    await queries.deleteSessionsOf(tx, named);
  });
}

export interface PortalSignIn {
  email: string;
  password: string;
}

/**
 * The portal's sign-in (/portal): the staff's rules — the same answer for an unknown e-mail, a wrong
 * password and a deactivated account, after the same work; the same throttle, under keys of its own;
 * the sign-in in the audit trail.
 */
export async function login(
  db: Database,
  settings: AuthSettings,
  throttle: LoginThrottleLimits,
  body: PortalSignIn,
  meta: { ip: string; userAgent: string | null; requestId: string | null; previousToken?: string; now: Date },
): Promise<{ token: string; user: PortalUser }> {
  const wait = await portalSignInThrottle.wait(db, throttle, body.email, meta.ip, meta.now);
  if (wait > 0) throw new PortalSignInThrottled(wait);
  const found = await queries.findLoginUser(db, body.email);
  const valid = await verifyPassword(found?.passwordHash ?? (await decoyPasswordHash()), body.password);
  if (!found?.passwordHash || !valid || !found.isActive) {
    await portalSignInThrottle.failed(db, throttle, body.email, meta.ip, meta.now);
    throw new AppError('INVALID_CREDENTIALS');
  }
  const token = newToken();
  const now = Date.now();
  const userAgent = meta.userAgent?.slice(0, 300) ?? null;
  await actingAs(db, { userId: found.id, requestId: meta.requestId }).transaction(async (tx) => {
    if (meta.previousToken) await queries.deleteSession(tx, tokenHash(meta.previousToken));
    await queries.insertSession(tx, {
      id: tokenHash(token),
      brokerUserId: found.id,
      brokerId: found.brokerId,
      expiresAt: new Date(now + settings.absoluteTimeoutMs),
      userAgent,
      ip: meta.ip,
    });
    await queries.deleteExpiredSessions(tx, new Date(now), new Date(now - settings.idleTimeoutMs));
    await portalSignInThrottle.succeededIn(tx, throttle, body.email, meta.ip, meta.now);
    await audit.recordSessionEventIn(tx, {
      action: 'sign_in',
      userId: found.id,
      ip: meta.ip,
      userAgent,
      table: 'broker_sessions',
    });
  });
  return { token, user: userOf(found) };
}

/** A portal sign-in refused before its password is checked: too many recent failures. */
export class PortalSignInThrottled extends AppError {
  constructor(readonly waitSeconds: number) {
    super('RATE_LIMITED');
  }
}

const userOf = (row: PortalUser): PortalUser => ({
  id: row.id,
  name: row.name,
  email: row.email,
  brokerId: row.brokerId,
  brokerName: row.brokerName,
});

export async function logout(db: Database, user: PortalUser, sessionId: string, requestId: string | null) {
  await actingAs(db, { userId: user.id, requestId }).transaction(async (tx) => {
    await queries.deleteSession(tx, sessionId);
    await audit.recordSessionEventIn(tx, {
      action: 'sign_out',
      userId: user.id,
      ip: null,
      userAgent: null,
      table: 'broker_sessions',
    });
  });
}

const TOUCH_INTERVAL_MS = 60_000;

/** The broker user behind a portal cookie, or null (unknown, expired, idle, deactivated). */
export async function resolveSession(
  db: Database,
  settings: AuthSettings,
  token: string,
): Promise<{ sessionId: string; user: PortalUser } | null> {
  const sessionId = tokenHash(token);
  const row = await queries.findSession(db, sessionId);
  if (!row) return null;
  const now = Date.now();
  const idle = now - row.lastSeenAt.getTime() > settings.idleTimeoutMs;
  if (idle || row.expiresAt.getTime() <= now || !row.isActive) {
    await queries.deleteSession(db, sessionId);
    return null;
  }
  if (now - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS)
    await queries.updateSessionSeenAt(db, sessionId, new Date(now));
  return { sessionId, user: userOf(row) };
}

/**
 * 'Mis operaciones' (issue 58): the session's broker's reservations — the broker comes from the
 * session, never from the request, so another broker's are out of reach.
 */
export function operations(
  db: Database,
  user: PortalUser,
  query: PortalOperationsQuery,
): Promise<PortalOperationsPage> {
  return queries.listOperations(db, user.brokerId, query.page, query.pageSize);
}
