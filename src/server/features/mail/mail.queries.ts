import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  MAIL_STATUSES,
  type MailKind,
  type MailListRow,
  type MailPreferences,
  type MailStatus,
  mailPreferences,
} from '../../../shared/schemas/mail';
import { textArrayParam, uuidArrayParam } from '../../db/arrays';
import { type Executor, isoInstant, queryRows } from '../../db/client';
import { type Page, selectPage } from '../../db/paging';

// Rows checked outside production (decisions 0036, 0067).
const idRow = z.object({ id: z.string() });
const nameRow = z.object({ id: z.string(), name: z.string() });
const contentRow = z.object({ id: z.string(), content: z.string() });
const statusRow = z.object({ status: z.enum(MAIL_STATUSES) });
const dayRow = z.object({ day: z.string() });
const holidayRow = z.object({ date: z.string(), name: z.string() });
const jobRow = z.object({ job: z.string() });
const countRow = z.object({ count: z.number().int() });

/**
 * The only SQL that writes the mail tables (decision 0035): the outbox (`mail_messages`), the users'
 * choices (`mail_preferences`), the holidays and the scheduled runs. Reads of what a message tells
 * join the flows, reservations and people they name.
 */

/** One notice as the outbox keeps it: what happened, not the text (composed when it is sent). */
export interface NoticeRow {
  /** assigned, approval, mention, rejected, paymentCompleted. */
  kind: string;
  userId: string | null;
  notice: Record<string, unknown>;
}

/** Which preference lets each kind of notice through (a row of mail_preferences; none: all of them). */
const PREFERENCE_OF_KIND = sql`coalesce(case v.kind when 'assigned' then p.assigned when 'approval' then p.approvals
  when 'mention' then p.mentions when 'rejected' then p.rejections end, true)`;

/** Kinds of notice that join the user's open group (the rest go as a message of their own). */
const GROUPED_KINDS: readonly string[] = ['assigned', 'rejected'];

/**
 * Writes notices into the outbox, in the caller's transaction (two statements): the ones the user
 * turned off are left out; approvals, mentions and the KAM's notice become a message of their own at
 * once (one per user and kind of this change); the rest join the user's open group, or open one that
 * goes `groupMinutes` after its first notice. A group that already holds `maxGroupNotices` goes at
 * once and the change opens the next one: a message stays readable, and adding to a group stays
 * cheap (the group is one row whose notices are rewritten with each one added: a bench user's group
 * of 1,650 notices cost each reservation created 7.5 ms). The group's row is locked by the upsert
 * until the caller commits, and the sender skips locked rows: a notice never misses the message it
 * joined.
 */
export async function insertNotices(
  tx: Executor,
  notices: readonly NoticeRow[],
  now: Date,
  groups: { minutes: number; maxNotices: number },
): Promise<void> {
  if (notices.length === 0) return;
  const json = JSON.stringify(notices.map((n) => ({ kind: n.kind, user_id: n.userId, notice: n.notice })));
  const at = now.toISOString();
  const later = new Date(now.getTime() + groups.minutes * 60_000).toISOString();
  const grouped = [
    ...new Set(notices.filter((n) => GROUPED_KINDS.includes(n.kind) && n.userId).map((n) => n.userId!)),
  ];
  if (grouped.length > 0) {
    await tx.execute(sql`
      update mail_messages
         set collecting = false, send_after = ${at}::timestamptz, next_attempt_at = ${at}::timestamptz,
             updated_at = ${at}::timestamptz
       where collecting and user_id = any(${uuidArrayParam(grouped)}) and notice_count >= ${groups.maxNotices}`);
  }
  await tx.execute(sql`
    with v as (
      select * from json_to_recordset(${json}::json) as v(kind text, user_id uuid, notice jsonb)
    ), kept as (
      select v.kind, v.user_id, v.notice
        from v left join mail_preferences p on p.user_id = v.user_id
       where ${PREFERENCE_OF_KIND}
    ), messages as (
      select case when kind = any(${textArrayParam(GROUPED_KINDS)}) then 'notices' else kind end as kind,
             user_id, jsonb_agg(notice) as notices, count(*)::int as n
        from kept
       group by 1, 2, case when kind = 'paymentCompleted' then notice->>'flowId' end
    )
    insert into mail_messages (kind, user_id, notices, notice_count, collecting, send_after, next_attempt_at,
                               created_at, updated_at)
    select m.kind, m.user_id, m.notices, m.n, m.kind = 'notices',
           case when m.kind = 'notices' then ${later}::timestamptz else ${at}::timestamptz end,
           case when m.kind = 'notices' then ${later}::timestamptz else ${at}::timestamptz end,
           ${at}::timestamptz, ${at}::timestamptz
      from messages m
    on conflict (user_id) where collecting
    do update set notices = mail_messages.notices || excluded.notices,
                  notice_count = mail_messages.notice_count + excluded.notice_count,
                  updated_at = excluded.updated_at`);
}

/** A message of its own for a user (the test message), due at once. */
export async function insertMessage(
  tx: Executor,
  values: { kind: MailKind; userId: string; notices: unknown[]; now: Date },
): Promise<string> {
  const at = values.now.toISOString();
  const [row] = await queryRows(
    tx,
    sql`insert into mail_messages (kind, user_id, notices, notice_count, send_after, next_attempt_at, created_at, updated_at)
        values (${values.kind}, ${values.userId}, ${JSON.stringify(values.notices)}::jsonb, ${values.notices.length},
                ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz)
        returning id`,
    idRow,
  );
  return row!.id;
}

// --- The sender ------------------------------------------------------------------------------------

export interface ClaimedMessage {
  id: string;
  kind: MailKind;
  userId: string | null;
  notices: Record<string, unknown>[];
  attempts: number;
  claimToken: string;
  /** An outside recipient's address, set when the message was written (a broker's contacts). */
  toAddress: string | null;
  /** The user's address and whether they are active (null: no user). */
  userEmail: string | null;
  userActive: boolean | null;
  userFirstName: string | null;
}

/** Messages to outside addresses, one each, due now (a broker's contacts told of its bank data). */
export async function insertOutsideMessages(
  tx: Executor,
  kind: MailKind,
  messages: readonly { toAddress: string; notice: Record<string, unknown> }[],
  now: Date,
): Promise<void> {
  if (messages.length === 0) return;
  const at = now.toISOString();
  const json = JSON.stringify(messages.map((m) => ({ to_address: m.toAddress, notice: m.notice })));
  await tx.execute(sql`
    insert into mail_messages (kind, to_address, notices, notice_count, send_after, next_attempt_at,
                               created_at, updated_at)
    select ${kind}, v.to_address, jsonb_build_array(v.notice), 1, ${at}::timestamptz, ${at}::timestamptz,
           ${at}::timestamptz, ${at}::timestamptz
      from json_to_recordset(${json}::json) as v(to_address text, notice jsonb)`);
}

/**
 * Claims up to `limit` due messages for one sender (FOR UPDATE SKIP LOCKED: two instances never take
 * one row), in a short transaction of its own: the lease (`next_attempt_at` moved `leaseSeconds` on)
 * keeps other senders off it while this one sends, outside any transaction. A grouped message stops
 * collecting: later notices open a new group.
 */
export async function claimDue(
  tx: Executor,
  values: { now: Date; limit: number; leaseSeconds: number; token: string },
): Promise<ClaimedMessage[]> {
  const at = values.now.toISOString();
  const lease = new Date(values.now.getTime() + values.leaseSeconds * 1000).toISOString();
  return queryRows<ClaimedMessage>(
    tx,
    sql`
      with due as (
        select id from mail_messages
         where status = 'pending' and next_attempt_at <= ${at}::timestamptz
         order by next_attempt_at, id
         limit ${values.limit}
           for update skip locked
      )
      update mail_messages m
         set next_attempt_at = ${lease}::timestamptz, claim_token = ${values.token}::uuid, collecting = false
        from due
       where m.id = due.id
      returning m.id, m.kind, m.user_id as "userId", m.notices, m.attempts, m.claim_token as "claimToken",
                m.to_address as "toAddress",
                (select p.email from profiles p where p.id = m.user_id) as "userEmail",
                (select p.is_active from profiles p where p.id = m.user_id) as "userActive",
                (select p.first_name from profiles p where p.id = m.user_id) as "userFirstName"`,
  );
}

/** Records a batch's deliveries in one statement (only the claim that took each message may). */
export async function updateSent(
  db: Executor,
  sent: readonly { id: string; token: string; toAddress: string; subject: string }[],
  now: Date,
): Promise<void> {
  if (sent.length === 0) return;
  const at = now.toISOString();
  await db.execute(sql`
    update mail_messages m
       set status = 'sent', sent_at = ${at}::timestamptz, to_address = v.to_address, subject = v.subject,
           attempts = m.attempts + 1, last_error = null, claim_token = null, updated_at = ${at}::timestamptz
      from json_to_recordset(${JSON.stringify(sent.map((row) => ({ id: row.id, token: row.token, to_address: row.toAddress, subject: row.subject })))}::json)
             as v(id uuid, token uuid, to_address text, subject text)
     where m.id = v.id and m.claim_token = v.token`);
}

/** Records a failed attempt: pending again at `retryAt`, or failed for good (`retryAt` null). */
export async function updateAttemptFailed(
  db: Executor,
  values: {
    id: string;
    token: string;
    error: string;
    retryAt: Date | null;
    toAddress: string | null;
    subject: string | null;
    now: Date;
  },
): Promise<void> {
  await db.execute(sql`
    update mail_messages
       set status = ${values.retryAt ? 'pending' : 'failed'},
           next_attempt_at = coalesce(${values.retryAt?.toISOString() ?? null}::timestamptz, next_attempt_at),
           attempts = attempts + 1, last_error = ${values.error}, claim_token = null,
           to_address = coalesce(${values.toAddress}, to_address), subject = coalesce(${values.subject}, subject),
           updated_at = ${values.now.toISOString()}::timestamptz
     where id = ${values.id} and claim_token = ${values.token}::uuid`);
}

/** Nobody to send it to (a deactivated user, no address): recorded as discarded, with why. */
export async function updateDiscarded(
  db: Executor,
  values: { id: string; token: string; reason: string; now: Date },
): Promise<void> {
  await db.execute(sql`
    update mail_messages
       set status = 'discarded', last_error = ${values.reason}, claim_token = null,
           updated_at = ${values.now.toISOString()}::timestamptz
     where id = ${values.id} and claim_token = ${values.token}::uuid`);
}

// --- What a message tells --------------------------------------------------------------------------

export interface TaskFacts {
  taskRowId: string;
  taskName: string;
  stageName: string;
  flowId: string;
  kind: 'sale' | 'payment';
  isSecondPayment: boolean;
  isApproval: boolean;
  reservationNumber: string;
  apartmentNumber: string;
  projectName: string;
  totalPrice: string;
  commissionAmount: string | null;
  brokerName: string | null;
  startedAt: string | null;
  daysToComplete: number | null;
}

/** The tasks the messages speak of, with their flow, reservation, project and amounts (one statement). */
export async function listTaskFacts(
  db: Executor,
  taskRowIds: readonly string[],
): Promise<Map<string, TaskFacts>> {
  if (taskRowIds.length === 0) return new Map();
  const ids = sql.join(
    [...new Set(taskRowIds)].map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = await queryRows<TaskFacts>(
    db,
    sql`select ft.id as "taskRowId", t.name as "taskName", s.name as "stageName", f.id as "flowId", f.kind,
               f.is_second_payment as "isSecondPayment", t.is_approval as "isApproval",
               r.reservation_number as "reservationNumber", r.apartment_number as "apartmentNumber",
               pr.name as "projectName", r.total_price::text as "totalPrice",
               c.commission_amount::text as "commissionAmount", b.name as "brokerName",
               ${isoInstant(sql`ft.started_at`)} as "startedAt", ft.days_to_complete as "daysToComplete"
          from flow_tasks ft
          join flows f on f.id = ft.flow_id
          join workflow_tasks t on t.id = ft.task_id
          join workflow_stages s on s.id = t.stage_id
          join reservations r on r.id = f.reservation_id
          join projects pr on pr.id = r.project_id
          left join broker_commissions c on c.reservation_id = r.id
          left join brokers b on b.id = c.broker_id
         where ft.id in (${ids})`,
  );
  return new Map(rows.map((row) => [row.taskRowId, row]));
}

export interface PaymentFlowFacts {
  flowId: string;
  isSecondPayment: boolean;
  kamName: string;
  kamEmail: string | null;
  brokerName: string;
  reservationNumber: string;
  apartmentNumber: string;
  projectName: string;
  commissionAmount: string;
  firstPaymentPercentage: number;
  numberOfPayments: number;
  completedAt: string | null;
}

/** A completed payment flow with its commission's broker and KAM. */
export async function findPaymentFlowFacts(db: Executor, flowId: string): Promise<PaymentFlowFacts | null> {
  const [row] = await queryRows<PaymentFlowFacts>(
    db,
    sql`select f.id as "flowId", f.is_second_payment as "isSecondPayment", b.kam_name as "kamName",
               b.kam_email as "kamEmail", b.name as "brokerName", r.reservation_number as "reservationNumber",
               r.apartment_number as "apartmentNumber", pr.name as "projectName",
               c.commission_amount::text as "commissionAmount", c.first_payment_percentage as "firstPaymentPercentage",
               c.number_of_payments as "numberOfPayments", ${isoInstant(sql`f.completed_at`)} as "completedAt"
          from flows f
          join broker_commissions c on c.id = f.broker_commission_id
          join brokers b on b.id = c.broker_id
          join reservations r on r.id = f.reservation_id
          join projects pr on pr.id = r.project_id
         where f.id = ${flowId}`,
  );
  return row ?? null;
}

/** People named by messages (who mentioned, who rejected). */
export async function listPeopleNamed(
  db: Executor,
  userIds: readonly string[],
): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const ids = sql.join(
    [...new Set(userIds)].map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = await queryRows(
    db,
    sql`select id, first_name || ' ' || last_name as name from profiles where id in (${ids})`,
    nameRow,
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** A comment's text (null once deleted). */
export async function listCommentContents(
  db: Executor,
  commentIds: readonly string[],
): Promise<Map<string, string>> {
  if (commentIds.length === 0) return new Map();
  const ids = sql.join(
    [...new Set(commentIds)].map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = await queryRows(
    db,
    sql`select id, content from flow_task_comments where id in (${ids})`,
    contentRow,
  );
  return new Map(rows.map((row) => [row.id, row.content]));
}

// --- Configuración → Correos ----------------------------------------------------------------------

/** A page of the outbox, newest first, optionally of one state (mail_messages_created_idx / _status_idx). */
export function listMessages(
  db: Executor,
  query: { status?: MailStatus; page: number; pageSize: number },
): Promise<Page<MailListRow>> {
  return selectPage<MailListRow>(db, {
    columns: {
      id: sql`m.id`,
      kind: sql`m.kind`,
      status: sql`m.status`,
      recipient: sql`coalesce(m.to_address, u.email)`,
      recipientName: sql`case when u.id is null then null else u.first_name || ' ' || u.last_name end`,
      subject: sql`m.subject`,
      noticeCount: sql`m.notice_count`,
      attempts: sql`m.attempts`,
      lastError: sql`m.last_error`,
      createdAt: isoInstant(sql`m.created_at`),
      sendAfter: isoInstant(sql`m.send_after`),
      sentAt: sql`case when m.sent_at is null then null else ${isoInstant(sql`m.sent_at`)} end`,
    } satisfies Record<keyof MailListRow, unknown>,
    from: sql`mail_messages m left join profiles u on u.id = m.user_id`,
    countFrom: sql`mail_messages m`,
    where: query.status ? sql`m.status = ${query.status}` : undefined,
    orderBy: [sql`m.created_at desc`, sql`m.id desc`],
    page: query.page,
    pageSize: query.pageSize,
  });
}

/** 'Reintentar': a failed (or still pending) message due again now, its attempts counted afresh. */
export async function updateMessageRetried(tx: Executor, id: string, now: Date): Promise<MailStatus | null> {
  const [row] = await queryRows(
    tx,
    sql`update mail_messages
           set status = 'pending', attempts = 0, next_attempt_at = ${now.toISOString()}::timestamptz,
               claim_token = null, collecting = false, updated_at = ${now.toISOString()}::timestamptz
         where id = ${id} and status in ('failed', 'pending')
        returning status`,
    statusRow,
  );
  if (row) return row.status;
  const [existing] = await queryRows(tx, sql`select status from mail_messages where id = ${id}`, statusRow);
  return existing?.status ?? null;
}

// --- Preferences ------------------------------------------------------------------------------------

export async function findPreferences(db: Executor, userId: string): Promise<MailPreferences> {
  const [row] = await queryRows(
    db,
    sql`select assigned, approvals, mentions, rejections, reminders, digest
          from mail_preferences where user_id = ${userId}`,
    mailPreferences,
  );
  return (
    row ?? {
      assigned: true,
      approvals: true,
      mentions: true,
      rejections: true,
      reminders: true,
      digest: true,
    }
  );
}

export async function upsertPreferences(
  tx: Executor,
  userId: string,
  values: MailPreferences,
): Promise<void> {
  await tx.execute(sql`
    insert into mail_preferences (user_id, assigned, approvals, mentions, rejections, reminders, digest, updated_at)
    values (${userId}, ${values.assigned}, ${values.approvals}, ${values.mentions}, ${values.rejections},
            ${values.reminders}, ${values.digest}, now())
    on conflict (user_id) do update
       set assigned = excluded.assigned, approvals = excluded.approvals, mentions = excluded.mentions,
           rejections = excluded.rejections, reminders = excluded.reminders, digest = excluded.digest,
           updated_at = now()`);
}

// --- Holidays and the daily jobs ------------------------------------------------------------------

export async function listHolidayDates(db: Executor, from: string, to: string): Promise<Set<string>> {
  const rows = await queryRows(
    db,
    sql`select day::text as day from holidays where day between ${from}::date and ${to}::date`,
    dayRow,
  );
  return new Set(rows.map((row) => row.day));
}

export function listHolidays(db: Executor, year: number): Promise<{ date: string; name: string }[]> {
  return queryRows(
    db,
    sql`select day::text as date, name from holidays
         where day between ${`${year}-01-01`}::date and ${`${year}-12-31`}::date order by day`,
    holidayRow,
  );
}

/** Adds a holiday; false when the day already is one. */
export async function insertHoliday(
  tx: Executor,
  values: { date: string; name: string; userId: string },
): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`insert into holidays (day, name, created_by) values (${values.date}::date, ${values.name}, ${values.userId})
        on conflict (day) do nothing returning day::text`,
    dayRow,
  );
  return rows.length > 0;
}

export async function deleteHoliday(tx: Executor, date: string): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`delete from holidays where day = ${date}::date returning day::text`,
    dayRow,
  );
  return rows.length > 0;
}

/** Claims a job's run of one day: true for the one caller (of every instance) that inserts it. */
export async function claimRun(tx: Executor, job: string, runDate: string, now: Date): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`insert into scheduled_runs (job, run_date, ran_at) values (${job}, ${runDate}::date, ${now.toISOString()}::timestamptz)
        on conflict do nothing returning job`,
    jobRow,
  );
  return rows.length > 0;
}

export async function updateRunMessages(tx: Executor, job: string, runDate: string, messages: number) {
  await tx.execute(
    sql`update scheduled_runs set messages = ${messages} where job = ${job} and run_date = ${runDate}::date`,
  );
}

/**
 * The day's digest and reminders, set-based: for every active user who wants them, one message
 * listing their overdue pending tasks (days on the Santiago calendar past the days to complete), and
 * one listing the tasks due after today up to `reminderThrough`. Answers how many messages.
 */
export async function insertDailyMessages(
  tx: Executor,
  values: { today: string; reminderThrough: string; now: Date },
): Promise<number> {
  const at = values.now.toISOString();
  const rows = await queryRows(
    tx,
    sql`
      with pending as (
        select p.user_id, p.flow_task_id as task_row_id,
               (santiago_date(p.started_at) + p.days_to_complete) as due_date
          from pending_task_assignments p
          join profiles u on u.id = p.user_id and u.is_active
         where p.started_at is not null and p.days_to_complete is not null
      ), digest as (
        select x.user_id, jsonb_agg(jsonb_build_object('taskRowId', x.task_row_id, 'dueDate', x.due_date::text)
                                    order by x.due_date, x.task_row_id) as notices, count(*)::int as n
          from pending x left join mail_preferences mp on mp.user_id = x.user_id
         where x.due_date < ${values.today}::date and coalesce(mp.digest, true)
         group by x.user_id
      ), reminder as (
        select x.user_id, jsonb_agg(jsonb_build_object('taskRowId', x.task_row_id, 'dueDate', x.due_date::text)
                                    order by x.due_date, x.task_row_id) as notices, count(*)::int as n
          from pending x left join mail_preferences mp on mp.user_id = x.user_id
         where x.due_date > ${values.today}::date and x.due_date <= ${values.reminderThrough}::date
           and coalesce(mp.reminders, true)
         group by x.user_id
      ), written as (
        insert into mail_messages (kind, user_id, notices, notice_count, send_after, next_attempt_at, created_at, updated_at)
        select 'digest', user_id, notices, n, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
          from digest
        union all
        select 'reminder', user_id, notices, n, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
          from reminder
        returning 1
      )
      select count(*)::int as count from written`,
    countRow,
  );
  return rows[0]?.count ?? 0;
}
