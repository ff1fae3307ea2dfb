import { type SQL, sql } from 'drizzle-orm';
import type { CommissionPayments } from '../../../shared/domain/uf';
import type { TaskStatus } from '../../../shared/domain/workflow/statuses';
import { type Executor, isoInstant, queryRows } from '../../db/client';
import { type PageSpec, pageColumn, selectPage } from '../../db/paging';
import { RESTRICTED_HOLDER } from '../../db/privacy';
import { matchesEveryWord } from '../../db/search';
import { pendingTaskRowsOf } from '../workflows/workflows.service';

/**
 * The approvals' reads (spec part 2 'Aprobación de Liquidaciones'). This feature writes nothing itself:
 * approving and rejecting are commands of the workflows feature (DESIGN §10).
 */

export interface ApprovalListParams {
  userId: string;
  page: number;
  pageSize: number;
  search?: string | undefined;
  /** An approval task's name; undefined: every approval. */
  approval?: string | undefined;
}

export interface ApprovalCommissionRow {
  commissionAmount: string;
  commissionIncludesTax: boolean;
  paysSecondary: boolean;
  numberOfPayments: number | string;
  firstPaymentPercentage: number | string;
  minimumPrice: string;
  recoveryPayment: string;
  parkingPrice: string;
  storagePrice: string;
}

export interface ApprovalListDbRow {
  taskId: string;
  flowId: string;
  taskName: string;
  status: TaskStatus;
  startedAt: string | null;
  daysToComplete: number | null;
  /** Looked up for the page's rows only. */
  subject: {
    reservationId: string;
    reservationNumber: string;
    apartmentNumber: string;
    clientName: string;
    clientRut: string;
    projectName: string;
    brokerName: string | null;
    isSecondPayment: boolean;
    commission: ApprovalCommissionRow;
  };
}

/** What a search reads of an approval's reservation (folded as the `search_text` columns are). */
const searchable = sql`(lower(r.reservation_number) || ' ' || lower(r.apartment_number) || ' ' || c.search_text
  || ' ' || lower(translate(coalesce(p.name, '') || ' ' || coalesce(b.name, '') || ' ' || coalesce(b.business_name, ''),
                            'ÁÉÍÓÚÜÑáéíóúüñ', 'AEIOUUNaeiouun')))`;

/** An approval's reservation, client, project, broker and commission, looked up by its flow's id. */
function subjectOf(flowId: SQL): SQL {
  return sql`(select json_build_object(
      'reservationId', r.id, 'reservationNumber', r.reservation_number, 'apartmentNumber', r.apartment_number,
      -- A holder who opposed or blocked processing (Ley 21.719) is not named in the list nor its export.
      'clientName', case when c.restriction is null then c.first_name || ' ' || c.last_name else ${RESTRICTED_HOLDER} end,
      'clientRut', case when c.restriction is null then c.rut else ${RESTRICTED_HOLDER} end, 'projectName', p.name,
      'brokerName', (select b.name from brokers b where b.id = r.broker_id),
      'isSecondPayment', f.is_second_payment,
      'commission', json_build_object(
        'commissionAmount', bc.commission_amount::text, 'commissionIncludesTax', bc.commission_includes_tax,
        'paysSecondary', bc.pays_secondary, 'numberOfPayments', bc.number_of_payments,
        'firstPaymentPercentage', bc.first_payment_percentage,
        'minimumPrice', r.minimum_price::text, 'recoveryPayment', r.recovery_payment::text,
        'parkingPrice', r.parking_price::text, 'storagePrice', r.storage_price::text))
    from flows f
    join broker_commissions bc on bc.id = f.broker_commission_id
    join reservations r on r.id = f.reservation_id
    join clients c on c.id = r.client_id
    join projects p on p.id = r.project_id
   where f.id = ${flowId})`;
}

/** The list's order: the longest waiting first (an open task always has a start), then the task row. */
const waitingSince = sql`coalesce(pt.started_at, 'infinity'::timestamptz)`;

/**
 * The list's statement (exported so a test can EXPLAIN it): the user's pending set (workflows.md §6,
 * `pendingTaskRowsOf`: their own assignments, flow_task_assignees_user_idx, not completed nor blocked,
 * of flows in progress) narrowed to approval tasks, oldest first (the longest waiting on top). The page
 * is chosen on those few joins alone — the set is the user's own work (tens of rows), so ordering it
 * costs nothing, and a short join list keeps the planning short (on the embedded database a join of
 * nine tables, twice in the statement, took longer to plan than to run); a search looks at each
 * candidate's reservation by its key. The page's rows then look up reservation, client, project,
 * broker and commission in one keyed subquery each.
 */
export function approvalListSql(params: ApprovalListParams): PageSpec {
  const filters: SQL[] = [sql`t.is_approval`, sql`pt.kind = 'payment'`];
  if (params.approval) filters.push(sql`t.name = ${params.approval}`);
  const search = params.search ? matchesEveryWord(searchable, params.search) : undefined;
  if (search) {
    filters.push(sql`exists (select 1 from reservations r
                              join clients c on c.id = r.client_id
                              join projects p on p.id = r.project_id
                              left join brokers b on b.id = r.broker_id
                             where r.id = pt.reservation_id and ${search})`);
  }
  return {
    columns: {
      taskId: sql`pt.task_row_id`,
      flowId: sql`pt.flow_id`,
      taskName: sql`t.name`,
      status: sql`pt.status`,
      startedAt: isoInstant(sql`pt.started_at`),
      daysToComplete: sql`pt.days_to_complete`,
    },
    pageColumns: { subject: subjectOf(pageColumn('flowId')) },
    from: sql`(${pendingTaskRowsOf(params.userId)}) as pt join workflow_tasks t on t.id = pt.task_id`,
    where: sql.join(filters, sql` and `),
    orderBy: [waitingSince, sql`pt.task_row_id`],
    page: params.page,
    pageSize: params.pageSize,
  };
}

export function listApprovals(db: Executor, params: ApprovalListParams) {
  return selectPage<ApprovalListDbRow>(db, approvalListSql(params));
}

export interface ApprovalCursor {
  /** The start as PostgreSQL writes it (microseconds kept: the next chunk starts exactly after it). */
  waitingSince: string;
  taskId: string;
}

/**
 * One chunk of the export, in the list's order, after the cursor (keyset: one statement per chunk of
 * at most `limit` rows, DESIGN §6).
 */
export async function listApprovalChunk(
  db: Executor,
  params: Omit<ApprovalListParams, 'page' | 'pageSize'>,
  after: ApprovalCursor | null,
  limit: number,
): Promise<(ApprovalListDbRow & { cursor: ApprovalCursor })[]> {
  const spec = approvalListSql({ ...params, page: 1, pageSize: limit });
  const keyset = after
    ? sql` and (${waitingSince}, pt.task_row_id) > (${after.waitingSince}::timestamptz, ${after.taskId}::uuid)`
    : sql``;
  const columns = sql.join(
    Object.entries(spec.columns).map(([alias, expression]) => sql`${expression} as ${sql.identifier(alias)}`),
    sql`, `,
  );
  const rows = await queryRows<ApprovalListDbRow & { cursorAt: string }>(
    db,
    sql`select ${columns}, ${subjectOf(sql`pt.flow_id`)} as subject, (${waitingSince})::text as "cursorAt"
          from ${spec.from}
         where ${spec.where}${keyset}
         order by ${sql.join(spec.orderBy, sql`, `)}
         limit ${limit}`,
  );
  return rows.map(({ cursorAt, ...row }) => ({
    ...row,
    cursor: { waitingSince: cursorAt, taskId: row.taskId },
  }));
}

/**
 * The approvals of the chain (every approval task of the payment workflows, in flow order, named once)
 * with how many of each are open for the user.
 */
export async function approvalKindsOf(
  db: Executor,
  userId: string,
): Promise<{ name: string; pending: number }[]> {
  return queryRows<{ name: string; pending: number }>(
    db,
    sql`
      with mine as (select pt.task_id, count(*)::int as n from (${pendingTaskRowsOf(userId)}) as pt group by pt.task_id)
      select t.name, coalesce(sum(mine.n), 0)::int as pending
        from workflows w
        join workflow_stages s on s.workflow_id = w.id
        join workflow_tasks t on t.stage_id = s.id and t.is_approval
        left join mine on mine.task_id = t.id
       where w.kind = 'payment'
       group by t.name
       order by min(w.name), min(s.sort_order), min(t.sort_order)`,
  );
}

/** Whether a name is an approval task's (the list's filter). */
export async function isApprovalName(db: Executor, name: string): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(
    db,
    sql`select exists (select 1 from workflow_tasks t where t.name = ${name} and t.is_approval) as found`,
  );
  return row?.found === true;
}

/** The flow of an approval task row of a payment flow; null when the row is no such task. */
export async function findApprovalTask(
  db: Executor,
  taskRowId: string,
): Promise<{ flowId: string; name: string } | null> {
  const [row] = await queryRows<{ flowId: string; name: string }>(
    db,
    sql`select ft.flow_id as "flowId", t.name
          from flow_tasks ft
          join workflow_tasks t on t.id = ft.task_id and t.is_approval
          join flows f on f.id = ft.flow_id and f.kind = 'payment'
         where ft.id = ${taskRowId}`,
  );
  return row ?? null;
}

export interface ApprovalHeader {
  client: { id: string; firstName: string; lastName: string; rut: string };
  broker: { id: string; name: string; businessName: string } | null;
  reservation: {
    id: string;
    reservationNumber: string;
    reservationDate: string;
    promiseDate: string | null;
    deedDate: string | null;
    projectName: string;
    projectStage: string;
    apartmentNumber: string;
    parkingNumber: string | null;
    storageNumber: string | null;
    sellerName: string | null;
    isRescinded: boolean;
  };
  prices: {
    apartmentPrice: string;
    parkingPrice: string;
    storagePrice: string;
    columnDiscount: string;
    additionalDiscount: string;
    otherDiscount: string;
    reservationPayment: string;
    promisePayment: string;
    downPayment: string;
    creditPayment: string;
    subsidyPayment: string;
  };
  commission: CommissionPayments & {
    commissionAmount: string;
    commissionIncludesTax: boolean;
    commissionForDiscount: boolean;
    paysSecondary: boolean;
    numberOfPayments: number | string;
    firstPaymentPercentage: number | string;
    atRisk: boolean;
    atRiskReason: string | null;
  };
  /** Today's UF value (the app's day), or null: 'Valor UF no disponible'. */
  ufToday: string | null;
  /** The newest rejection of each task row of the flow (flow_task_rejections). */
  rejections: {
    taskId: string;
    reason: string;
    at: string;
    by: { id: string; firstName: string; lastName: string } | null;
  }[];
}

/**
 * What the approval detail shows around the flow, in one statement: client, broker, reservation,
 * prices and payments, commission, and each task's newest rejection (flow_task_rejections_flow_idx).
 * Null unless the flow is a payment flow with its commission.
 */
export async function findApprovalHeader(
  db: Executor,
  flowId: string,
  today: string,
): Promise<ApprovalHeader | null> {
  const [row] = await queryRows<ApprovalHeader>(
    db,
    sql`
      select json_build_object('id', c.id, 'firstName', c.first_name, 'lastName', c.last_name, 'rut', c.rut) as client,
             (select json_build_object('id', b.id, 'name', b.name, 'businessName', b.business_name)
                from brokers b where b.id = r.broker_id) as broker,
             json_build_object(
               'id', r.id, 'reservationNumber', r.reservation_number, 'reservationDate', r.reservation_date,
               'promiseDate', r.promise_date, 'deedDate', r.deed_date,
               'projectName', p.name, 'projectStage', p.stage, 'apartmentNumber', r.apartment_number,
               'parkingNumber', r.parking_number, 'storageNumber', r.storage_number,
               'sellerName', (select u.first_name || ' ' || u.last_name from profiles u where u.id = r.seller_id),
               'isRescinded', r.is_rescinded) as reservation,
             json_build_object(
               'apartmentPrice', r.apartment_price::text, 'parkingPrice', r.parking_price::text,
               'storagePrice', r.storage_price::text, 'columnDiscount', r.column_discount::text,
               'additionalDiscount', r.additional_discount::text, 'otherDiscount', r.other_discount::text,
               'reservationPayment', r.reservation_payment::text, 'promisePayment', r.promise_payment::text,
               'downPayment', r.down_payment::text, 'creditPayment', r.credit_payment::text,
               'subsidyPayment', r.subsidy_payment::text) as prices,
             json_build_object(
               'commissionAmount', bc.commission_amount::text, 'commissionIncludesTax', bc.commission_includes_tax,
               'commissionForDiscount', bc.commission_for_discount, 'paysSecondary', bc.pays_secondary,
               'numberOfPayments', bc.number_of_payments, 'firstPaymentPercentage', bc.first_payment_percentage,
               'atRisk', bc.at_risk, 'atRiskReason', bc.at_risk_reason,
               'payment1Date', bc.payment_1_date, 'payment2Date', bc.payment_2_date,
               'payment1Clp', bc.payment_1_clp::text, 'payment1UfValue', bc.payment_1_uf_value::text,
               'payment2Clp', bc.payment_2_clp::text, 'payment2UfValue', bc.payment_2_uf_value::text) as commission,
             (select u.value::text from uf_values u where u.date = ${today}::date) as "ufToday",
             coalesce((
               select json_agg(json_build_object('taskId', x.flow_task_id, 'reason', x.reason,
                                                 'at', ${isoInstant(sql`x.rejected_at`)},
                                                 'by', (select json_build_object('id', u.id, 'firstName', u.first_name,
                                                                                 'lastName', u.last_name)
                                                          from profiles u where u.id = x.rejected_by)))
                 from (select distinct on (rj.flow_task_id) rj.*
                         from flow_task_rejections rj where rj.flow_id = f.id
                        order by rj.flow_task_id, rj.rejected_at desc, rj.id desc) x), '[]') as rejections
        from flows f
        join broker_commissions bc on bc.id = f.broker_commission_id
        join reservations r on r.id = f.reservation_id
        join clients c on c.id = r.client_id
        join projects p on p.id = r.project_id
       where f.id = ${flowId} and f.kind = 'payment'`,
  );
  return row ?? null;
}

/** People by id (the chain's approvers and assignees), deactivated ones included. */
export async function listPeopleByIds(
  db: Executor,
  ids: readonly string[],
): Promise<{ id: string; firstName: string; lastName: string }[]> {
  if (ids.length === 0) return [];
  return queryRows<{ id: string; firstName: string; lastName: string }>(
    db,
    sql`select u.id, u.first_name as "firstName", u.last_name as "lastName" from profiles u
         where u.id in (${sql.join(
           [...new Set(ids)].map((id) => sql`${id}::uuid`),
           sql`, `,
         )})`,
  );
}
