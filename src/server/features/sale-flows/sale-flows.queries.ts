import { type SQL, sql } from 'drizzle-orm';
import type { SaleFlowListRow, SaleFlowSort } from '../../../shared/schemas/sale-flows';
import { type Executor, isoInstant, queryRows } from '../../db/client';
import { reservationOrder } from '../../db/order';
import { type PageSpec, pageColumn, selectPage } from '../../db/paging';
import { matchesEveryWord } from '../../db/search';

/**
 * The sale flows' reads. This feature writes nothing itself: flow rows are written by the workflows
 * feature, reservation fields by the reservations feature (through their services).
 */

export interface SaleFlowListParams {
  page: number;
  pageSize: number;
  search?: string | undefined;
  sort: SaleFlowSort;
  direction: 'asc' | 'desc';
}

/**
 * Reservations whose client's name (their `search_text`, which each reservation keeps a copy of —
 * decision 0025) holds every word, deleted clients included (they stay on their reservations). The
 * planner chooses: a rare name through reservations_client_search_trgm_idx; a common one (thousands
 * of reservations) by walking the newest reservations until the page is full, each checked on its
 * own row. Undefined when the search has no words.
 */
function clientMatches(search: string | undefined): SQL | undefined {
  return matchesEveryWord(sql`r.client_search_text`, search);
}

/**
 * The list's statement (exported so a test can EXPLAIN it). The page is chosen on reservations and
 * their flows alone (joined to clients or projects only when ordered by them), then only its rows
 * look up what they show: a search matching thousands of clients sorts narrow rows, never joins
 * every match to everything.
 */
export function saleFlowListSql(params: SaleFlowListParams): PageSpec {
  const byClient = params.sort === 'clientName';
  const byProject = params.sort === 'projectName';
  // One sale flow per reservation (flows_sale_reservation_key).
  const chosen = sql`reservations r join flows f on f.reservation_id = r.id and f.kind = 'sale'`;
  return {
    columns: {
      id: sql`f.id`,
      reservationId: sql`r.id`,
      reservationNumber: sql`r.reservation_number`,
      reservationDate: sql`r.reservation_date`,
      clientId: sql`r.client_id`,
      projectId: sql`r.project_id`,
      apartmentNumber: sql`r.apartment_number`,
      currentStageId: sql`f.current_stage_id`,
      status: sql`f.status`,
      isRescinded: sql`r.is_rescinded`,
    } satisfies Partial<Record<keyof SaleFlowListRow, SQL>>,
    // Per row of the page only.
    pageColumns: {
      clientName: sql`(select c.first_name || ' ' || c.last_name from clients c where c.id = ${pageColumn('clientId')})`,
      projectName: sql`(select p.name from projects p where p.id = ${pageColumn('projectId')})`,
      projectStage: sql`(select p.stage from projects p where p.id = ${pageColumn('projectId')})`,
      currentStageName: sql`(select s.name from workflow_stages s where s.id = ${pageColumn('currentStageId')})`,
      // Everyone assigned to one of its tasks (one read of flow_task_assignees_flow_idx), in the
      // order they were first assigned.
      assignees: sql`coalesce((
        select json_agg(json_build_object('id', u.id, 'firstName', u.first_name, 'lastName', u.last_name,
                                          'avatarUrl', u.avatar_url) order by x.first_at, u.id)
          from (select a.user_id, min(a.assigned_at) as first_at
                  from flow_task_assignees a
                 where a.flow_id = ${pageColumn('id')}
                 group by a.user_id) x
          join profiles u on u.id = x.user_id), '[]')`,
    } satisfies Partial<Record<keyof SaleFlowListRow, SQL>>,
    from: byClient
      ? sql`${chosen} join clients c on c.id = r.client_id`
      : byProject
        ? sql`${chosen} join projects p on p.id = r.project_id`
        : chosen,
    // The filter speaks only of r; every reservation has its client and project (NOT NULL foreign
    // keys) and exactly one sale flow (created in the same transaction, flows_sale_reservation_key):
    // the count reads reservations alone.
    countFrom: sql`reservations r`,
    where: clientMatches(params.search),
    orderBy: reservationOrder(params.sort, params.direction),
    page: params.page,
    pageSize: params.pageSize,
  };
}

export function listSaleFlows(db: Executor, params: SaleFlowListParams) {
  return selectPage<SaleFlowListRow>(db, saleFlowListSql(params));
}

// --- Detail ------------------------------------------------------------------------------------

export interface SaleFlowHeader {
  reservation: {
    id: string;
    reservationNumber: string;
    reservationDate: string;
    apartmentNumber: string;
    promiseDate: string | null;
    deedDate: string | null;
    commissionPaymentMonth: string | null;
    commissionProjectionMonth: string | null;
    bankName: string | null;
    bankExecutive: string | null;
    bankExecutiveEmail: string | null;
    bankExecutivePhone: string | null;
    isWithBroker: boolean;
    isRescinded: boolean;
    version: number;
  };
  rescindedAt: string | null;
  rescindedReason: string | null;
  rescindedBy: { id: string; firstName: string; lastName: string } | null;
  client: {
    id: string;
    rut: string;
    firstName: string;
    lastName: string;
    isDeleted: boolean;
    restriction: 'opposition' | 'blocking' | null;
  };
  project: { id: string; name: string; stage: string; deadline: string };
  broker: { id: string; name: string; businessName: string } | null;
  commissionId: string | null;
  paymentFlowId: string | null;
  currentStageName: string | null;
}

/**
 * What the detail shows around a sale flow, in one statement: reservation, client, project, broker,
 * commission and its first payment flow, the current stage's name. Null unless it is a sale flow.
 */
export async function findSaleFlowHeader(db: Executor, flowId: string) {
  const [row] = await queryRows<SaleFlowHeader>(
    db,
    sql`
      select json_build_object(
               'id', r.id, 'reservationNumber', r.reservation_number, 'reservationDate', r.reservation_date,
               'apartmentNumber', r.apartment_number, 'promiseDate', r.promise_date, 'deedDate', r.deed_date,
               'commissionPaymentMonth', r.commission_payment_month,
               'commissionProjectionMonth', r.commission_projection_month,
               'bankName', r.bank_name, 'bankExecutive', r.bank_executive,
               'bankExecutiveEmail', r.bank_executive_email, 'bankExecutivePhone', r.bank_executive_phone,
               'isWithBroker', r.is_with_broker, 'isRescinded', r.is_rescinded, 'version', r.version
             ) as reservation,
             ${isoInstant(sql`r.rescinded_at`)} as "rescindedAt",
             r.rescinded_reason as "rescindedReason",
             -- One small lookup each (by primary or unique key) rather than one wide join: the
             -- statement is planned in a fraction of the time.
             (select json_build_object('id', rb.id, 'firstName', rb.first_name, 'lastName', rb.last_name)
                from profiles rb where rb.id = r.rescinded_by) as "rescindedBy",
             (select json_build_object('id', c.id, 'rut', c.rut, 'firstName', c.first_name,
                                       'lastName', c.last_name, 'isDeleted', c.deleted_at is not null,
                                       'restriction', c.restriction)
                from clients c where c.id = r.client_id) as client,
             (select json_build_object('id', p.id, 'name', p.name, 'stage', p.stage, 'deadline', p.deadline)
                from projects p where p.id = r.project_id) as project,
             (select json_build_object('id', b.id, 'name', b.name, 'businessName', b.business_name)
                from brokers b where b.id = r.broker_id) as broker,
             (select bc.id from broker_commissions bc where bc.reservation_id = r.id) as "commissionId",
             (select pf.id from broker_commissions bc
                join flows pf on pf.kind = 'payment' and pf.broker_commission_id = bc.id and not pf.is_second_payment
               where bc.reservation_id = r.id) as "paymentFlowId",
             (select st.name from workflow_stages st where st.id = f.current_stage_id) as "currentStageName"
        from flows f
        join reservations r on r.id = f.reservation_id
       where f.id = ${flowId} and f.kind = 'sale'`,
  );
  return row ?? null;
}
