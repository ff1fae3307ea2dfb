import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { TaskStatus } from '../../../shared/domain/workflow/statuses';
import type { WorkflowKind } from '../../../shared/domain/workflow/types';
import type { InboxCursor, InboxMention, MentionStatus } from '../../../shared/schemas/notifications';
import { type Executor, isoInstant, queryJsonRows, queryRows } from '../../db/client';
import { type Page, type PageSpec, pageColumn, selectPage } from '../../db/paging';

/**
 * The task inboxes' reads (decision 0021). `task_inbox` holds one row per assignee of a pending task
 * (kept by the triggers of migration 0013, the same set as the engine's `pendingTaskRowsOf`); a
 * group is a stage name, in the follow-up's fixed stage order, its cards by stage order then newest
 * assignment, one instant's cards by flow in the flow's task order. One statement answers a page of every group asked: each group's count (capped) and
 * its next cards, read backwards off `task_inbox_user_idx` (one user) or `task_inbox_all_idx`
 * (everyone), then joined to what a card shows for those cards only.
 */

export interface InboxScope {
  /** One assignee's cards, or everyone's (null). */
  userId: string | null;
}

export interface InboxPageRequest {
  /** One group (a stage name), or the first page of every group. */
  stage?: string;
  after?: InboxCursor;
  pageSize: number;
  countCap: number;
}

export interface InboxRow {
  stage: string;
  total: number;
  /** The card columns are null for a group whose page is empty (a cursor past its end). */
  id: string | null;
  userId: string;
  negStageOrder: number;
  negTaskOrder: number;
  assignedAtUs: string;
  flowId: string;
  kind: WorkflowKind;
  isSecondPayment: boolean;
  taskName: string;
  status: Extract<TaskStatus, 'pending' | 'in_progress'>;
  reservationId: string;
  reservationNumber: string;
  apartmentNumber: string;
  projectName: string;
  projectStage: string;
  clientName: string;
  brokerName: string | null;
  assigneeFirstName: string | null;
  assigneeLastName: string | null;
  assigneeAvatarUrl: string | null;
  assignedAt: string;
  startedAt: string | null;
  daysToComplete: number | null;
  flowStageName: string | null;
}

/**
 * The stage rank of the follow-up's fixed order: the SQL function `follow_up_stage_rank` (migration
 * 0020), the same order as FOLLOW_UP_STAGE_ORDER (a test holds them equal); unknown stages last.
 */
function stageRank(name: SQL): SQL {
  return sql`follow_up_stage_rank(${name})`;
}

export function inboxPageSql(scope: InboxScope, request: InboxPageRequest): SQL {
  const inScope = scope.userId === null ? sql`true` : sql`i.user_id = ${scope.userId}`;
  const inGroup = sql`${inScope} and i.stage_rank = g.stage_rank and i.stage_name = g.stage_name`;
  const after = request.after;
  // The keyset: one row comparison in the index's order (within one user, the task row is unique).
  const keyset = !after
    ? sql``
    : scope.userId === null
      ? sql` and ((-i.stage_order), i.assigned_at, i.flow_id, (-i.task_order), i.flow_task_id, i.user_id)
               < (${after.negStageOrder}, ${after.assignedAt}::timestamptz, ${after.flowId}::uuid,
                  ${after.negTaskOrder}, ${after.flowTaskId}::uuid, ${after.userId}::uuid)`
      : sql` and ((-i.stage_order), i.assigned_at, i.flow_id, (-i.task_order), i.flow_task_id)
               < (${after.negStageOrder}, ${after.assignedAt}::timestamptz, ${after.flowId}::uuid,
                  ${after.negTaskOrder}, ${after.flowTaskId}::uuid)`;
  // Stage order ascending, newest first; the cards of one instant (a flow's tasks assigned together)
  // by flow, each flow's in its task order (issue 28 §6): the index read backwards.
  const order = sql`(-i.stage_order) desc, i.assigned_at desc, i.flow_id desc, (-i.task_order) desc,
                    i.flow_task_id desc, i.user_id desc`;
  const stageFilter = request.stage === undefined ? sql`` : sql` where s.name = ${request.stage}`;
  // Two steps: each group's count and the keys of its next cards (the laterals, off the index), then
  // the cards' joins once for every group's cards together. Joined inside the lateral, the card's
  // joins (eight then) were planned as one larger statement and run once per group (a hash of the profiles
  // built twelve times for the first page of everyone).
  return sql`
    with g as (
      select distinct s.name as stage_name, ${stageRank(sql`s.name`)} as stage_rank
        from workflow_stages s${stageFilter}
    ),
    page as (
      select g.stage_name, g.stage_rank, counted.total, i.*
        from g
        cross join lateral (
          select count(*)::int as total
            from (select 1 from task_inbox i where ${inGroup} limit ${request.countCap + 1}) as capped
        ) as counted
        left join lateral (
          select i.flow_task_id, i.user_id, i.flow_id, i.stage_order, i.task_order, i.assigned_at,
                 row_number() over (order by ${order}) as n
            from task_inbox i
           where ${inGroup}${keyset}
           order by ${order}
           limit ${request.pageSize + 1}
        ) as i on true
       where counted.total > 0
    )
    select i.stage_name as stage, i.stage_rank as "stageRank", i.n, i.total, i.flow_task_id as id,
           i.user_id as "userId",
           (-i.stage_order) as "negStageOrder", (-i.task_order) as "negTaskOrder",
           to_char(i.assigned_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "assignedAtUs",
           f.id as "flowId", f.kind, f.is_second_payment as "isSecondPayment",
           t.name as "taskName", ft.status,
           r.id as "reservationId", r.reservation_number as "reservationNumber",
           r.apartment_number as "apartmentNumber", p.name as "projectName", p.stage as "projectStage",
           c.first_name || ' ' || c.last_name as "clientName", b.name as "brokerName",
           u.first_name as "assigneeFirstName", u.last_name as "assigneeLastName",
           u.avatar_url as "assigneeAvatarUrl",
           ${isoInstant(sql`i.assigned_at`)} as "assignedAt", ${isoInstant(sql`ft.started_at`)} as "startedAt",
           ft.days_to_complete as "daysToComplete", cs.name as "flowStageName"
      from page i
      left join flow_tasks ft on ft.id = i.flow_task_id
      left join flows f on f.id = i.flow_id
      left join workflow_stages cs on cs.id = f.current_stage_id
      left join workflow_tasks t on t.id = ft.task_id
      left join reservations r on r.id = f.reservation_id
      left join projects p on p.id = r.project_id
      left join clients c on c.id = r.client_id
      left join brokers b on b.id = r.broker_id
      left join profiles u on u.id = i.user_id
     order by i.stage_rank, i.stage_name, i.n`;
}

/**
 * The page's rows in the fixed stage order, each group's cards in its order — through
 * `queryJsonRows` (one JSON text on the embedded database: everyone's first page, ~80 rows of 25
 * columns, cost it ~2 ms decoded column by column).
 */
export async function selectInboxPage(
  db: Executor,
  scope: InboxScope,
  request: InboxPageRequest,
): Promise<InboxRow[]> {
  return queryJsonRows<InboxRow>(db, inboxPageSql(scope, request), sql`q."stageRank", q.stage, q.n`);
}

/** The user picked in the follow-up's filter exists (any user: a deactivated one keeps open tasks). */
export async function userExists(db: Executor, userId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(db, sql`select id from profiles where id = ${userId}`);
  return rows.length > 0;
}

// --- Mentions (decision 0030) -----------------------------------------------------------------------

type MentionColumn = keyof InboxMention;

/** What a mention shows, read for the page's rows: the comment, its task, flow, reservation, author. */
const mentionColumns = {
  commentId: sql`m.comment_id`,
  flowId: sql`f.id`,
  kind: sql`f.kind`,
  isSecondPayment: sql`f.is_second_payment`,
  taskId: sql`ft.id`,
  taskName: sql`t.name`,
  stageName: sql`s.name`,
  reservationId: sql`r.id`,
  reservationNumber: sql`r.reservation_number`,
  apartmentNumber: sql`r.apartment_number`,
  projectName: sql`p.name`,
  projectStage: sql`p.stage`,
  author: sql`case when a.id is null then null else json_build_object(
                'id', a.id, 'firstName', a.first_name, 'lastName', a.last_name, 'avatarUrl', a.avatar_url) end`,
  content: sql`c.content`,
  createdAt: isoInstant(sql`m.created_at`),
  readAt: isoInstant(sql`m.read_at`),
} satisfies Record<Exclude<MentionColumn, 'mentions'>, SQLWrapper>;

/** Everyone the comment mentions (to highlight their names), for the page's rows only. */
const mentionPageColumns = {
  mentions: sql`coalesce((
    select json_agg(json_build_object('id', u.id, 'firstName', u.first_name, 'lastName', u.last_name)
                    order by u.first_name, u.last_name, u.id)
      from flow_task_comment_mentions cm join profiles u on u.id = cm.user_id
     where cm.comment_id = ${pageColumn('commentId')}), '[]')`,
} satisfies Record<Extract<MentionColumn, 'mentions'>, SQLWrapper>;

/**
 * A page of the user's mentions, newest first, in one statement: read off
 * flow_task_comment_mentions_user_newest_idx (every one) or _unread_idx (the unread), counted on the
 * mentions alone (the joins follow NOT NULL foreign keys: they never drop nor repeat a row). A mention
 * stays the user's whatever happens to the task since (reassigned, the flow cancelled): it is theirs.
 */
export function selectMentionPage(
  db: Executor,
  userId: string,
  request: MentionPageRequest,
): Promise<Page<InboxMention>> {
  return selectPage<InboxMention>(db, mentionPageSql(userId, request));
}

export interface MentionPageRequest {
  status: MentionStatus;
  page: number;
  pageSize: number;
}

/** The page's statement (`pageSql` of it), exported so a test can EXPLAIN it. */
export function mentionPageSql(userId: string, request: MentionPageRequest): PageSpec {
  const unread = request.status === 'unread' ? sql` and m.read_at is null` : sql``;
  return {
    columns: mentionColumns,
    pageColumns: mentionPageColumns,
    from: sql`flow_task_comment_mentions m
      join flow_task_comments c on c.id = m.comment_id
      join flow_tasks ft on ft.id = c.flow_task_id
      join flows f on f.id = ft.flow_id
      join workflow_tasks t on t.id = ft.task_id
      join workflow_stages s on s.id = t.stage_id
      join reservations r on r.id = f.reservation_id
      join projects p on p.id = r.project_id
      left join profiles a on a.id = c.user_id`,
    countFrom: sql`flow_task_comment_mentions m`,
    where: sql`m.user_id = ${userId}${unread}`,
    orderBy: [sql`m.created_at desc nulls last`, sql`m.comment_id desc nulls last`],
    page: request.page,
    pageSize: request.pageSize,
  };
}
