import { and, count, eq, lt, ne, or, sql } from 'drizzle-orm';
import type { UserUpdateValues } from '../../../shared/schemas/settings';
import { type Executor, isoInstant, queryRows } from '../../db/client';
import { loginFailures, profiles, roles, sessions, userRoles } from '../../db/schema';

/** The profile columns a session carries (never the password hash). */
const sessionProfileColumns = {
  id: profiles.id,
  email: profiles.email,
  firstName: profiles.firstName,
  lastName: profiles.lastName,
  position: profiles.position,
  userType: profiles.userType,
  isSeller: profiles.isSeller,
  avatarUrl: profiles.avatarUrl,
};

export type SessionProfile = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  position: string;
  userType: string;
  isSeller: boolean;
  avatarUrl: string | null;
};

export async function findLoginProfile(db: Executor, email: string) {
  const [row] = await db
    .select({ ...sessionProfileColumns, passwordHash: profiles.passwordHash, isActive: profiles.isActive })
    .from(profiles)
    .where(eq(sql`lower(${profiles.email})`, email.toLowerCase()))
    .limit(1);
  return row ?? null;
}

export async function emailExists(db: Executor, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(sql`lower(${profiles.email})`, email.toLowerCase()))
    .limit(1);
  return row !== undefined;
}

export async function countProfiles(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(profiles);
  return row?.n ?? 0;
}

export async function insertProfile(
  db: Executor,
  values: {
    id?: string;
    email: string;
    passwordHash: string;
    firstName: string;
    lastName: string;
    position: string;
    userType: string;
  },
): Promise<SessionProfile> {
  const [row] = await db.insert(profiles).values(values).returning(sessionProfileColumns);
  return row!;
}

/** Serialises concurrent first registrations, so exactly one of them creates the admin role. */
export async function lockRoles(db: Executor): Promise<void> {
  await db.execute(sql`lock table ${roles} in share row exclusive mode`);
}

export async function countRoles(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(roles);
  return row?.n ?? 0;
}

export async function insertRole(db: Executor, name: string, description: string): Promise<string> {
  const [row] = await db.insert(roles).values({ name, description }).returning({ id: roles.id });
  return row!.id;
}

export async function insertSession(
  db: Executor,
  values: { id: string; userId: string; expiresAt: Date; userAgent: string | null; ip: string | null },
): Promise<void> {
  await db.insert(sessions).values(values);
}

export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
}

/** The live session with its active user's profile, or null. */
export async function findSession(db: Executor, id: string) {
  const [row] = await db
    .select({
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      isActive: profiles.isActive,
      ...sessionProfileColumns,
    })
    .from(sessions)
    .innerJoin(profiles, eq(profiles.id, sessions.userId))
    .where(eq(sessions.id, id))
    .limit(1);
  return row ?? null;
}

export async function updateSessionSeenAt(db: Executor, id: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
}

/** Removes sessions past their absolute or idle limit (housekeeping; never needed for correctness). */
export async function deleteExpiredSessions(db: Executor, now: Date, idleSince: Date): Promise<void> {
  await db.delete(sessions).where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, idleSince)));
}

/** The admin role's id, creating the role when it does not exist yet. */
export async function upsertAdminRole(db: Executor, name: string, description: string): Promise<string> {
  await db.insert(roles).values({ name, description }).onConflictDoNothing();
  const [row] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, name));
  return row!.id;
}

/** Gives the user the role (nothing when they hold it already). */
export async function insertUserRole(db: Executor, userId: string, roleId: string): Promise<void> {
  await db.insert(userRoles).values({ userId, roleId }).onConflictDoNothing();
}

export async function deleteUserRoleNamed(db: Executor, userId: string, name: string): Promise<void> {
  await db
    .delete(userRoles)
    .where(
      and(
        eq(userRoles.userId, userId),
        sql`${userRoles.roleId} in (select id from ${roles} where name = ${name})`,
      ),
    );
}

export async function deleteSessionsOf(
  db: Executor,
  userId: string,
  exceptSessionId?: string,
): Promise<void> {
  await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined));
}

/**
 * For each counter, its `max`-th most recent failure since `since` (ISO instants), or null when it
 * holds fewer: one statement, an index range per counter (login_failures_key_idx), in the given order.
 */
export async function findLimitingFailures(
  db: Executor,
  counters: readonly { key: string; max: number; since: string }[],
): Promise<(string | null)[]> {
  const rows = await queryRows<{ n: number; failedAt: string | null }>(
    db,
    sql.join(
      counters.map(
        ({ key, max, since }, n) => sql`select ${n}::int as n, (
          select ${isoInstant(loginFailures.failedAt)} from ${loginFailures}
           where ${loginFailures.key} = ${key} and ${loginFailures.failedAt} > ${since}::timestamptz
           order by ${loginFailures.failedAt} desc offset ${max - 1} limit 1) as "failedAt"`,
      ),
      sql` union all `,
    ),
  );
  const byCounter = new Map(rows.map((row) => [row.n, row.failedAt]));
  return counters.map((_, n) => byCounter.get(n) ?? null);
}

/** Records one failure under each key at `at`, and deletes every failure before `expiredBefore`. */
export async function insertLoginFailures(
  db: Executor,
  keys: readonly string[],
  at: string,
  expiredBefore: string,
): Promise<void> {
  await db.execute(sql`
    with expired as (delete from ${loginFailures} where ${loginFailures.failedAt} < ${expiredBefore}::timestamptz)
    insert into ${loginFailures} (key, failed_at)
    values ${sql.join(
      keys.map((key) => sql`(${key}, ${at}::timestamptz)`),
      sql`, `,
    )}`);
}

/** Deletes a key's failures (a success clears its own), and every failure before `expiredBefore`. */
export async function deleteLoginFailures(db: Executor, key: string, expiredBefore: string): Promise<void> {
  await db.execute(
    sql`delete from ${loginFailures}
         where ${loginFailures.key} = ${key} or ${loginFailures.failedAt} < ${expiredBefore}::timestamptz`,
  );
}

// --- Staff accounts, written for Configuración → Usuarios (settings calls the service) ----------------

export interface NewProfile {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  position: string;
  userType: string;
  isSeller: boolean;
}

/** A staff account made in Configuración → Usuarios (or `npm run user:create`). */
export async function insertStaffProfile(db: Executor, values: NewProfile): Promise<string> {
  const [row] = await db.insert(profiles).values(values).returning({ id: profiles.id });
  return row!.id;
}

const bumped = () => ({ updatedAt: sql`now()`, version: sql`${profiles.version} + 1` });

/** Optimistic update: false when the row is no longer at `version`. */
export async function updateProfile(
  db: Executor,
  id: string,
  version: number,
  values: Omit<UserUpdateValues, 'version'>,
): Promise<boolean> {
  const rows = await db
    .update(profiles)
    .set({ ...values, ...bumped() })
    .where(and(eq(profiles.id, id), eq(profiles.version, version)))
    .returning({ id: profiles.id });
  return rows.length > 0;
}

export async function setUserActive(db: Executor, id: string, isActive: boolean): Promise<void> {
  await db
    .update(profiles)
    .set({ isActive, ...bumped() })
    .where(eq(profiles.id, id));
}

export async function setPasswordHash(db: Executor, id: string, passwordHash: string): Promise<void> {
  await db
    .update(profiles)
    .set({ passwordHash, ...bumped() })
    .where(eq(profiles.id, id));
}

export async function setAvatarUrl(db: Executor, id: string, avatarUrl: string | null): Promise<void> {
  await db
    .update(profiles)
    .set({ avatarUrl, ...bumped() })
    .where(eq(profiles.id, id));
}
