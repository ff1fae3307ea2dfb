import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { actionsOf, type Grants, isAdministratorType, NO_GRANTS } from '../../../shared/permissions';
import type { LoginBody, RegisterBody, SessionUser } from '../../../shared/schemas/auth';
import { actingAs } from '../../db/actor';
import type { Database, Executor } from '../../db/client';
import type { EventBus } from '../../events/event-bus';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as audit from '../audit/audit.service';
import * as queries from './auth.queries';
import {
  type FailureCounter,
  failureRetentionMs,
  type LoginThrottleLimits,
  loginCounters,
  registrationCounter,
  waitSeconds,
} from './login-throttle';
import { decoyPasswordHash, hashPassword, verifyPassword } from './passwords';

export interface AuthSettings {
  registration: 'open' | 'first-user' | 'closed';
  idleTimeoutMs: number;
  absoluteTimeoutMs: number;
}

export interface ClientMeta {
  userAgent: string | null;
  ip: string | null;
  /** The HTTP request, named in the audit trail. */
  requestId?: string | null;
}

/** The session id stored in the database: the SHA-256 of the cookie token, never the token. */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The session's user, carrying the actions its type holds under the office's grants (decision 0061). */
export function toSessionUser(profile: queries.SessionProfile, grants: Grants = NO_GRANTS): SessionUser {
  return {
    id: profile.id,
    email: profile.email,
    firstName: profile.firstName,
    lastName: profile.lastName,
    position: profile.position,
    userType: profile.userType as SessionUser['userType'],
    isSeller: profile.isSeller,
    avatarUrl: profile.avatarUrl,
    actions: actionsOf(profile.userType, grants),
  };
}

const ADMIN_ROLE = { name: 'admin', description: 'Administrador del sistema con acceso total' };

export { type LoginThrottleLimits, loginThrottleLimits } from './login-throttle';
export { decoyPasswordHash, hashPassword, verifyPassword } from './passwords';

/**
 * Keeps the admin role entry in step with the user type (spec part 2 §6: an Administrador has the
 * role `admin`), inside the caller's transaction; the role is created when it does not exist yet.
 */
export async function syncAdminRoleIn(tx: Executor, userId: string, userType: string): Promise<void> {
  if (isAdministratorType(userType)) {
    await queries.insertUserRole(
      tx,
      userId,
      await queries.upsertAdminRole(tx, ADMIN_ROLE.name, ADMIN_ROLE.description),
    );
  } else {
    await queries.deleteUserRoleNamed(tx, userId, ADMIN_ROLE.name);
  }
}

/**
 * Ends every session of a user at once (deactivation, a new password), in the caller's transaction;
 * `exceptSessionId` keeps the browser that asked (an administrator setting their own password).
 * After the commit the caller publishes `sessions-ended` with the same user and exception: the
 * sessions' open event streams end, on every instance.
 */
export function endSessionsIn(tx: Executor, userId: string, exceptSessionId?: string): Promise<void> {
  return queries.deleteSessionsOf(tx, userId, exceptSessionId);
}

/**
 * Self-registration (spec part 1 §4): the profile is created with user_type Administrador;
 * when the roles table is empty, the first registration creates the role `admin` and assigns it.
 * One transaction: a failure leaves no profile and no role behind.
 */
export async function register(
  db: Database,
  settings: AuthSettings,
  body: RegisterBody,
  requestId: string | null = null,
  grants: Grants = NO_GRANTS,
): Promise<SessionUser> {
  if (settings.registration === 'closed') throw new AppError('REGISTRATION_CLOSED');
  if (await queries.emailExists(db, body.email)) {
    throw new AppError('EMAIL_TAKEN', { fields: { email: 'Este correo electrónico ya está registrado' } });
  }
  const passwordHash = await hashPassword(body.password);
  // The new user is the author of their own account in the audit trail.
  const id = randomUUID();
  try {
    const profile = await actingAs(db, { userId: id, requestId }).transaction(async (tx) => {
      await queries.lockRoles(tx);
      if (settings.registration === 'first-user' && (await queries.countProfiles(tx)) > 0) {
        throw new AppError('REGISTRATION_CLOSED');
      }
      const created = await queries.insertProfile(tx, {
        id,
        email: body.email,
        passwordHash,
        firstName: body.firstName,
        lastName: body.lastName,
        position: body.position,
        userType: 'Administrador',
      });
      if ((await queries.countRoles(tx)) === 0) {
        const roleId = await queries.insertRole(tx, ADMIN_ROLE.name, ADMIN_ROLE.description);
        await queries.insertUserRole(tx, created.id, roleId);
      }
      return created;
    });
    return toSessionUser(profile, grants);
  } catch (error) {
    if (isUniqueViolation(error, 'profiles_email_key')) throw new AppError('EMAIL_TAKEN');
    throw error;
  }
}

/** Whether a self-registration would be accepted now (`first-user`: only while nobody has an account). */
export async function registrationIsOpen(db: Database, settings: AuthSettings): Promise<boolean> {
  if (settings.registration === 'open') return true;
  if (settings.registration === 'closed') return false;
  return (await queries.countProfiles(db)) === 0;
}

/**
 * Counts a self-registration attempt from `address` toward its hourly budget, or refuses it with
 * `RegistrationThrottled` when the budget is spent. In the database (login-throttle.ts), so two
 * instances behind a load balancer share one budget.
 */
export async function admitRegistration(
  db: Database,
  throttle: LoginThrottleLimits,
  maxPerHour: number,
  address: string,
  now: Date,
): Promise<void> {
  const counter = registrationCounter(maxPerHour, address);
  const wait = await throttleWait(db, [counter], now);
  if (wait > 0) throw new RegistrationThrottled(wait);
  await queries.insertLoginFailures(
    db,
    [counter.key],
    now.toISOString(),
    new Date(now.getTime() - failureRetentionMs(throttle)).toISOString(),
  );
}

/** A self-registration refused: too many from this address within the hour. */
export class RegistrationThrottled extends AppError {
  constructor(readonly waitSeconds: number) {
    super('REGISTRATION_THROTTLED');
  }
}

/** A sign-in refused before its password is checked: too many recent failures (login-throttle.ts). */
export class LoginThrottled extends AppError {
  constructor(readonly waitSeconds: number) {
    super('RATE_LIMITED');
  }
}

/**
 * Password sign-in. An unknown e-mail, a wrong password and a deactivated account get the same
 * answer after the same work. A new random token replaces the browser's previous session.
 * Throttled (login-throttle.ts): an attempt whose counters are full is refused with `LoginThrottled`
 * before its password is checked; a refused password counts toward them, a success clears its own
 * e-mail + client count. The counts are in the database, on the app's clock (`meta.now`).
 */
export async function login(
  db: Database,
  settings: AuthSettings,
  throttle: LoginThrottleLimits,
  body: LoginBody,
  meta: ClientMeta & { previousToken?: string | undefined; now: Date; grants?: Grants },
): Promise<{ token: string; user: SessionUser; expiresAt: Date }> {
  const counters = loginCounters(throttle, body.email, meta.ip ?? '');
  const expiredBefore = new Date(meta.now.getTime() - failureRetentionMs(throttle)).toISOString();
  const wait = await throttleWait(db, Object.values(counters), meta.now);
  if (wait > 0) throw new LoginThrottled(wait);

  const profile = await queries.findLoginProfile(db, body.email);
  const valid = await verifyPassword(profile?.passwordHash ?? (await decoyPasswordHash()), body.password);
  if (!profile || !valid || !profile.isActive) {
    await queries.insertLoginFailures(
      db,
      Object.values(counters).map((counter) => counter.key),
      meta.now.toISOString(),
      expiredBefore,
    );
    throw new AppError('INVALID_CREDENTIALS');
  }

  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  const expiresAt = new Date(now + settings.absoluteTimeoutMs);
  const userAgent = meta.userAgent?.slice(0, 300) ?? null;
  await actingAs(db, { userId: profile.id, requestId: meta.requestId }).transaction(async (tx) => {
    if (meta.previousToken) await queries.deleteSession(tx, sessionIdOf(meta.previousToken));
    await queries.insertSession(tx, {
      id: sessionIdOf(token),
      userId: profile.id,
      expiresAt,
      userAgent,
      ip: meta.ip,
    });
    // Housekeeping rides on sign-ins: expired rows never pile up.
    await queries.deleteExpiredSessions(tx, new Date(now), new Date(now - settings.idleTimeoutMs));
    await queries.deleteLoginFailures(tx, counters.client.key, expiredBefore);
    await audit.recordSessionEventIn(tx, { action: 'sign_in', userId: profile.id, ip: meta.ip, userAgent });
  });
  return { token, user: toSessionUser(profile, meta.grants), expiresAt };
}

/**
 * The staff sign-in's throttle lent to the brokers' portal (issue 58: "the same throttling"): the
 * same counters, windows and table, under keys of the portal's own (`portal:` before the e-mail), so
 * a portal account and a staff account of one address never share a count.
 */
export const portalSignInThrottle = {
  /** Seconds the attempt must wait (0: it may go ahead). */
  wait(db: Database, throttle: LoginThrottleLimits, email: string, ip: string, now: Date): Promise<number> {
    return throttleWait(db, Object.values(loginCounters(throttle, `portal:${email}`, ip)), now);
  },
  /** A refused password counts toward every counter. */
  async failed(db: Database, throttle: LoginThrottleLimits, email: string, ip: string, now: Date) {
    await queries.insertLoginFailures(
      db,
      Object.values(loginCounters(throttle, `portal:${email}`, ip)).map((counter) => counter.key),
      now.toISOString(),
      new Date(now.getTime() - failureRetentionMs(throttle)).toISOString(),
    );
  },
  /** A success clears its own e-mail + client count, in the sign-in's transaction. */
  succeededIn(tx: Executor, throttle: LoginThrottleLimits, email: string, ip: string, now: Date) {
    return queries.deleteLoginFailures(
      tx,
      loginCounters(throttle, `portal:${email}`, ip).client.key,
      new Date(now.getTime() - failureRetentionMs(throttle)).toISOString(),
    );
  },
};

/** Seconds an attempt must wait: the longest wait of its counters (0: it may go ahead). */
async function throttleWait(db: Database, counters: FailureCounter[], now: Date): Promise<number> {
  const limiting = await queries.findLimitingFailures(
    db,
    counters.map(({ key, max, windowMs }) => ({
      key,
      max,
      since: new Date(now.getTime() - windowMs).toISOString(),
    })),
  );
  return Math.max(
    0,
    ...counters.map((counter, index) => {
      const failedAt = limiting[index];
      return waitSeconds(failedAt ? new Date(failedAt) : null, counter.windowMs, now);
    }),
  );
}

/**
 * Sign-out: the session ends and the audit trail says so, in one transaction; then the session's
 * open event streams end (the user's other sessions keep theirs).
 */
export async function logout(
  db: Database,
  events: EventBus,
  user: SessionUser,
  sessionId: string,
  requestId: string | null = null,
): Promise<void> {
  await actingAs(db, { userId: user.id, requestId }).transaction(async (tx) => {
    await queries.deleteSession(tx, sessionId);
    await audit.recordSessionEventIn(tx, { action: 'sign_out', userId: user.id, ip: null, userAgent: null });
  });
  events.publish({ type: 'sessions-ended', userId: user.id, sessionId });
}

/**
 * Whether a session (its row's id) still exists for an active user: an event stream looks once it
 * listens, for an end it could not hear. Expiry is left to the session hook and the stream's lifetime.
 */
export async function sessionIsLive(db: Database, sessionId: string): Promise<boolean> {
  const row = await queries.findSession(db, sessionId);
  return row?.isActive === true;
}

// Writing last_seen_at on every request would turn every read into a write; once a minute is enough
// for an idle timeout counted in hours.
const TOUCH_INTERVAL_MS = 60_000;

/** The user behind a cookie token, or null when the session is unknown, expired, idle or disabled. */
export async function resolveSession(
  db: Database,
  settings: AuthSettings,
  token: string,
  grants: Grants = NO_GRANTS,
): Promise<{ sessionId: string; user: SessionUser } | null> {
  const sessionId = sessionIdOf(token);
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
  return { sessionId, user: toSessionUser(row, grants) };
}

// --- Staff accounts: the one writer of profiles (decision 0056); Configuración → Usuarios calls these.

/** Inside the caller's transaction: a new staff account; answers its id. */
export const createProfileIn = (tx: Executor, values: queries.NewProfile) =>
  queries.insertStaffProfile(tx, values);

/** Inside the caller's transaction: a profile's fields at the version read; false when stale. */
export const updateProfileIn = (
  tx: Executor,
  id: string,
  version: number,
  values: Parameters<typeof queries.updateProfile>[3],
) => queries.updateProfile(tx, id, version, values);

export const setProfileActiveIn = (tx: Executor, id: string, isActive: boolean) =>
  queries.setUserActive(tx, id, isActive);

export const setPasswordHashIn = (tx: Executor, id: string, passwordHash: string) =>
  queries.setPasswordHash(tx, id, passwordHash);

export const setAvatarUrlIn = (tx: Executor, id: string, avatarUrl: string | null) =>
  queries.setAvatarUrl(tx, id, avatarUrl);
