import { sql } from 'drizzle-orm';
import { uuidArrayParam } from '../../db/arrays';
import { type Executor, isoInstant, queryRows } from '../../db/client';
import { currentTaskOf } from '../workflows/workflows.service';

/**
 * The dashboard's figures (DESIGN §6, decisions 0011 and 0015). The all-time figures are read from
 * the rollup tables that triggers keep in every writing transaction (migration 0006), so their cost
 * does not grow with the tables; the recent lists read the newest rows of an index. Rescinded
 * reservations are left out of every count and sum.
 */

export interface ProjectReservedRow {
  id: string;
  name: string;
  stage: string;
  totalUnits: number | null;
  reserved: number;
  /** The project's stock version ('' before anything changed it): what its counted units are kept by. */
  stockVersion: string;
}

/** Every project with its live reservations (their sum is the dashboard's total of reservations). */
export async function listProjectReservations(db: Executor): Promise<ProjectReservedRow[]> {
  return queryRows<ProjectReservedRow>(
    db,
    sql`
      select p.id, p.name, p.stage, p.total_units as "totalUnits", coalesce(f.reserved, 0)::int as reserved,
             coalesce(v.version::text, '') as "stockVersion"
        from projects p
        left join dashboard_project_figures f on f.project_id = p.id
        left join project_stock_versions v on v.project_id = p.id
       order by p.name, p.stage, p.id`,
  );
}

export interface InventoryCountRow {
  projectId: string;
  /** With an inventory (decision 0032): its apartments, and those whose status is 'Disponible'. */
  units: number;
  available: number;
}

/** The apartments of `projectIds` and how many are 'Disponible' (projects without any are absent). */
export async function listInventoryCounts(db: Executor, projectIds: string[]): Promise<InventoryCountRow[]> {
  return queryRows<InventoryCountRow>(
    db,
    // The units' status from its one definition (the view unit_statuses, migration 0027).
    sql`select st.project_id as "projectId", count(*)::int as units,
               count(*) filter (where st.status = 'Disponible')::int as available
          from unit_statuses st join units u on u.id = st.unit_id and u.kind = 'apartment'
         where st.project_id = any(${uuidArrayParam(projectIds)})
         group by st.project_id`,
  );
}

/** Live (not deleted) clients and registered brokers. */
export async function countClientsAndBrokers(db: Executor): Promise<{ clients: number; brokers: number }> {
  const [row] = await queryRows<{ clients: number; brokers: number }>(
    db,
    sql`select clients, brokers from dashboard_counts`,
  );
  return row ?? { clients: 0, brokers: 0 };
}

export interface MonthRow {
  /** The first day of the month, 'YYYY-MM-01'. */
  month: string;
  count: number;
  amount: string;
}

/**
 * Live reservations and the commissions of those sold with a broker, per month of
 * `reservation_date`, for months in [from, to). Months without reservations are absent.
 */
export async function listMonthlyFigures(db: Executor, from: string, to: string): Promise<MonthRow[]> {
  return queryRows<MonthRow>(
    db,
    sql`
      select month, reservations as count, commission_amount::text as amount
        from dashboard_month_figures
       where month >= ${from}::date and month < ${to}::date and reservations > 0
       order by month`,
  );
}

export interface BrokerRow {
  id: string;
  name: string;
  reservations: number;
  commissions: string;
}

/**
 * The brokers with the most commission (UF) on live reservations (ties by name), with how many
 * live reservations each has: the top of dashboard_broker_figures_top_idx.
 */
export async function listTopBrokersByCommission(db: Executor, limit: number): Promise<BrokerRow[]> {
  return queryRows<BrokerRow>(
    db,
    sql`
      select b.id, b.name, f.reservations, f.commission_amount::text as commissions
        from dashboard_broker_figures f
        join brokers b on b.id = f.broker_id
       where f.commissions > 0
       order by f.commission_amount desc, b.name, b.id
       limit ${limit}`,
  );
}

/**
 * Brokers with live reservations but no commission yet, by number of reservations: they complete
 * the Top Brokers while fewer brokers than that have commissions (a young database).
 */
export async function listBrokersWithoutCommission(db: Executor, limit: number): Promise<BrokerRow[]> {
  return queryRows<BrokerRow>(
    db,
    sql`
      select b.id, b.name, f.reservations, '0' as commissions
        from dashboard_broker_figures f
        join brokers b on b.id = f.broker_id
       where f.commissions = 0 and f.reservations > 0
       order by f.reservations desc, b.name, b.id
       limit ${limit}`,
  );
}

export interface RecentReservationRow {
  id: string;
  reservationNumber: string;
  projectName: string;
  projectStage: string;
  apartmentNumber: string;
  clientName: string;
  sellerName: string | null;
  brokerName: string | null;
  totalPrice: string;
  reservationDate: string;
  isRescinded: boolean;
  reservationFlowId: string | null;
}

/** The latest reservations entered (reservations_newest_idx), with what the dashboard shows. */
export async function listRecentReservations(db: Executor, limit: number): Promise<RecentReservationRow[]> {
  return queryRows<RecentReservationRow>(
    db,
    sql`
      select r.id, r.reservation_number as "reservationNumber",
             p.name as "projectName", p.stage as "projectStage",
             r.apartment_number as "apartmentNumber",
             c.first_name || ' ' || c.last_name as "clientName",
             case when s.id is null then null else s.first_name || ' ' || s.last_name end as "sellerName",
             b.name as "brokerName",
             r.total_price as "totalPrice", r.reservation_date as "reservationDate",
             r.is_rescinded as "isRescinded", rf.id as "reservationFlowId"
        from (
          -- "nulls last" as in reservations_newest_idx, so the index gives the order.
          select * from reservations order by created_at desc nulls last, id desc nulls last limit ${limit}
        ) r
        join projects p on p.id = r.project_id
        join clients c on c.id = r.client_id
        left join profiles s on s.id = r.seller_id
        left join brokers b on b.id = r.broker_id
        left join flows rf on rf.reservation_id = r.id and rf.kind = 'sale'
       order by r.created_at desc nulls last, r.id desc nulls last`,
  );
}

/**
 * The ids of the latest payment flows: started_at desc nulls last (flows_payment_started_idx is
 * exactly that order), then created_at desc.
 */
export async function listLatestCommissionFlowIds(db: Executor, limit: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`
      select id from flows
       where kind = 'payment'
       order by started_at desc nulls last, created_at desc, id desc
       limit ${limit}`,
  );
  return rows.map((row) => row.id);
}

export interface PaymentRow {
  id: string;
  status: 'pending' | 'in_progress' | 'completed' | 'cancelled';
  isSecondPayment: boolean;
  brokerName: string;
  reservationId: string;
  reservationNumber: string;
  commissionAmount: string;
  numberOfPayments: number;
  firstPaymentPercentage: number;
  payment1Date: string | null;
  payment2Date: string | null;
  taskName: string | null;
  taskStartedAt: string | null;
  taskCompletedAt: string | null;
  taskDaysToComplete: number | null;
  assigneeName: string | null;
}

/**
 * The given payment flows with their commission, broker and reservation, and — for a flow in
 * progress — its current task (the workflow module's rule: the oldest open task).
 */
export async function listPaymentsByIds(db: Executor, ids: string[]): Promise<PaymentRow[]> {
  if (ids.length === 0) return [];
  const idList = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  return queryRows<PaymentRow>(
    db,
    sql`
      select cf.id, cf.status, cf.is_second_payment as "isSecondPayment",
             b.name as "brokerName", r.id as "reservationId", r.reservation_number as "reservationNumber",
             bc.commission_amount as "commissionAmount", bc.number_of_payments::int as "numberOfPayments",
             bc.first_payment_percentage::int as "firstPaymentPercentage",
             bc.payment_1_date as "payment1Date", bc.payment_2_date as "payment2Date",
             cur.name as "taskName",
             ${isoInstant(sql`cur.started_at`)} as "taskStartedAt",
             ${isoInstant(sql`cur.completed_at`)} as "taskCompletedAt",
             cur.days_to_complete as "taskDaysToComplete",
             case when a.id is null then null else a.first_name || ' ' || a.last_name end as "assigneeName"
        from flows cf
        join broker_commissions bc on bc.id = cf.broker_commission_id
        join reservations r on r.id = bc.reservation_id
        join brokers b on b.id = bc.broker_id
        left join lateral (${currentTaskOf(sql`cf`)}) cur on true
        left join profiles a on a.id = cur.assignee_id
       where cf.id in (${idList})`,
  );
}
