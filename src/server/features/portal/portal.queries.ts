import { and, asc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { PortalOperationRow } from '../../../shared/schemas/portal';
import type { Executor } from '../../db/client';
import { selectPage } from '../../db/paging';
import { brokerSessions, brokers, brokerUsers, brokerUserTokens } from '../../db/schema';

/**
 * The only SQL that writes the portal's tables (decision 0069): its accounts, their single-use links
 * and their sessions. Reads of brokers only.
 */

export async function findBroker(db: Executor, id: string) {
  const [row] = await db
    .select({ id: brokers.id, name: brokers.name, kamEmail: brokers.kamEmail })
    .from(brokers)
    .where(eq(brokers.id, id))
    .limit(1);
  return row ?? null;
}

const userColumns = {
  id: brokerUsers.id,
  name: brokerUsers.name,
  email: brokerUsers.email,
  isActive: brokerUsers.isActive,
  isPending: sql<boolean>`${brokerUsers.passwordHash} is null`,
  createdAt: brokerUsers.createdAt,
};

/** A broker's accounts, by name (broker_users_broker_idx); a broker has a handful. */
export function listBrokerUsers(db: Executor, brokerId: string) {
  return db
    .select(userColumns)
    .from(brokerUsers)
    .where(eq(brokerUsers.brokerId, brokerId))
    .orderBy(asc(brokerUsers.name), asc(brokerUsers.id))
    .limit(200);
}

export async function findBrokerUser(db: Executor, brokerId: string, id: string) {
  const [row] = await db
    .select(userColumns)
    .from(brokerUsers)
    .where(and(eq(brokerUsers.brokerId, brokerId), eq(brokerUsers.id, id)))
    .limit(1);
  return row ?? null;
}

export async function insertBrokerUser(
  tx: Executor,
  values: { brokerId: string; name: string; email: string; invitedBy: string },
) {
  const [row] = await tx.insert(brokerUsers).values(values).returning(userColumns);
  return row!;
}

export async function setBrokerUserActive(tx: Executor, id: string, isActive: boolean): Promise<void> {
  await tx
    .update(brokerUsers)
    .set({ isActive, updatedAt: sql`now()`, version: sql`${brokerUsers.version} + 1` })
    .where(eq(brokerUsers.id, id));
}

export async function setPasswordHash(tx: Executor, id: string, passwordHash: string): Promise<void> {
  await tx
    .update(brokerUsers)
    .set({ passwordHash, updatedAt: sql`now()`, version: sql`${brokerUsers.version} + 1` })
    .where(eq(brokerUsers.id, id));
}

export async function insertToken(
  tx: Executor,
  values: { id: string; brokerUserId: string; purpose: 'invitation' | 'reset'; expiresAt: Date },
): Promise<void> {
  await tx.insert(brokerUserTokens).values(values);
}

/** Earlier links of the account stop working when a new one is sent. */
export async function expireTokensOf(tx: Executor, brokerUserId: string, now: Date): Promise<void> {
  await tx
    .update(brokerUserTokens)
    .set({ usedAt: now })
    .where(and(eq(brokerUserTokens.brokerUserId, brokerUserId), isNull(brokerUserTokens.usedAt)));
}

/**
 * Uses a link once: marks it used and answers its account, when it exists, is unused, has not
 * expired and its account is active; else null. One statement: two requests with one link never
 * both get it.
 */
export async function updateTokenUsed(tx: Executor, id: string, now: Date): Promise<string | null> {
  const [row] = await tx
    .update(brokerUserTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(brokerUserTokens.id, id),
        isNull(brokerUserTokens.usedAt),
        gt(brokerUserTokens.expiresAt, now),
        sql`exists (select 1 from ${brokerUsers} u where u.id = ${brokerUserTokens.brokerUserId} and u.is_active)`,
      ),
    )
    .returning({ brokerUserId: brokerUserTokens.brokerUserId });
  return row?.brokerUserId ?? null;
}

/** The account a link names (used or not: `consumeToken` decides). */
export async function findTokenUser(db: Executor, id: string): Promise<string | null> {
  const [row] = await db
    .select({ brokerUserId: brokerUserTokens.brokerUserId })
    .from(brokerUserTokens)
    .where(eq(brokerUserTokens.id, id))
    .limit(1);
  return row?.brokerUserId ?? null;
}

const sessionUserColumns = {
  id: brokerUsers.id,
  name: brokerUsers.name,
  email: brokerUsers.email,
  brokerId: brokerUsers.brokerId,
  brokerName: brokers.name,
};

export async function findLoginUser(db: Executor, email: string) {
  const [row] = await db
    .select({ ...sessionUserColumns, passwordHash: brokerUsers.passwordHash, isActive: brokerUsers.isActive })
    .from(brokerUsers)
    .innerJoin(brokers, eq(brokers.id, brokerUsers.brokerId))
    .where(eq(sql`lower(${brokerUsers.email})`, email.toLowerCase()))
    .limit(1);
  return row ?? null;
}

export async function emailTaken(db: Executor, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: brokerUsers.id })
    .from(brokerUsers)
    .where(eq(sql`lower(${brokerUsers.email})`, email.toLowerCase()))
    .limit(1);
  return row !== undefined;
}

export async function insertSession(
  tx: Executor,
  values: {
    id: string;
    brokerUserId: string;
    brokerId: string;
    expiresAt: Date;
    userAgent: string | null;
    ip: string | null;
  },
): Promise<void> {
  await tx.insert(brokerSessions).values(values);
}

export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.delete(brokerSessions).where(eq(brokerSessions.id, id));
}

export async function deleteSessionsOf(tx: Executor, brokerUserId: string): Promise<void> {
  await tx.delete(brokerSessions).where(eq(brokerSessions.brokerUserId, brokerUserId));
}

/**
 * The session with its account, when the account is active and still of the session's broker; one
 * indexed look-up (primary key, then two primary keys).
 */
export async function findSession(db: Executor, id: string) {
  const [row] = await db
    .select({
      lastSeenAt: brokerSessions.lastSeenAt,
      expiresAt: brokerSessions.expiresAt,
      isActive: brokerUsers.isActive,
      ...sessionUserColumns,
    })
    .from(brokerSessions)
    .innerJoin(
      brokerUsers,
      and(eq(brokerUsers.id, brokerSessions.brokerUserId), eq(brokerUsers.brokerId, brokerSessions.brokerId)),
    )
    .innerJoin(brokers, eq(brokers.id, brokerSessions.brokerId))
    .where(eq(brokerSessions.id, id))
    .limit(1);
  return row ?? null;
}

export async function updateSessionSeenAt(db: Executor, id: string, now: Date): Promise<void> {
  await db.update(brokerSessions).set({ lastSeenAt: now }).where(eq(brokerSessions.id, id));
}

export async function deleteExpiredSessions(tx: Executor, now: Date, idleSince: Date): Promise<void> {
  await tx
    .delete(brokerSessions)
    .where(or(lt(brokerSessions.expiresAt, now), lt(brokerSessions.lastSeenAt, idleSince)));
}

/**
 * 'Mis operaciones': a page of one broker's reservations, newest first (reservations_broker_portal_idx),
 * with the sale's stage in words and the buyer's name only (decision 0070). One statement.
 */
export function listOperations(db: Executor, brokerId: string, page: number, pageSize: number) {
  return selectPage<PortalOperationRow>(db, {
    columns: {
      reservationNumber: sql`r.reservation_number`,
      projectName: sql`p.name`,
      apartmentNumber: sql`r.apartment_number`,
      reservationDate: sql`r.reservation_date::text`,
      // Keyed by data (decision 0068): a rescinded sale, a completed flow or a stage whose units show
      // 'Escriturada' are said so; otherwise the current stage's own name (Reserva, Promesa, Escrituración).
      stage: sql`case when r.is_rescinded then 'Resciliada'
                      when f.status = 'completed' or s.unit_status = 'Escriturada' then 'Escriturada'
                      else coalesce(s.name, 'Reserva') end`,
      buyerName: sql`trim(c.first_name || ' ' || c.last_name)`,
    },
    from: sql`reservations r
      join projects p on p.id = r.project_id
      join clients c on c.id = r.client_id
      left join flows f on f.reservation_id = r.id and f.kind = 'sale'
      left join workflow_stages s on s.id = f.current_stage_id`,
    countFrom: sql`reservations r`,
    where: sql`r.broker_id = ${brokerId}`,
    orderBy: [sql`r.reservation_date desc`, sql`r.id desc`],
    page,
    pageSize,
  });
}
