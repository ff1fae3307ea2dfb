import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { FlowChanges } from '../../../shared/domain/workflow/changes';
import {
  FLOW_STATUSES,
  type FlowStatus,
  TASK_STATUSES,
  type TaskStatus,
} from '../../../shared/domain/workflow/statuses';
import type {
  FlowState,
  TaskOpening,
  TaskState,
  WorkflowDefinition,
  WorkflowKind,
} from '../../../shared/domain/workflow/types';
import { isoOrNull } from '../../../shared/format';
import type { FlowPerson, FlowTaskCommentView } from '../../../shared/schemas/workflows';
import { type Executor, isoInstant, queryRows } from '../../db/client';
import { textArray } from '../../db/privacy';

/**
 * The only SQL that reads and writes the workflow tables (DESIGN §10). Definitions are loaded in
 * one statement; a flow's state in one; a command's changes are written set-based, one statement
 * per kind of row.
 */

interface DefinitionRow {
  workflowId: string;
  workflowName: string;
  kind: WorkflowKind;
  taskOpening: TaskOpening;
  singleAssignee: boolean;
  stageId: string;
  stageName: string;
  stageOrder: number;
  taskId: string | null;
  taskName: string | null;
  taskOrder: number | null;
  daysToComplete: number | null;
  assignToSeller: boolean | null;
  isApproval: boolean | null;
  isRetired: boolean | null;
  prerequisiteIds: string[];
  defaultAssigneeIds: string[];
}

/** A definition by id or by name, with its stages, tasks, prerequisites and active default assignees. */
export async function findDefinition(
  db: Executor,
  by: { id: string } | { name: string },
): Promise<WorkflowDefinition | null> {
  const where = 'id' in by ? sql`w.id = ${by.id}` : sql`w.name = ${by.name}`;
  const rows = await queryRows<DefinitionRow>(
    db,
    sql`
      select w.id as "workflowId", w.name as "workflowName", w.kind, w.task_opening as "taskOpening",
             w.single_assignee as "singleAssignee",
             s.id as "stageId", s.name as "stageName", s.sort_order as "stageOrder",
             t.id as "taskId", t.name as "taskName", t.sort_order as "taskOrder",
             t.days_to_complete as "daysToComplete", t.assign_to_seller as "assignToSeller",
             t.is_approval as "isApproval", t.is_retired as "isRetired",
             coalesce((select json_agg(p.prerequisite_task_id order by p.prerequisite_task_id)
                         from workflow_task_prerequisites p where p.task_id = t.id), '[]') as "prerequisiteIds",
             -- A deactivated user is given no new work.
             coalesce((select json_agg(d.user_id order by d.created_at, d.user_id)
                         from workflow_task_default_assignees d
                         join profiles u on u.id = d.user_id and u.is_active
                        where d.task_id = t.id), '[]') as "defaultAssigneeIds"
        from workflows w
        join workflow_stages s on s.workflow_id = w.id
        left join workflow_tasks t on t.stage_id = s.id
       where ${where}
       order by s.sort_order, t.sort_order`,
  );
  const first = rows[0];
  if (!first) return null;
  const stages = new Map<string, { id: string; name: string; order: number }>();
  const tasks: WorkflowDefinition['tasks'][number][] = [];
  for (const row of rows) {
    stages.set(row.stageId, { id: row.stageId, name: row.stageName, order: row.stageOrder });
    if (row.taskId === null) continue;
    tasks.push({
      id: row.taskId,
      stageId: row.stageId,
      name: row.taskName!,
      order: row.taskOrder!,
      daysToComplete: row.daysToComplete,
      assignToSeller: row.assignToSeller === true,
      isApproval: row.isApproval === true,
      isRetired: row.isRetired === true,
      prerequisiteIds: row.prerequisiteIds,
      defaultAssigneeIds: row.defaultAssigneeIds,
    });
  }
  return {
    id: first.workflowId,
    name: first.workflowName,
    kind: first.kind,
    taskOpening: first.taskOpening,
    singleAssignee: first.singleAssignee,
    stages: [...stages.values()],
    tasks,
  };
}

/** A flow's row as the engine's commands read it (checked outside production, decision 0036). */
const flowRow = z.object({
  id: z.string(),
  workflowId: z.string(),
  kind: z.enum(['sale', 'payment']),
  reservationId: z.string(),
  brokerCommissionId: z.string().nullable(),
  isSecondPayment: z.boolean(),
  status: z.enum(FLOW_STATUSES),
  currentStageId: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  version: z.number().int(),
  /** The flow's reservation was rescinded: nothing of the flow changes any more (but comments). */
  subjectClosed: z.boolean(),
}) satisfies z.ZodType<{ kind: WorkflowKind; status: FlowStatus }>;
export type FlowRow = z.infer<typeof flowRow>;

const flowColumns = sql`
  f.id, f.workflow_id as "workflowId", f.kind, f.reservation_id as "reservationId",
  f.broker_commission_id as "brokerCommissionId", f.is_second_payment as "isSecondPayment",
  f.status, f.current_stage_id as "currentStageId",
  ${isoInstant(sql`f.started_at`)} as "startedAt", ${isoInstant(sql`f.completed_at`)} as "completedAt",
  f.version,
  coalesce((select r.is_rescinded from reservations r where r.id = f.reservation_id), false) as "subjectClosed"`;

/** The flow row, locked for the rest of the transaction: commands on one flow run one at a time. */
export async function lockFlow(tx: Executor, flowId: string): Promise<FlowRow | null> {
  const [row] = await queryRows(
    tx,
    sql`select ${flowColumns} from flows f where f.id = ${flowId} for update`,
    flowRow,
  );
  return row ?? null;
}

export async function findFlow(db: Executor, flowId: string): Promise<FlowRow | null> {
  const [row] = await queryRows(db, sql`select ${flowColumns} from flows f where f.id = ${flowId}`, flowRow);
  return row ?? null;
}

/** The flows of a reservation (its sale flow, its payment flows): rescission cancels them. */
export async function flowsOfReservation(db: Executor, reservationId: string): Promise<FlowRow[]> {
  return queryRows(
    db,
    sql`select ${flowColumns} from flows f where f.reservation_id = ${reservationId} order by f.created_at, f.id`,
    flowRow,
  );
}

/** The payment flow of a commission (first or second), if it exists. */
export async function paymentFlowOf(
  db: Executor,
  brokerCommissionId: string,
  isSecondPayment: boolean,
): Promise<FlowRow | null> {
  const [row] = await queryRows(
    db,
    sql`select ${flowColumns} from flows f
         where f.kind = 'payment' and f.broker_commission_id = ${brokerCommissionId}
           and f.is_second_payment = ${isSecondPayment}`,
    flowRow,
  );
  return row ?? null;
}

/** A task row with its assignees: what the engine decides on (checked outside production). */
const taskStateRow = z.object({
  id: z.string(),
  taskId: z.string(),
  status: z.enum(TASK_STATUSES),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  completedBy: z.string().nullable(),
  daysToComplete: z.number().int().nullable(),
  version: z.number().int(),
  assignees: z.array(
    z.object({ userId: z.string(), assignedAt: z.string(), assignedBy: z.string().nullable() }),
  ),
}) satisfies z.ZodType<{ status: TaskStatus }>;

const toDate = (value: string | null) => (value === null ? null : new Date(value));

/** A flow's state as the engine sees it: its task rows with their assignees, in flow order. */
export async function findFlowState(
  db: Executor,
  flow: FlowRow,
): Promise<{ state: FlowState; versions: Map<string, number> }> {
  const rows = await queryRows(
    db,
    sql`
      select ft.id, ft.task_id as "taskId", ft.status,
             ${isoInstant(sql`ft.started_at`)} as "startedAt", ${isoInstant(sql`ft.completed_at`)} as "completedAt",
             ft.completed_by as "completedBy", ft.days_to_complete as "daysToComplete", ft.version,
             coalesce((select json_agg(json_build_object(
                                'userId', a.user_id,
                                'assignedAt', ${isoInstant(sql`a.assigned_at`)},
                                'assignedBy', a.assigned_by) order by a.assigned_at, a.user_id)
                         from flow_task_assignees a where a.flow_task_id = ft.id), '[]') as assignees
        from flow_tasks ft
        join workflow_tasks t on t.id = ft.task_id
        join workflow_stages s on s.id = t.stage_id
       where ft.flow_id = ${flow.id}
       order by s.sort_order, t.sort_order`,
    taskStateRow,
  );
  const tasks = rows.map(
    (row): TaskState => ({
      id: row.id,
      taskId: row.taskId,
      status: row.status,
      startedAt: toDate(row.startedAt),
      completedAt: toDate(row.completedAt),
      completedBy: row.completedBy,
      daysToComplete: row.daysToComplete,
      assignees: row.assignees.map((a) => ({
        userId: a.userId,
        assignedAt: new Date(a.assignedAt),
        assignedBy: a.assignedBy,
      })),
    }),
  );
  return {
    state: {
      id: flow.id,
      status: flow.status,
      currentStageId: flow.currentStageId,
      startedAt: toDate(flow.startedAt),
      completedAt: toDate(flow.completedAt),
      tasks,
    },
    versions: new Map(rows.map((row) => [row.id, row.version])),
  };
}

export async function insertFlow(
  tx: Executor,
  values: {
    state: FlowState;
    workflowId: string;
    kind: WorkflowKind;
    reservationId: string;
    brokerCommissionId: string | null;
    isSecondPayment: boolean;
    actorId: string | null;
    /** The command's instant: the rows' creation time (historical data keeps its own). */
    now: Date;
  },
): Promise<void> {
  const { state } = values;
  const createdAt = instantParam(values.now);
  await tx.execute(sql`
    insert into flows (id, workflow_id, kind, reservation_id, broker_commission_id, is_second_payment,
                       current_stage_id, status, started_at, completed_at, created_by, updated_by, created_at, updated_at)
    values (${state.id}, ${values.workflowId}, ${values.kind}, ${values.reservationId}, ${values.brokerCommissionId},
            ${values.isSecondPayment}, ${state.currentStageId}, ${state.status}, ${instantParam(state.startedAt)},
            ${instantParam(state.completedAt)}, ${values.actorId}, ${values.actorId}, ${createdAt}, ${createdAt})`);
  // The task rows as one JSON parameter (a flow has ~25): as a VALUES list the statement had ten
  // parameters a row, and building and binding them cost more than the insert's own JavaScript.
  const taskRows = state.tasks.map((task) => ({
    id: task.id,
    task_id: task.taskId,
    status: task.status,
    started_at: isoOrNull(task.startedAt),
    completed_at: isoOrNull(task.completedAt),
    completed_by: task.completedBy,
    days_to_complete: task.daysToComplete,
  }));
  await tx.execute(sql`
    insert into flow_tasks (id, flow_id, task_id, status, started_at, completed_at, completed_by, days_to_complete,
                            created_at, updated_at)
    select v.id, ${state.id}::uuid, v.task_id, v.status, v.started_at, v.completed_at, v.completed_by,
           v.days_to_complete, ${createdAt}, ${createdAt}
      from json_to_recordset(${JSON.stringify(taskRows)}::json)
             as v(id uuid, task_id uuid, status text, started_at timestamptz, completed_at timestamptz,
                  completed_by uuid, days_to_complete int)`);
  const assignees = state.tasks.flatMap((task) =>
    task.assignees.map((assignee) => ({ taskRowId: task.id, ...assignee })),
  );
  await insertAssignees(tx, assignees);
}

/** A timestamptz parameter (or null), the same on both drivers. */
function instantParam(date: Date | null): SQL {
  return date === null ? sql`null::timestamptz` : sql`${date.toISOString()}::timestamptz`;
}

async function insertAssignees(tx: Executor, rows: FlowChanges['assigneesAdded']): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => ({
    flow_task_id: row.taskRowId,
    user_id: row.userId,
    assigned_by: row.assignedBy,
    assigned_at: isoOrNull(row.assignedAt),
  }));
  // The flow comes from the task row (flow_task_assignees.flow_id is a copy of it).
  await tx.execute(sql`
    insert into flow_task_assignees (flow_task_id, flow_id, user_id, assigned_by, assigned_at)
    select v.flow_task_id, ft.flow_id, v.user_id, v.assigned_by, v.assigned_at
      from json_to_recordset(${JSON.stringify(values)}::json)
             as v(flow_task_id uuid, user_id uuid, assigned_by uuid, assigned_at timestamptz)
      join flow_tasks ft on ft.id = v.flow_task_id
    on conflict do nothing`);
}

/** Writes what a command changed: the flow row, the task rows, the assignees. */
export async function applyChanges(
  tx: Executor,
  flowId: string,
  changes: FlowChanges,
  actorId: string,
): Promise<void> {
  if (changes.flow) {
    const flow = changes.flow;
    await tx.execute(sql`
      update flows
         set status = ${flow.status}, current_stage_id = ${flow.currentStageId},
             started_at = ${instantParam(flow.startedAt)}, completed_at = ${instantParam(flow.completedAt)},
             updated_by = ${actorId}, updated_at = now(), version = version + 1
       where id = ${flowId}`);
  } else if (
    changes.tasks.length > 0 ||
    changes.assigneesAdded.length > 0 ||
    changes.assigneesRemoved.length > 0
  ) {
    // Any change of a flow's tasks makes the flow a new version (screens compare it).
    await tx.execute(
      sql`update flows set updated_by = ${actorId}, updated_at = now(), version = version + 1 where id = ${flowId}`,
    );
  }
  if (changes.tasks.length > 0) {
    const values = changes.tasks.map((task) => ({
      id: task.id,
      status: task.status,
      started_at: isoOrNull(task.startedAt),
      completed_at: isoOrNull(task.completedAt),
      completed_by: task.completedBy,
    }));
    await tx.execute(sql`
      update flow_tasks as ft
         set status = v.status, started_at = v.started_at, completed_at = v.completed_at,
             completed_by = v.completed_by, updated_at = now(), version = ft.version + 1
        from json_to_recordset(${JSON.stringify(values)}::json)
               as v(id uuid, status text, started_at timestamptz, completed_at timestamptz, completed_by uuid)
       where ft.id = v.id`);
  }
  if (changes.assigneesRemoved.length > 0) {
    const pairs = changes.assigneesRemoved.map((row) => sql`(${row.taskRowId}::uuid, ${row.userId}::uuid)`);
    await tx.execute(sql`
      delete from flow_task_assignees
       where (flow_task_id, user_id) in (values ${sql.join(pairs, sql`, `)})`);
  }
  await insertAssignees(tx, changes.assigneesAdded);
}

/** The flow of a task row, or null when the task row does not exist. */
export async function flowIdOfTask(db: Executor, taskRowId: string): Promise<string | null> {
  const [row] = await queryRows<{ flowId: string }>(
    db,
    sql`select flow_id as "flowId" from flow_tasks where id = ${taskRowId}`,
  );
  return row?.flowId ?? null;
}

// --- Comments --------------------------------------------------------------------------------

export async function insertComment(
  tx: Executor,
  values: { flowTaskId: string; userId: string; content: string; mentionedUserIds: readonly string[] },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`insert into flow_task_comments (flow_task_id, user_id, content)
        values (${values.flowTaskId}, ${values.userId}, ${values.content}) returning id`,
  );
  const commentId = row!.id;
  if (values.mentionedUserIds.length > 0) {
    const ids = [...new Set(values.mentionedUserIds)].map((userId) => sql`(${userId}::uuid)`);
    // Each mention is an entry of the mentioned user's inbox at the comment's instant (decision 0030);
    // the author's own mention of themselves is read already (they wrote it).
    await tx.execute(sql`
      insert into flow_task_comment_mentions (comment_id, user_id, created_at, read_at)
      select c.id, v.user_id, c.created_at, case when v.user_id = c.user_id then c.created_at end
        from (values ${sql.join(ids, sql`, `)}) as v(user_id)
        cross join flow_task_comments c
       where c.id = ${commentId}`);
  }
  return commentId;
}

/** The comment with its task's flow and the users it mentions (null when it does not exist). */
export async function findComment(db: Executor, commentId: string) {
  const [row] = await queryRows<{
    id: string;
    flowTaskId: string;
    flowId: string;
    mentionedUserIds: string[];
  }>(
    db,
    sql`select c.id, c.flow_task_id as "flowTaskId", ft.flow_id as "flowId",
               coalesce((select json_agg(m.user_id) from flow_task_comment_mentions m
                          where m.comment_id = c.id), '[]') as "mentionedUserIds"
          from flow_task_comments c join flow_tasks ft on ft.id = c.flow_task_id
         where c.id = ${commentId}`,
  );
  return row ?? null;
}

/**
 * A task's comments, oldest first (flow_task_comments_task_idx), each with its author and the users
 * it mentions; null when the task row is not of the flow.
 */
export async function commentsOf(
  db: Executor,
  flowId: string,
  taskRowId: string,
): Promise<FlowTaskCommentView[] | null> {
  const [row] = await queryRows<{ comments: FlowTaskCommentView[] }>(
    db,
    sql`
      select coalesce((
        select json_agg(json_build_object(
                 'id', c.id,
                 'content', c.content,
                 'createdAt', ${isoInstant(sql`c.created_at`)},
                 'author', case when u.id is null then null else json_build_object(
                   'id', u.id, 'firstName', u.first_name, 'lastName', u.last_name, 'avatarUrl', u.avatar_url) end,
                 'mentions', coalesce((
                   select json_agg(json_build_object('id', m.id, 'firstName', m.first_name, 'lastName', m.last_name)
                                   order by m.first_name, m.last_name, m.id)
                     from flow_task_comment_mentions cm join profiles m on m.id = cm.user_id
                    where cm.comment_id = c.id), '[]'))
               order by c.created_at, c.id)
          from flow_task_comments c
          left join profiles u on u.id = c.user_id
         where c.flow_task_id = ft.id), '[]') as comments
        from flow_tasks ft
       where ft.id = ${taskRowId} and ft.flow_id = ${flowId}`,
  );
  return row ? row.comments : null;
}

/** An approval's rejection (written with the task's blocked status, in the engine's transaction). */
export async function insertRejection(
  tx: Executor,
  values: { flowTaskId: string; flowId: string; rejectedBy: string; rejectedAt: Date; reason: string },
): Promise<void> {
  await tx.execute(sql`
    insert into flow_task_rejections (flow_task_id, flow_id, rejected_by, rejected_at, reason)
    values (${values.flowTaskId}, ${values.flowId}, ${values.rejectedBy}, ${instantParam(values.rejectedAt)},
            ${values.reason})`);
}

export async function deleteComment(tx: Executor, commentId: string): Promise<void> {
  await tx.execute(sql`delete from flow_task_comments where id = ${commentId}`);
}

// --- The mentions inbox (decision 0030) ---------------------------------------------------------

/**
 * Marks one of the user's mentions read (the first read stays: a second mark changes nothing); null
 * when the user has no mention in that comment — someone else's mention is not theirs to mark.
 */
export async function updateMentionRead(
  tx: Executor,
  userId: string,
  commentId: string,
  at: Date,
): Promise<{ readAt: string } | null> {
  const [row] = await queryRows<{ readAt: string }>(
    tx,
    sql`update flow_task_comment_mentions set read_at = coalesce(read_at, ${instantParam(at)})
         where comment_id = ${commentId} and user_id = ${userId}
        returning ${isoInstant(sql`read_at`)} as "readAt"`,
  );
  return row ?? null;
}

/** Marks every unread mention of the user read (off flow_task_comment_mentions_unread_idx); how many. */
export async function updateAllMentionsRead(tx: Executor, userId: string, at: Date): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    tx,
    sql`with marked as (
          update flow_task_comment_mentions set read_at = ${instantParam(at)}
           where user_id = ${userId} and read_at is null
          returning 1
        )
        select count(*)::int as count from marked`,
  );
  return row?.count ?? 0;
}

/** The ids of the users that exist and are active among the given ones. */
export async function listActiveUserIds(db: Executor, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const list = sql.join(
    userIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from profiles where is_active and id in (${list})`,
  );
  return new Set(rows.map((row) => row.id));
}

// --- The pending set (workflows.md §6) ---------------------------------------------------------

/**
 * The task rows pending for a user and nothing else: tasks assigned to them, not completed and not
 * blocked, of flows in progress — the view `pending_task_assignments` (migration 0020), the one
 * definition behind the bell badge, the notifications, the follow-up lists and the approvals. Starts
 * from the user's own assignments (flow_task_assignees_user_idx), so it costs the user's tasks, not
 * the table.
 *
 * Columns: task_row_id, task_id, flow_id, kind, reservation_id, status, started_at, days_to_complete.
 */
export function pendingTaskRowsOf(userId: string | SQL): SQL {
  return sql`
    select p.flow_task_id as task_row_id, p.task_id, p.flow_id, p.kind, p.reservation_id,
           p.status, p.started_at, p.days_to_complete
      from pending_task_assignments p
     where p.user_id = ${userId}`;
}

/**
 * The pending set with what a list shows of each row: task and stage names and orders. Columns of
 * `pendingTaskRowsOf` plus task_name, stage_name, stage_order, task_order.
 */
export function pendingTasksOf(userId: string | SQL): SQL {
  return sql`
    select p.*, t.name as task_name, s.name as stage_name, s.sort_order as stage_order, t.sort_order as task_order
      from (${pendingTaskRowsOf(userId)}) as p
      join workflow_tasks t on t.id = p.task_id
      join workflow_stages s on s.id = t.stage_id`;
}

export async function countPendingTasks(db: Executor, userId: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from (${pendingTaskRowsOf(userId)}) as pending`,
  );
  return row?.count ?? 0;
}

/**
 * What the bell counts of a user's flows, in one statement: their pending tasks and their unread
 * mentions (flow_task_comment_mentions_unread_idx, decision 0030).
 */
export async function countPendingTasksAndMentions(
  db: Executor,
  userId: string,
): Promise<{ tasks: number; mentions: number }> {
  const [row] = await queryRows<{ tasks: number; mentions: number }>(
    db,
    sql`select (select count(*)::int from (${pendingTaskRowsOf(userId)}) as pending) as tasks,
               (select count(*)::int from flow_task_comment_mentions m
                 where m.user_id = ${userId} and m.read_at is null) as mentions`,
  );
  return { tasks: row?.tasks ?? 0, mentions: row?.mentions ?? 0 };
}

/**
 * The current task of a flow in progress, as a lateral subquery over the flow alias given: its
 * oldest open task (by start, then flow order). Columns: task_row_id, name, started_at,
 * completed_at, days_to_complete, assignee_id (the first assignee).
 */
export function currentTaskOf(flowAlias: SQL): SQL {
  return sql`
    select ft.id as task_row_id, t.name, ft.started_at,
           -- An open task has no completion yet.
           null::timestamptz as completed_at, ft.days_to_complete,
           (select a.user_id from flow_task_assignees a where a.flow_task_id = ft.id
             order by a.assigned_at, a.user_id limit 1) as assignee_id
      from open_flow_tasks ft
      join workflow_tasks t on t.id = ft.task_id
      join workflow_stages s on s.id = t.stage_id
     where ft.flow_id = ${flowAlias}.id
     order by ft.started_at asc nulls last, s.sort_order, t.sort_order
     limit 1`;
}

export interface TaskExtras {
  commentCounts: Record<string, number>;
  /** Each task row's newest rejection, if it has one (flow_task_rejections_flow_idx). */
  rejections: { taskRowId: string; rejectedBy: string | null; rejectedAt: string; reason: string }[];
  /** Everyone assigned to one of the flow's tasks or a default assignee of one of its workflow's tasks. */
  people: (FlowPerson & { isActive: boolean })[];
  /**
   * The document types (names, in their order) each of the workflow's tasks requires and the flow's
   * reservation has none of, by the definition's task id (issue 57: 'Requiere: Promesa firmada').
   */
  missingDocuments: Record<string, string[]>;
}

/**
 * What a flow's screen shows beside the engine's state, in one statement: per task row its number of
 * comments (flow_task_comments_task_idx), and as people everyone assigned to one of its tasks
 * (flow_task_assignees_flow_idx) and
 * every default assignee of its workflow (deactivated users included, marked).
 */
export async function findTaskExtras(db: Executor, flowId: string): Promise<TaskExtras> {
  const [row] = await queryRows<TaskExtras>(
    db,
    sql`
      select coalesce((select json_object_agg(ft.id, (select count(*) from flow_task_comments c
                                                       where c.flow_task_id = ft.id))
                         from flow_tasks ft where ft.flow_id = ${flowId}), '{}') as "commentCounts",
             coalesce((select json_agg(json_build_object('taskRowId', r.flow_task_id, 'rejectedBy', r.rejected_by,
                                                         'rejectedAt', ${isoInstant(sql`r.rejected_at`)}, 'reason', r.reason))
                         from (select distinct on (x.flow_task_id) x.*
                                 from flow_task_rejections x where x.flow_id = ${flowId}
                                order by x.flow_task_id, x.rejected_at desc, x.id desc) r), '[]') as rejections,
             coalesce((select json_agg(json_build_object('id', u.id, 'firstName', u.first_name,
                                                         'lastName', u.last_name, 'avatarUrl', u.avatar_url,
                                                         'isActive', u.is_active))
                         from profiles u
                        where u.id in (select a.user_id from flow_task_assignees a where a.flow_id = ${flowId}
                                       union
                                       select x.rejected_by from flow_task_rejections x where x.flow_id = ${flowId}
                                       union
                                       select d.user_id
                                         from flows f
                                         join workflow_stages s on s.workflow_id = f.workflow_id
                                         join workflow_tasks t on t.stage_id = s.id
                                         join workflow_task_default_assignees d on d.task_id = t.id
                                        where f.id = ${flowId})), '[]') as people,
             coalesce((select json_object_agg(m.task_id, m.names)
                         from (select r.workflow_task_id as task_id,
                                      json_agg(dt.name order by dt.sort_order, dt.name) as names
                                 from flows f
                                 join workflow_stages s on s.workflow_id = f.workflow_id
                                 join workflow_tasks t on t.stage_id = s.id
                                 join document_type_requirements r on r.workflow_task_id = t.id
                                 join document_types dt on dt.id = r.document_type_id
                                where f.id = ${flowId}
                                  and not exists (select 1 from documents d
                                                   where d.reservation_id = f.reservation_id
                                                     and d.document_type_id = dt.id)
                                group by r.workflow_task_id) m), '{}') as "missingDocuments"`,
  );
  return row!;
}

// --- Holders' data rights (decision 0027) ---------------------------------------------------------------

export async function flowIdsOfReservations(
  db: Executor,
  reservationIds: readonly string[],
): Promise<string[]> {
  if (reservationIds.length === 0) return [];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from flows where reservation_id in (${sql.join(
      reservationIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  return rows.map((row) => row.id);
}

/**
 * Comments that may name a holder: every comment of their flows, and any other whose folded text
 * holds one of the global patterns (a whole-word regular expression, as the log's redaction reads it).
 */
export function listCommentsNaming(
  tx: Executor,
  flowIds: readonly string[],
  globalPatterns: readonly string[],
): Promise<{ id: string; content: string; ownFlow: boolean }[]> {
  const own =
    flowIds.length === 0
      ? sql`false`
      : sql`ft.flow_id in (${sql.join(
          flowIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`;
  return queryRows(
    tx,
    sql`select c.id, c.content, ${own} as "ownFlow"
          from flow_task_comments c join flow_tasks ft on ft.id = c.flow_task_id
         where ${own} or privacy_holds(c.content, ${textArray(globalPatterns)})
           for update of c`,
  );
}

export async function updateCommentContent(tx: Executor, commentId: string, content: string): Promise<void> {
  await tx.execute(sql`update flow_task_comments set content = ${content} where id = ${commentId}`);
}

/** Rejection reasons on the holder's flows, or naming them elsewhere (as comments, above). */
export function listRejectionsNaming(
  tx: Executor,
  flowIds: readonly string[],
  globalPatterns: readonly string[],
): Promise<{ id: string; reason: string; ownFlow: boolean }[]> {
  const own =
    flowIds.length === 0
      ? sql`false`
      : sql`r.flow_id in (${sql.join(
          flowIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`;
  return queryRows(
    tx,
    sql`select r.id, r.reason, ${own} as "ownFlow"
          from flow_task_rejections r
         where ${own} or privacy_holds(r.reason, ${textArray(globalPatterns)})
           for update of r`,
  );
}

export async function updateRejectionReason(
  tx: Executor,
  rejectionId: string,
  reason: string,
): Promise<void> {
  await tx.execute(sql`update flow_task_rejections set reason = ${reason} where id = ${rejectionId}`);
}

// --- Bulk load (the demo and bench generator) --------------------------------------------------

/** A flow as the engine left it, with what its row records beyond the engine's state. */
export interface FlowLoadRow {
  id: string;
  workflowId: string;
  kind: 'sale' | 'payment';
  reservationId: string;
  brokerCommissionId: string | null;
  isSecondPayment: boolean;
  currentStageId: string | null;
  status: FlowStatus;
  startedAt: string | null;
  completedAt: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** Its task rows, in flow order. */
  tasks: readonly {
    id: string;
    taskId: string;
    status: TaskStatus;
    startedAt: string | null;
    completedAt: string | null;
    completedBy: string | null;
    daysToComplete: number | null;
  }[];
}

const pgArray = (values: readonly (string | number | null)[]) =>
  `{${values.map((value) => (value === null ? 'NULL' : `"${value}"`)).join(',')}}`;

/**
 * Inserts flows and their task rows, set-based (two statements a batch): each flow's task rows
 * travel as parallel arrays, unnested by the database.
 */
export async function insertFlowBatch(tx: Executor, flows: readonly FlowLoadRow[]): Promise<number> {
  const rows = flows.map((flow) => ({
    id: flow.id,
    workflow_id: flow.workflowId,
    kind: flow.kind,
    reservation_id: flow.reservationId,
    broker_commission_id: flow.brokerCommissionId,
    is_second_payment: flow.isSecondPayment,
    current_stage_id: flow.currentStageId,
    status: flow.status,
    started_at: flow.startedAt,
    completed_at: flow.completedAt,
    created_by: flow.createdBy,
    created_at: flow.createdAt,
    updated_at: flow.updatedAt,
    ids: pgArray(flow.tasks.map((task) => task.id)),
    task_ids: pgArray(flow.tasks.map((task) => task.taskId)),
    statuses: pgArray(flow.tasks.map((task) => task.status)),
    started: pgArray(flow.tasks.map((task) => task.startedAt)),
    completed: pgArray(flow.tasks.map((task) => task.completedAt)),
    completed_by: pgArray(flow.tasks.map((task) => task.completedBy)),
    days: pgArray(flow.tasks.map((task) => task.daysToComplete)),
  }));
  const json = JSON.stringify(rows);
  await tx.execute(sql`
    insert into flows (id, workflow_id, kind, reservation_id, broker_commission_id, is_second_payment, current_stage_id,
                       status, started_at, completed_at, created_by, updated_by, created_at, updated_at)
    select id, workflow_id, kind, reservation_id, broker_commission_id, is_second_payment, current_stage_id,
           status, started_at, completed_at, created_by, created_by, created_at, updated_at
      from json_to_recordset(${json}::json) as x(
        id uuid, workflow_id uuid, kind text, reservation_id uuid, broker_commission_id uuid, is_second_payment boolean,
        current_stage_id uuid, status text, started_at timestamptz, completed_at timestamptz, created_by uuid,
        created_at timestamptz, updated_at timestamptz)`);
  const inserted = await queryRows<{ count: number }>(
    tx,
    sql`
    with loaded as (
      insert into flow_tasks (id, flow_id, task_id, status, started_at, completed_at, completed_by, days_to_complete,
                              created_at, updated_at)
      select t.id, p.id, t.task_id, t.status, t.started_at, t.completed_at, t.completed_by, t.days, p.created_at,
             coalesce(t.completed_at, t.started_at, p.created_at)
        from json_to_recordset(${json}::json)
               as p(id uuid, created_at timestamptz, ids uuid[], task_ids uuid[], statuses text[],
                    started timestamptz[], completed timestamptz[], completed_by uuid[], days int[]),
             unnest(p.ids, p.task_ids, p.statuses, p.started, p.completed, p.completed_by, p.days)
               as t(id, task_id, status, started_at, completed_at, completed_by, days)
      returning 1)
    select count(*)::int as count from loaded`,
  );
  return inserted[0]?.count ?? 0;
}

/** Inserts task assignments as they were made (who assigned whom, when). */
export async function insertAssigneeBatch(
  tx: Executor,
  rows: readonly {
    flowTaskId: string;
    flowId: string;
    userId: string;
    assignedBy: string | null;
    assignedAt: string;
  }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`
    insert into flow_task_assignees (flow_task_id, flow_id, user_id, assigned_by, assigned_at)
    select flow_task_id, flow_id, user_id, assigned_by, assigned_at
      from json_to_recordset(${JSON.stringify(rows.map((row) => ({ flow_task_id: row.flowTaskId, flow_id: row.flowId, user_id: row.userId, assigned_by: row.assignedBy, assigned_at: row.assignedAt })))}::json)
             as x(flow_task_id uuid, flow_id uuid, user_id uuid, assigned_by uuid, assigned_at timestamptz)`);
}

/** Inserts comments as they were written. */
export async function insertCommentBatch(
  tx: Executor,
  rows: readonly { flowTaskId: string; userId: string; content: string; createdAt: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`
    insert into flow_task_comments (flow_task_id, user_id, content, created_at)
    select flow_task_id, user_id, content, created_at
      from json_to_recordset(${JSON.stringify(rows.map((row) => ({ flow_task_id: row.flowTaskId, user_id: row.userId, content: row.content, created_at: row.createdAt })))}::json)
             as x(flow_task_id uuid, user_id uuid, content text, created_at timestamptz)`);
}

/** Each reservation's sale flow: its status and current stage's name (imports compare the stage reached). */
export async function saleFlowStatesOf(
  db: Executor,
  reservationIds: readonly string[],
): Promise<Map<string, { status: string; currentStageName: string | null }>> {
  if (reservationIds.length === 0) return new Map();
  const rows = await queryRows<{ reservation_id: string; status: string; stage: string | null }>(
    db,
    sql`select f.reservation_id, f.status, s.name as stage
        from flows f left join workflow_stages s on s.id = f.current_stage_id
        where f.kind = 'sale' and f.reservation_id in (${sql.join(
          reservationIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
  );
  return new Map(
    rows.map((row) => [row.reservation_id, { status: row.status, currentStageName: row.stage }]),
  );
}
