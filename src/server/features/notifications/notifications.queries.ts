import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';

/**
 * The pending tasks of one user (workflows.md §6): tasks not completed and not blocked, of flows in
 * progress. One SQL source for the bell badge (a count over it) and the notifications list
 * (/notificaciones selects from it, joined to what each row shows), so the two never disagree.
 *
 * - Sale tasks reach the user through `task_assignments` (decision 0007): the assigned task's row in
 *   `reservation_flow_tasks` must be pending or in progress, its `reservation_flows` in progress.
 * - Payment tasks reach the user through `commission_flow_tasks.assignee_id`: pending or in progress,
 *   of a `commission_flows` in progress.
 *
 * Columns: kind ('sale' | 'payment'), task_row_id (reservation_flow_tasks.id or
 * commission_flow_tasks.id), flow_id (reservation_flows.id or commission_flows.id), reservation_id,
 * task_name, stage_name, stage_order, task_order, status, started_at, days_to_complete.
 * Both halves start from the user's own rows (task_assignments_user_idx,
 * commission_flow_tasks_open_assignee_idx), so the set costs the user's tasks, not the table.
 */
export function pendingTasksOf(userId: string): SQL {
  return sql`
    select p.kind, p.task_row_id, p.flow_id, p.reservation_id,
           coalesce(sft.name, pft.name) as task_name, coalesce(sfs.name, pfs.name) as stage_name,
           coalesce(sfs.sort_order, pfs.sort_order) as stage_order,
           coalesce(sft.sort_order, pft.sort_order) as task_order,
           p.status, p.started_at, coalesce(p.days_to_complete, pft.days_to_complete) as days_to_complete
      from (${pendingTaskRowsOf(userId)}) as p
      left join sale_flow_tasks sft on p.kind = 'sale' and sft.id = p.task_id
      left join sale_flow_stages sfs on sfs.id = sft.stage_id
      left join payment_flow_tasks pft on p.kind = 'payment' and pft.id = p.task_id
      left join payment_flow_stages pfs on pfs.id = pft.stage_id
  `;
}

/**
 * The rows of the pending-task set and nothing else: which task rows are pending for the user. The
 * filter of workflows.md §6 lives here only; `pendingTasksOf` adds what a list shows, and the badge
 * counts these rows directly (planning the display joins cost more than counting).
 */
function pendingTaskRowsOf(userId: string): SQL {
  return sql`
    select 'sale' as kind, rft.id as task_row_id, rft.task_id, rf.id as flow_id, rf.reservation_id,
           rft.status, rft.started_at, rft.days_to_complete
      from task_assignments ta
      join reservation_flow_tasks rft
        on rft.reservation_flow_id = ta.reservation_flow_id and rft.task_id = ta.task_id
      join reservation_flows rf on rf.id = ta.reservation_flow_id
     where ta.user_id = ${userId}
       and rft.status in ('pending', 'in_progress')
       and rf.status = 'in_progress'
    union all
    select 'payment' as kind, cft.id as task_row_id, cft.task_id, cf.id as flow_id, bc.reservation_id,
           cft.status, cft.started_at, null::int as days_to_complete
      from commission_flow_tasks cft
      join commission_flows cf on cf.id = cft.commission_flow_id
      join broker_commissions bc on bc.id = cf.broker_commission_id
     where cft.assignee_id = ${userId}
       and cft.status in ('pending', 'in_progress')
       and cf.status = 'in_progress'
  `;
}

/** How many pending tasks the user has: the length of their notification list. */
export async function countPendingTasks(db: Executor, userId: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from (${pendingTaskRowsOf(userId)}) as pending`,
  );
  return row?.count ?? 0;
}
