import type { z } from 'zod';
import { addDays, isBusinessDay, reminderWindow } from '../../../shared/domain/business-days';
import type { FlowNotice } from '../../../shared/domain/workflow/notices';
import { santiagoDateOf, santiagoWallClock } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import type {
  holidayBody,
  MailListRow,
  MailPreferences,
  MailStatus,
  mailListQuery,
} from '../../../shared/schemas/mail';
import type { ServiceContext } from '../../context';
import { asSystem } from '../../db/actor';
import type { Database, Executor } from '../../db/client';
import type { Page } from '../../db/paging';
import { AppError } from '../../http/app-error';
import * as queries from './mail.queries';

/**
 * E-mail notices (issue 34, decision 0035). The outbox is written in the transaction of the change
 * that causes a message (`recordFlowNoticesIn`, `recordMentionsIn`: the workflows service calls
 * them), so a change that rolls back leaves none; the sender (`mail-sender.ts`) delivers. Grouped
 * notices of one user go together within GROUP_MINUTES. Configuración → Correos (administrators):
 * the outbox, 'Reintentar', a test message to oneself, the holidays.
 */

/** The holidays between two days (the business-day calendar other features count on). */
export { listHolidayDates } from './mail.queries';

/** Assignments and rejections of one user within this many minutes go as one message... */
export const GROUP_MINUTES = 15;
/** ...of at most this many notices (a full group goes at once; decision 0035). */
export const MAX_GROUP_NOTICES = 50;
const GROUPS = { minutes: GROUP_MINUTES, maxNotices: MAX_GROUP_NOTICES };
/** The daily digest and the reminders: at this hour of Santiago, on business days. */
export const DIGEST_HOUR = 8;

/** A flow command's notices into the outbox, in the command's transaction. */
export async function recordFlowNoticesIn(
  tx: Executor,
  notices: readonly FlowNotice[],
  now: Date,
): Promise<void> {
  if (notices.length === 0) return;
  const at = now.toISOString();
  await queries.insertNotices(
    tx,
    notices.map((notice): queries.NoticeRow => {
      if (notice.kind === 'paymentCompleted') {
        return { kind: notice.kind, userId: null, notice: { kind: notice.kind, flowId: notice.flowId, at } };
      }
      return { kind: notice.kind, userId: notice.userId, notice: { ...notice, at } };
    }),
    now,
    GROUPS,
  );
}

/** A comment's mentions into the outbox (not the author's own), in the comment's transaction. */
export async function recordMentionsIn(
  tx: Executor,
  mention: { commentId: string; taskRowId: string; by: string; userIds: readonly string[] },
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  await queries.insertNotices(
    tx,
    [...new Set(mention.userIds)]
      .filter((userId) => userId !== mention.by)
      .map((userId) => ({
        kind: 'mention',
        userId,
        notice: {
          kind: 'mention',
          userId,
          commentId: mention.commentId,
          taskRowId: mention.taskRowId,
          by: mention.by,
          at,
        },
      })),
    now,
    GROUPS,
  );
}

/**
 * What a bank-data notice tells (issue 53): never more of the account than its last four digits. One
 * notice for every account that decides where money goes (decision 0077): a broker's, a promotion
 * payee's, an agency's — `payee` says which (absent in notices written before 0077: a broker's).
 */
export type BankAccountNotice = {
  action: 'changed' | 'verified' | 'removed';
  bankName: string | null;
  accountType: string | null;
  /** '···· 5678'. */
  accountEnding: string | null;
  byName: string;
} & (
  | { payee: 'broker'; brokerId: string; brokerName: string }
  | { payee: 'promotion'; reservationId: string; reservationNumber: string; beneficiary: string }
  | { payee: 'agency'; agencyName: string }
);

/** How a notice names the person who changed or verified an account. */
export function authorName(user: { firstName?: string; lastName?: string; email?: string }): string {
  const name = `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim();
  return name || user.email || 'Un usuario';
}

/**
 * An account that decides where money goes changed or verified: its people told by e-mail, in the
 * change's transaction (issue 53; decision 0077). Each address once.
 */
export async function recordBankAccountNoticesIn(
  tx: Executor,
  notice: BankAccountNotice,
  addresses: readonly (string | null)[],
  now: Date,
): Promise<void> {
  const to = [...new Set(addresses.map((a) => a?.trim().toLowerCase()).filter((a): a is string => !!a))];
  await queries.insertOutsideMessages(
    tx,
    'bankAccount',
    to.map((toAddress) => ({ toAddress, notice: { ...notice, at: now.toISOString() } })),
    now,
  );
}

/**
 * An invitation to the brokers' portal (issue 58), in the invitation's transaction: one message to the
 * invited address, due at once. It carries the link's path (the
 * app's address is added when it is sent); the token is kept elsewhere only as a hash.
 */
export async function recordPortalInvitationIn(
  tx: Executor,
  invitation: { toAddress: string; name: string; brokerName: string; path: string; expiresAt: Date },
  now: Date,
): Promise<void> {
  await queries.insertOutsideMessages(
    tx,
    'portalInvitation',
    [
      {
        toAddress: invitation.toAddress.trim().toLowerCase(),
        notice: {
          name: invitation.name,
          brokerName: invitation.brokerName,
          path: invitation.path,
          expiresAt: invitation.expiresAt.toISOString(),
        },
      },
    ],
    now,
  );
}

// --- Configuración → Correos ----------------------------------------------------------------------

function requireManager(ctx: Pick<ServiceContext, 'user'>) {
  if (!can(ctx.user, 'mail.manage')) throw new AppError('FORBIDDEN');
}

export async function list(
  ctx: ServiceContext,
  query: z.output<typeof mailListQuery>,
): Promise<Page<MailListRow>> {
  requireManager(ctx);
  return queries.listMessages(ctx.db, query);
}

/** 'Reintentar': a failed (or pending) message is due again now; a sent or discarded one is refused. */
export async function retry(ctx: ServiceContext, id: string): Promise<{ id: string; status: MailStatus }> {
  requireManager(ctx);
  const status = await ctx.db.transaction((tx) => queries.updateMessageRetried(tx, id, ctx.now));
  if (status === null) throw new AppError('MAIL_NOT_FOUND');
  if (status !== 'pending') throw new AppError('MAIL_ALREADY_SENT');
  return { id, status };
}

/** A test message to the administrator's own address, due at once. */
export async function sendTest(ctx: ServiceContext): Promise<{ id: string; to: string }> {
  requireManager(ctx);
  const id = await ctx.db.transaction((tx) =>
    queries.insertMessage(tx, {
      kind: 'test',
      userId: ctx.user.id,
      notices: [{ kind: 'test' }],
      now: ctx.now,
    }),
  );
  return { id, to: ctx.user.email };
}

// --- The user's own choices --------------------------------------------------------------------------

export function preferences(ctx: ServiceContext): Promise<MailPreferences> {
  return queries.findPreferences(ctx.db, ctx.user.id);
}

export async function updatePreferences(
  ctx: ServiceContext,
  values: MailPreferences,
): Promise<MailPreferences> {
  await ctx.db.transaction((tx) => queries.upsertPreferences(tx, ctx.user.id, values));
  return values;
}

// --- Holidays ----------------------------------------------------------------------------------------

export function listHolidays(ctx: ServiceContext, year: number) {
  return queries.listHolidays(ctx.db, year);
}

export async function addHoliday(ctx: ServiceContext, values: z.output<typeof holidayBody>) {
  requireManager(ctx);
  const added = await ctx.db.transaction((tx) =>
    queries.insertHoliday(tx, { date: values.date, name: values.name, userId: ctx.user.id }),
  );
  if (!added) throw new AppError('HOLIDAY_EXISTS');
  return { date: values.date, name: values.name };
}

export async function removeHoliday(ctx: ServiceContext, date: string): Promise<void> {
  requireManager(ctx);
  const removed = await ctx.db.transaction((tx) => queries.deleteHoliday(tx, date));
  if (!removed) throw new AppError('HOLIDAY_NOT_FOUND');
}

// --- The daily jobs ------------------------------------------------------------------------------------

export const DAILY_JOB = 'daily-mail';

/**
 * The digest of overdue tasks and the reminders of tomorrow's deadlines, once a day at DIGEST_HOUR
 * in Santiago on business days: the first instance to claim the day's run writes the messages, in the
 * claim's transaction (a crash leaves the day unclaimed, and the next tick runs it). Answers whether
 * this call ran it, and how many messages it wrote.
 */
export async function runDailyJobs(db: Database, now: Date): Promise<{ ran: boolean; messages: number }> {
  const today = santiagoDateOf(now);
  const hour = Number(santiagoWallClock(now).time.slice(0, 2));
  if (hour < DIGEST_HOUR) return { ran: false, messages: 0 };
  const holidays = await queries.listHolidayDates(db, today, addDays(today, 31));
  if (!isBusinessDay(today, holidays)) return { ran: false, messages: 0 };
  return asSystem(db, async (tx) => {
    if (!(await queries.claimRun(tx, DAILY_JOB, today, now))) return { ran: false, messages: 0 };
    const window = reminderWindow(today, holidays);
    const messages = await queries.insertDailyMessages(tx, { today, reminderThrough: window.through, now });
    await queries.updateRunMessages(tx, DAILY_JOB, today, messages);
    return { ran: true, messages };
  });
}

// The holders' rights on notices (decision 0055): the outbox and the .eml copies.
export { redactHolderMailIn, removeMailCopiesNaming, removeOldMailCopies } from './mail-privacy';
