import { daysLate, santiagoDaysBetween } from '../../../shared/domain/workflow/days';
import { can } from '../../../shared/permissions';
import { allow } from '../../../shared/policies';
import {
  encodeInboxCursor,
  type FollowUpQuery,
  INBOX_COUNT_CAP,
  INBOX_FIRST_PAGE_SIZE,
  INBOX_PAGE_SIZE,
  type InboxGroup,
  type InboxResponse,
  type MentionReadResponse,
  type MentionStatus,
  type MentionsReadAllResponse,
  type MentionsResponse,
  type NotificationCount,
  type NotificationsQuery,
} from '../../../shared/schemas/notifications';
import type { ServiceContext } from '../../context';
import { AppError } from '../../http/app-error';
import * as dataRequests from '../data-requests/data-requests.service';
import * as workflows from '../workflows/workflows.service';
import * as queries from './notifications.queries';

type ParsedPage = Pick<NotificationsQuery, 'stage'> & {
  after?: Parameters<typeof queries.selectInboxPage>[2]['after'];
};

/**
 * The bell badge: the length of the signed-in user's notification list (workflows.md §6) — their
 * pending tasks, their unread mentions (decision 0030) and, for an administrator, the holders'
 * requests past their due date — in all and by part.
 */
export async function counts(ctx: ServiceContext): Promise<NotificationCount> {
  const { tasks, mentions } = await workflows.countPendingTasksAndMentions(ctx.db, ctx.user.id);
  const overdue = await dataRequests.overdueCount(ctx);
  return { count: tasks + mentions + overdue, tasks, mentions, dataRequests: overdue };
}

// --- Mentions (decision 0030) -----------------------------------------------------------------------

/**
 * /notificaciones 'Menciones': the signed-in user's own mentions, newest first, every one or the
 * unread only — one page, one statement. Only ever the user's own: nobody reads another's.
 */
export function listMentions(
  ctx: ServiceContext,
  query: { status: MentionStatus; page: number; pageSize: number },
): Promise<MentionsResponse> {
  return queries.selectMentionPage(ctx.db, ctx.user.id, query);
}

/**
 * 'Marcar como leída' (or the mention's link followed): only the mentioned user marks their own
 * mention; a comment that does not mention them answers 404 and changes nothing. Marking again keeps
 * the first instant. The mention rows are flow rows: workflows writes them. The user's other tabs are
 * told (their bell and inbox).
 */
export async function markMentionRead(ctx: ServiceContext, commentId: string): Promise<MentionReadResponse> {
  const marked = await workflows.markMentionRead(ctx, commentId);
  if (!marked) throw new AppError('MENTION_NOT_FOUND');
  ctx.events.publish({ type: 'inbox-changed', userIds: [ctx.user.id] });
  return { mention: { commentId, readAt: marked.readAt } };
}

/** 'Marcar todas como leídas': every unread mention of the signed-in user, at once. */
export async function markAllMentionsRead(ctx: ServiceContext): Promise<MentionsReadAllResponse> {
  const marked = await workflows.markAllMentionsRead(ctx);
  if (marked > 0) ctx.events.publish({ type: 'inbox-changed', userIds: [ctx.user.id] });
  return { marked };
}

/**
 * /notificaciones: the signed-in user's own pending tasks of both flow kinds, grouped by stage in the
 * fixed stage order, newest first — a page of every group, or the next page of one.
 */
export async function listMine(ctx: ServiceContext, query: ParsedPage): Promise<InboxResponse> {
  const tasks = await inbox(ctx, { userId: ctx.user.id }, query);
  // The first page lists what else the bell counts: the overdue holders' requests (administrators).
  if (query.stage !== undefined) return tasks;
  return { ...tasks, overdueDataRequests: await dataRequests.overdueList(ctx) };
}

/**
 * /seguimiento: the pending tasks of every assignee ('Todos los usuarios') or of the one chosen.
 * Seeing other users' tasks is for administrators; anyone else is answered their own, and naming
 * another user is refused.
 */
export async function listFollowUp(
  ctx: ServiceContext,
  query: ParsedPage & Pick<FollowUpQuery, 'userId'>,
): Promise<InboxResponse> {
  const { userId, ...page } = query;
  if (userId !== undefined && !allow(ctx.user, 'tasks.readOf', { userId })) throw new AppError('FORBIDDEN');
  if (!can(ctx.user, 'menu.followUp')) return inbox(ctx, { userId: ctx.user.id }, page);
  if (userId !== undefined && !(await queries.userExists(ctx.db, userId)))
    throw new AppError('USER_NOT_FOUND');
  return inbox(ctx, { userId: userId ?? null }, page);
}

async function inbox(
  ctx: ServiceContext,
  scope: queries.InboxScope,
  page: ParsedPage,
): Promise<InboxResponse> {
  const pageSize = page.stage === undefined ? INBOX_FIRST_PAGE_SIZE : INBOX_PAGE_SIZE;
  const rows = await queries.selectInboxPage(ctx.db, scope, {
    stage: page.stage,
    after: page.after,
    pageSize,
    countCap: INBOX_COUNT_CAP,
  });
  const groups: InboxGroup[] = [];
  const byStage = new Map<string, { group: InboxGroup; rows: queries.InboxRow[] }>();
  for (const row of rows) {
    let entry = byStage.get(row.stage);
    if (!entry) {
      entry = {
        group: {
          stage: row.stage,
          total: Math.min(row.total, INBOX_COUNT_CAP),
          totalIsCapped: row.total > INBOX_COUNT_CAP,
          rows: [],
          nextCursor: null,
        },
        rows: [],
      };
      byStage.set(row.stage, entry);
      groups.push(entry.group);
    }
    if (row.id !== null) entry.rows.push(row);
  }
  for (const { group, rows: groupRows } of byStage.values()) {
    // One card more than a page was read: its presence says another page follows.
    const shown = groupRows.slice(0, pageSize);
    const last = shown.at(-1);
    if (groupRows.length > pageSize && last) {
      group.nextCursor = encodeInboxCursor({
        negStageOrder: last.negStageOrder,
        assignedAt: last.assignedAtUs,
        flowId: last.flowId,
        negTaskOrder: last.negTaskOrder,
        flowTaskId: last.id!,
        userId: last.userId,
      });
    }
    group.rows = shown.map((row) => card(row, ctx.now));
  }
  return { groups, overdueDataRequests: [] };
}

function card(row: queries.InboxRow, now: Date): InboxGroup['rows'][number] {
  const startedAt = row.startedAt ? new Date(row.startedAt) : null;
  return {
    id: row.id!,
    flowId: row.flowId,
    kind: row.kind,
    isSecondPayment: row.isSecondPayment,
    taskName: row.taskName,
    stageName: row.stage,
    status: row.status,
    reservationId: row.reservationId,
    reservationNumber: row.reservationNumber,
    apartmentNumber: row.apartmentNumber,
    projectName: row.projectName,
    projectStage: row.projectStage,
    clientName: row.clientName,
    brokerName: row.brokerName,
    assignee:
      row.assigneeFirstName === null
        ? null
        : {
            id: row.userId,
            firstName: row.assigneeFirstName,
            lastName: row.assigneeLastName ?? '',
            avatarUrl: row.assigneeAvatarUrl,
          },
    assignedAt: row.assignedAt,
    startedAt: row.startedAt,
    flowStageName: row.flowStageName,
    daysSinceStart: startedAt ? santiagoDaysBetween(startedAt, now) : null,
    daysToComplete: row.daysToComplete,
    daysLate: daysLate({ startedAt, completedAt: null, daysToComplete: row.daysToComplete }, now),
  };
}
