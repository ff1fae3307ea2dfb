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
    select 'sale' as kind, rft.id as task_row_id, rf.id as flow_id, rf.reservation_id,
           sft.name as task_name, sfs.name as stage_name, sfs.sort_order as stage_order,
           sft.sort_order as task_order, rft.status, rft.started_at, rft.days_to_complete
      from task_assignments ta
      join reservation_flow_tasks rft
        on rft.reservation_flow_id = ta.reservation_flow_id and rft.task_id = ta.task_id
      join reservation_flows rf on rf.id = ta.reservation_flow_id
      join sale_flow_tasks sft on sft.id = rft.task_id
      join sale_flow_stages sfs on sfs.id = sft.stage_id
     where ta.user_id = ${userId}
       and rft.status in ('pending', 'in_progress')
       and rf.status = 'in_progress'
    union all
    select 'payment' as kind, cft.id as task_row_id, cf.id as flow_id, bc.reservation_id,
           pft.name as task_name, pfs.name as stage_name, pfs.sort_order as stage_order,
           pft.sort_order as task_order, cft.status, cft.started_at, pft.days_to_complete
      from commission_flow_tasks cft
      join commission_flows cf on cf.id = cft.commission_flow_id
      join broker_commissions bc on bc.id = cf.broker_commission_id
      join payment_flow_tasks pft on pft.id = cft.task_id
      join payment_flow_stages pfs on pfs.id = pft.stage_id
     where cft.assignee_id = ${userId}
       and cft.status in ('pending', 'in_progress')
       and cf.status = 'in_progress'
  `;
}

/** How many pending tasks the user has: the length of their notification list. */
export async function countPendingTasks(db: Executor, userId: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from (${pendingTasksOf(userId)}) as pending`,
  );
  return row?.count ?? 0;
}
