import { and, type SQL, sql } from 'drizzle-orm';
import { RESERVATION_STATES } from '../../../shared/domain/figures';
import { searchWords } from '../../../shared/domain/search';
import type { SortDirection } from '../../../shared/schemas/common';
import type {
  BrokerConsolidatedQuery,
  BrokerConsolidatedSort,
  BrokerPaymentsQuery,
  BrokerPaymentsSort,
  BrokersReportQuery,
  BrokersReportSort,
  CommissionReportKind,
  CommissionReportQuery,
  CommissionReportSort,
  ReportDateType,
  SalesReportQuery,
  SalesReportSort,
} from '../../../shared/schemas/reports';
import { type Executor, queryJsonRows, queryRows } from '../../db/client';
import { type PageSpec, pageColumn, selectPageWithSums } from '../../db/paging';
import { PLANNED_PER_RUN } from '../../db/planned-per-run';
import { RESTRICTED_HOLDER } from '../../db/privacy';
import { santiagoDate } from '../../db/santiago-day';
import { escapeLike } from '../../db/search';

/**
 * The reports' reads (spec part 2 §2 'Informes', §7). Every report is one statement per page (the
 * page, its count and its totals over every matching row: `selectPageWithSums` with no cap, since a
 * report's total row must be exact) and, for its export, one statement per keyset chunk of ≤ 2,000
 * rows in the same order. Sort keys are non-null expressions so that `(key, id)` is a keyset.
 */

/** A report's count is not capped: its total row speaks of every matching row. */
const REPORT_CAP = 10_000_000;

/** A sort: its non-null key expression and the type its cursor value is cast to. */
interface SortKey {
  key: SQL;
  type: 'text' | 'numeric' | 'date' | 'integer';
}

/** A report's statement, before paging: what both the page and the export chunks run. */
export interface ReportSql {
  /**
   * The row's columns: alias -> expression. Money (numeric) as text (`::text`), dates as DATE,
   * numbers as integers: the export reads its chunks through `queryJsonRows` (as JSON on the
   * embedded database, where a numeric would become a float); the page reads the same values.
   */
  columns: Record<string, SQL>;
  pageColumns?: Record<string, SQL>;
  /**
   * Looked up once per row after the sort and the limit — a page's or a chunk's rows only, never
   * every row the sort read: each a join on the row's columns (`pageColumn('alias')`) and the
   * columns it gives. Several values of one row (a reservation's number, project and broker) come
   * from one join instead of one sub-select each. A looked-up column is neither a sort key nor a
   * filter. Columns whose alias starts with '__' carry the keys and stay out of the rows.
   */
  lookups?: ReportLookup[];
  from: SQL;
  countFrom?: SQL;
  where: SQL | undefined;
  sort: SortKey;
  /** The unique tie-breaker (a uuid column). */
  id: SQL;
  direction: SortDirection;
  sums?: Record<string, SQL>;
}

export interface ReportLookup {
  join: SQL;
  columns: Record<string, SQL>;
}

const lookupColumns = (report: ReportSql) =>
  Object.assign({}, ...(report.lookups ?? []).map((lookup) => lookup.columns)) as Record<string, SQL>;
const lookupJoins = (report: ReportSql) =>
  sql.join(
    (report.lookups ?? []).map((lookup) => lookup.join),
    sql` `,
  );

/** Descending keys as the `desc` indexes are declared (nulls last), ascending as their backward scan. */
function orderBy(report: ReportSql): SQL[] {
  const dir = report.direction === 'asc' ? sql`asc nulls first` : sql`desc nulls last`;
  return [sql`${report.sort.key} ${dir}`, sql`${report.id} ${dir}`];
}

export function reportPageSql(report: ReportSql, page: number, pageSize: number): PageSpec {
  return {
    columns: report.columns,
    ...(report.pageColumns || report.lookups
      ? { pageColumns: { ...report.pageColumns, ...lookupColumns(report) } }
      : {}),
    ...(report.lookups ? { pageJoins: lookupJoins(report) } : {}),
    from: report.from,
    ...(report.countFrom ? { countFrom: report.countFrom } : {}),
    where: report.where,
    orderBy: orderBy(report),
    page,
    pageSize,
    cap: REPORT_CAP,
    ...(report.sums ? { sums: report.sums } : {}),
  };
}

export async function selectReportPage<Row, Sums extends string>(
  db: Executor,
  report: ReportSql,
  page: number,
  pageSize: number,
) {
  const result = await selectPageWithSums<Row, Sums>(db, reportPageSql(report, page, pageSize) as never);
  return { rows: result.rows, total: result.total, totalIsCapped: result.totalIsCapped, sums: result.sums };
}

/** The export's cursor: the last row's sort key (as text) and id. */
export type ReportCursor = readonly [string, string];

const SORT_ALIAS = '__sort';
const ID_ALIAS = '__id';
const NUMBER_ALIAS = '__n';

/**
 * One keyset chunk of a report: the rows after `after` in the report's order, numbered in that
 * order. Read through `queryJsonRows` (one JSON text on the embedded database, where decoding a
 * 2,000-row chunk column by column cost more than the query), so money columns are text
 * (`ReportSql.columns`); the sort key travels as text for the next chunk's cursor.
 */
export function reportChunkSql(report: ReportSql, after: ReportCursor | null, limit: number): SQL {
  const columns = sql.join(
    Object.entries(report.columns).map(
      ([alias, expression]) => sql`${expression} as ${sql.identifier(alias)}`,
    ),
    sql`, `,
  );
  const cast = sql.raw(report.sort.type);
  const keyset = after
    ? report.direction === 'asc'
      ? sql`(${report.sort.key}, ${report.id}) > (${after[0]}::${cast}, ${after[1]}::uuid)`
      : sql`(${report.sort.key}, ${report.id}) < (${after[0]}::${cast}, ${after[1]}::uuid)`
    : undefined;
  const where = and(report.where, keyset);
  const order = sql.join(orderBy(report), sql`, `);
  const chunk = sql`select ${columns}, (${report.sort.key})::text as ${sql.identifier(SORT_ALIAS)}, ${report.id} as ${sql.identifier(ID_ALIAS)},
       row_number() over (order by ${order}) as ${sql.identifier(NUMBER_ALIAS)}
from ${report.from}${where ? sql` where ${where}` : sql``}
order by ${order}
limit ${limit}`;
  if (!report.lookups) return chunk;
  // The lookups over the chunk's rows, named `page` as on a page (`pageColumn`).
  const looked = sql.join(
    Object.entries(lookupColumns(report)).map(
      ([alias, expression]) => sql`, ${expression} as ${sql.identifier(alias)}`,
    ),
  );
  return sql`select page.*${looked} from (${chunk}) as page ${lookupJoins(report)}
order by page.${sql.identifier(NUMBER_ALIAS)}`;
}

/** A row without the keys and cursor columns ('__…') the statement carried. */
function withoutKeys(row: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (!key.startsWith('__')) kept[key] = value;
  return kept;
}

export async function selectReportChunk<Row>(
  db: Executor,
  report: ReportSql,
  after: ReportCursor | null,
  limit: number,
): Promise<{ rows: Row[]; cursor: ReportCursor | null }> {
  const chunk = await queryJsonRows<Record<string, unknown>>(
    db,
    reportChunkSql(report, after, limit),
    sql`q.${sql.identifier(NUMBER_ALIAS)}`,
  );
  const last = chunk.at(-1);
  const rows = chunk.map((row) => withoutKeys(row) as Row);
  return { rows, cursor: last ? [last[SORT_ALIAS] as string, last[ID_ALIAS] as string] : null };
}

/** The totals of a report over every matching row (what the page's count pass sums): for the export. */
export async function selectReportSums(db: Executor, report: ReportSql): Promise<Record<string, string>> {
  const sums = Object.entries(report.sums ?? {});
  if (sums.length === 0) return {};
  const [row] = await queryRows<Record<string, string>>(
    db,
    sql`select ${sql.join(
      sums.map(
        ([alias, expression]) =>
          sql`coalesce(sum(${expression}), 0)::numeric(20, 2)::text as ${sql.identifier(alias)}`,
      ),
      sql`, `,
    )} from ${report.countFrom ?? report.from}${report.where ? sql` where ${report.where}` : sql``}`,
  );
  return row ?? {};
}

// --- Shared pieces ---------------------------------------------------------------------------

/**
 * The reservation reports read `reservations` alone — filtered, ordered and limited off its indexes —
 * and look the names and the commission up per row by key (postponed past the sort and the limit
 * when the order does not need them): joined, the planner hashed whole tables (every client) for a
 * month of 3,000 reservations.
 */
const RESERVATION_FROM = sql`reservations r`;

/**
 * What the totals read: the reservations with their commission joined (one at most per reservation,
 * so no row is dropped or repeated). Summed through a per-row lookup instead, every date's brokers
 * report probed the commission index 60,000 times (~150 ms on the embedded database); joined, the
 * planner hashes the commissions' narrow index once, or probes it for a few rows.
 */
const WITH_COMMISSION_FROM = sql`reservations r left join broker_commissions bc on bc.reservation_id = r.id`;

// A holder who opposed or blocked processing (Ley 21.719) is not named in reports nor their exports.
const clientName = sql`(select case when c.restriction is null then c.first_name || ' ' || c.last_name
                                    else ${RESTRICTED_HOLDER} end
                          from clients c where c.id = r.client_id)`;
const projectName = sql`(select p.name from projects p where p.id = r.project_id)`;
const brokerName = sql`(select b.name from brokers b where b.id = r.broker_id)`;
const commissionAmount = sql`(select bc.commission_amount from broker_commissions bc where bc.reservation_id = r.id)`;
/**
 * What a figure sums of a reservation (shared/domain/figures.ts `countsInFigures`): a rescinded one
 * stays in the list, with its 'Estado', and out of every total.
 */
const liveSum = (expression: SQL) => sql`case when not r.is_rescinded then ${expression} else 0 end`;
const reservationState = sql`case when r.is_rescinded then ${RESERVATION_STATES.rescinded}
                                  else ${RESERVATION_STATES.live} end`;
const saleFlowOfPage = sql`(select f.id from flows f where f.kind = 'sale' and f.reservation_id = ${pageColumn('reservationId')})`;

const reservationSorts = {
  reservationNumber: { key: sql`r.reservation_number`, type: 'text' },
  clientName: { key: clientName, type: 'text' },
  projectName: { key: projectName, type: 'text' },
  apartmentNumber: { key: sql`r.apartment_number`, type: 'text' },
  brokerName: { key: sql`coalesce(${brokerName}, '')`, type: 'text' },
  commissionAmount: { key: sql`coalesce(${commissionAmount}, 0)`, type: 'numeric' },
  reservationDate: { key: sql`r.reservation_date`, type: 'date' },
  promiseDate: { key: sql`coalesce(r.promise_date, date '0001-01-01')`, type: 'date' },
  deedDate: { key: sql`coalesce(r.deed_date, date '0001-01-01')`, type: 'date' },
  totalPayment: { key: sql`r.total_payment`, type: 'numeric' },
} satisfies Record<string, SortKey>;

const DATE_COLUMNS: Record<ReportDateType, SQL> = {
  reservation: sql`r.reservation_date`,
  promise: sql`r.promise_date`,
  deed: sql`r.deed_date`,
};

function dateRange(dateType: ReportDateType, fromDate: string | undefined, toDate: string | undefined) {
  const column = DATE_COLUMNS[dateType];
  // Its selectivity is the whole plan (a week, or every date): PostgreSQL plans it at each run (0047).
  return and(
    fromDate ? sql`${PLANNED_PER_RUN} ${column} >= ${fromDate}::date` : undefined,
    toDate ? sql`${PLANNED_PER_RUN} ${column} <= ${toDate}::date` : undefined,
  );
}

// --- Informe de Comisiones / Proyección Comisiones ------------------------------------------

const MONTH_COLUMNS: Record<CommissionReportKind, string> = {
  payment: 'commission_payment_month',
  projection: 'commission_projection_month',
};

/**
 * The months that have data, newest first: a skip scan of the month's index (one index probe per
 * month instead of reading every reservation).
 */
export async function listMonths(db: Executor, kind: CommissionReportKind): Promise<string[]> {
  const column = sql.identifier(MONTH_COLUMNS[kind]);
  const rows = await queryRows<{ month: string }>(
    db,
    sql`with recursive months(month) as (
      (select ${column} from reservations where ${column} is not null order by ${column} desc limit 1)
      union all
      select (select r.${column} from reservations r where r.${column} < months.month order by r.${column} desc limit 1)
        from months where months.month is not null
    )
    select month from months where month is not null`,
  );
  return rows.map((row) => row.month);
}

// --- Pesos (issue 33, decision 0034) ----------------------------------------------------------

/**
 * A commission's payments in pesos, over `bc` (shared/domain/uf.ts `paymentUf`, `ufToClp`, in SQL; a
 * test holds the two equal): a paid payment's frozen pesos, an unpaid one at today's value (round()
 * of a positive numeric is half-up). Null pesos when a needed day has no value.
 */
export const firstPaymentUf = sql`round(bc.commission_amount * (case when bc.number_of_payments = 1 then 100 else bc.first_payment_percentage end) / 100.0, 2)`;
const paymentPesos = (payment: 1 | 2, todayUf: SQL) =>
  payment === 1
    ? sql`(case when bc.payment_1_date is not null then bc.payment_1_clp else round(${firstPaymentUf} * ${todayUf}, 0) end)`
    : sql`(case when bc.number_of_payments = 1 then 0 when bc.payment_2_date is not null then bc.payment_2_clp
            else round((bc.commission_amount - ${firstPaymentUf}) * ${todayUf}, 0) end)`;

/** Words of the 'CLP' column. */
export const CLP_STATE_LABELS = {
  paid: 'Pagado',
  estimated: 'Estimado',
  missing: 'Valor UF no disponible',
} as const;

/**
 * A commission's pesos over `bc` and today's value `tu.value`: the amount, the UF value used (today's
 * while any part is unpaid) and how it stands; each figure computed once (a lateral row, `c`). A page
 * reads them as one JSON value looked up per row, an export as three columns (null without a
 * commission) of its joined commission (`commissionReportSql`).
 */
const commissionPesosJson = sql`json_build_object(
    'clpAmount', c.clp::text, 'ufValue', c.value::text,
    'clpState', case when c.clp is null then ${CLP_STATE_LABELS.missing}
                     when c.estimated then ${CLP_STATE_LABELS.estimated} else ${CLP_STATE_LABELS.paid} end)`;
const commissionPesosColumns = {
  clpAmount: sql`c.clp::text`,
  ufValue: sql`c.value::text`,
  clpState: sql`case when bc.id is null then null when c.clp is null then ${CLP_STATE_LABELS.missing}
                     when c.estimated then ${CLP_STATE_LABELS.estimated} else ${CLP_STATE_LABELS.paid} end`,
};
const commissionPesosRow = sql`lateral (
    select ${paymentPesos(1, sql`tu.value`)} + ${paymentPesos(2, sql`tu.value`)} as clp,
           (bc.payment_1_date is null or (bc.number_of_payments = 2 and bc.payment_2_date is null)) as estimated,
           case when bc.payment_1_date is null or (bc.number_of_payments = 2 and bc.payment_2_date is null)
                then tu.value else coalesce(bc.payment_2_uf_value, bc.payment_1_uf_value) end as value) c`;

/**
 * One payment's pesos over `bc` and its row's `page."__secondPayment"`: its UF, the UF value used
 * (today's `tu.value` while unpaid, the frozen one once paid), the pesos and how they stand. Each
 * figure is computed once (a lateral row), and today's value is a one-row join of the statement: as
 * a sub-select inside a per-row lookup it was read again for every row and every use (×1.45).
 */
const paymentPesosColumns = {
  paymentUf: sql`pp.uf::text`,
  clpAmount: sql`pp.clp::text`,
  ufValue: sql`pp.value::text`,
  clpState: sql`case when bc.id is null then null when pp.clp is null then ${CLP_STATE_LABELS.missing}
                     when pp.dated then ${CLP_STATE_LABELS.paid} else ${CLP_STATE_LABELS.estimated} end`,
};
const paymentPesosRow = (isSecond: SQL) => sql`lateral (
    select u.uf, u.dated,
           case when u.dated then u.frozen_clp else round(u.uf * tu.value, 0) end as clp,
           case when u.dated then u.frozen_value else tu.value end as value
      from (select case when ${isSecond} then bc.commission_amount - ${firstPaymentUf} else ${firstPaymentUf} end as uf,
                   (case when ${isSecond} then bc.payment_2_date else bc.payment_1_date end) is not null as dated,
                   case when ${isSecond} then bc.payment_2_clp else bc.payment_1_clp end as frozen_clp,
                   case when ${isSecond} then bc.payment_2_uf_value else bc.payment_1_uf_value end as frozen_value) u
     where bc.id is not null) pp`;

/**
 * The month's reservations (reservations_payment_month_idx, reservations_projection_month_idx), read
 * two ways (the same rows and values; a test holds them equal):
 * - `page` (25–100 rows): the names, the commission and its pesos (one JSON value) looked up per row
 *   by key, postponed by the planner past the sort and the limit.
 * - `export` (2,000-row chunks of the month's thousands): the commission joined once per row (a
 *   lateral probe of its unique key) with today's UF value, the amount, the net and the pesos
 *   (plain columns) read off that one row. Looked up as on a page, the pesos cost a third probe of
 *   the commission, one of the UF values and a JSON value per row: ×1.34–1.51 the chunk without
 *   them (issue 33's target ≤ ×1.10, bench/pesos.ts); joined, ×1.06. A page joined so probed every
 *   row of the month before its limit (×1.4 slower).
 */
export function commissionReportSql(
  query: Pick<CommissionReportQuery, 'kind' | 'month' | 'sort' | 'direction'>,
  today: string,
  read: 'page' | 'export' = 'page',
): ReportSql {
  const joined = read === 'export';
  const amount = joined ? sql`bc.commission_amount` : commissionAmount;
  const netAmount = sql`(r.total_payment - r.subsidy_payment - coalesce(${amount}, 0))`;
  const sorts: Record<CommissionReportSort, SortKey> = {
    ...reservationSorts,
    netAmount: { key: netAmount, type: 'numeric' },
  };
  if (joined) sorts.commissionAmount = { key: sql`coalesce(bc.commission_amount, 0)`, type: 'numeric' };
  return {
    columns: {
      reservationId: sql`r.id`,
      reservationNumber: sql`r.reservation_number`,
      isRescinded: sql`r.is_rescinded`,
      statusLabel: reservationState,
      clientName,
      projectName,
      apartmentNumber: sql`r.apartment_number`,
      brokerName,
      commissionAmount: sql`${amount}::text`,
      netAmount: sql`${netAmount}::numeric(20, 2)::text`,
      ...(joined
        ? commissionPesosColumns
        : {
            pesos: sql`(select ${commissionPesosJson}
              from broker_commissions bc left join uf_values tu on tu.date = ${today}::date, ${commissionPesosRow}
              where bc.reservation_id = r.id)`,
          }),
    },
    pageColumns: { saleFlowId: saleFlowOfPage },
    from: joined
      ? sql`reservations r
          left join lateral (select * from broker_commissions bc where bc.reservation_id = r.id limit 1) bc on true
          left join uf_values tu on tu.date = ${today}::date
          left join ${commissionPesosRow} on true`
      : RESERVATION_FROM,
    where: sql`r.${sql.identifier(MONTH_COLUMNS[query.kind])} = ${`${query.month}-01`}::date`,
    sort: sorts[query.sort],
    id: sql`r.id`,
    direction: query.direction,
    sums: {
      commissionAmount: liveSum(sql`coalesce(${amount}, 0)`),
      netAmount: liveSum(netAmount),
    },
  };
}

// --- Informe de Brokers ----------------------------------------------------------------------

/** Reservations sold with a broker, of one broker (reservations_broker_idx) or a date range. */
export function brokersReportSql(
  query: Omit<BrokersReportQuery, 'page' | 'pageSize' | 'search'> & { sort: BrokersReportSort },
): ReportSql {
  return {
    columns: {
      reservationId: sql`r.id`,
      reservationNumber: sql`r.reservation_number`,
      isRescinded: sql`r.is_rescinded`,
      statusLabel: reservationState,
      clientName,
      projectName,
      brokerName,
      reservationDate: sql`r.reservation_date`,
      promiseDate: sql`r.promise_date`,
      deedDate: sql`r.deed_date`,
      commissionAmount: sql`${commissionAmount}::text`,
    },
    pageColumns: { saleFlowId: saleFlowOfPage },
    from: RESERVATION_FROM,
    countFrom: WITH_COMMISSION_FROM,
    where: and(
      sql`r.is_with_broker`,
      query.brokerId ? sql`r.broker_id = ${query.brokerId}` : undefined,
      dateRange(query.dateType, query.fromDate, query.toDate),
    ),
    sort: reservationSorts[query.sort],
    id: sql`r.id`,
    direction: query.direction,
    sums: { commissionAmount: liveSum(sql`coalesce(bc.commission_amount, 0)`) },
  };
}

// --- Informe de Ventas -----------------------------------------------------------------------

/** Every reservation of a project (reservations_project_idx) or a date range, with the money sums. */
export function salesReportSql(
  query: Omit<SalesReportQuery, 'page' | 'pageSize' | 'search'> & { sort: SalesReportSort },
): ReportSql {
  return {
    columns: {
      reservationId: sql`r.id`,
      reservationNumber: sql`r.reservation_number`,
      isRescinded: sql`r.is_rescinded`,
      statusLabel: reservationState,
      clientName,
      projectName,
      apartmentNumber: sql`r.apartment_number`,
      brokerName,
      reservationDate: sql`r.reservation_date`,
      promiseDate: sql`r.promise_date`,
      deedDate: sql`r.deed_date`,
      totalPayment: sql`r.total_payment::text`,
    },
    pageColumns: { saleFlowId: saleFlowOfPage },
    from: RESERVATION_FROM,
    where: and(
      query.projectId ? sql`r.project_id = ${query.projectId}` : undefined,
      dateRange(query.dateType, query.fromDate, query.toDate),
    ),
    sort: reservationSorts[query.sort],
    id: sql`r.id`,
    direction: query.direction,
    sums: {
      totalPrice: liveSum(sql`r.total_price`),
      minimumPrice: liveSum(sql`r.minimum_price`),
      totalPayment: liveSum(sql`r.total_payment`),
    },
  };
}

// --- Informe de Pagos Brokers ----------------------------------------------------------------

/** The Santiago calendar day of an instant. */
const santiagoDay = (instant: SQL) => santiagoDate(instant);

/**
 * The open tasks (pending or in progress) of payment flows in progress, with the days since the task
 * (or, before it opened, its flow) started on the Santiago calendar, and its days late
 * (workflows.md §3: only a started task with a deadline can be late).
 */
export function brokerPaymentsSql(
  query: Pick<BrokerPaymentsQuery, 'search' | 'sort' | 'direction'>,
  today: string,
): ReportSql {
  const daysPending = sql`(${today}::date - ${santiagoDay(sql`coalesce(ft.started_at, ft.flow_started_at, ft.flow_created_at)`)})`;
  const daysLate = sql`(case when ft.started_at is null or ft.days_to_complete is null then 0
    else greatest(0, ${today}::date - ${santiagoDay(sql`ft.started_at`)} - ft.days_to_complete) end)`;
  // The reservation's fields for the sorts and the search, which need them before the limit (a few
  // thousand open tasks at 100,000 reservations); the row's columns come from `lookups` below.
  const ofReservation = (expression: SQL) =>
    sql`(select ${expression} from reservations r where r.id = ft.reservation_id)`;
  const reservationNumber = ofReservation(sql`r.reservation_number`);
  const projectName = ofReservation(sql`(select p.name from projects p where p.id = r.project_id)`);
  const brokerName = ofReservation(sql`(select b.name from brokers b where b.id = r.broker_id)`);
  const sorts: Record<BrokerPaymentsSort, SortKey> = {
    daysPending: { key: daysPending, type: 'integer' },
    daysLate: { key: daysLate, type: 'integer' },
    reservationNumber: { key: reservationNumber, type: 'text' },
    projectName: { key: projectName, type: 'text' },
    brokerName: { key: sql`coalesce(${brokerName}, '')`, type: 'text' },
    taskName: { key: sql`wt.name`, type: 'text' },
  };
  // Every word in the number, apartment, project, broker or task (accents and case folded).
  const text = sql`lower(translate(${ofReservation(
    sql`r.reservation_number || ' ' || r.apartment_number || ' '
      || (select p.name from projects p where p.id = r.project_id) || ' '
      || coalesce((select b.name from brokers b where b.id = r.broker_id), '')`,
  )} || ' ' || wt.name, 'ÁÉÍÓÚÜÑáéíóúüñ', 'AEIOUUNaeiouun'))`;
  const words = searchWords(query.search);
  const reservationId = pageColumn('__reservationId');
  return {
    columns: {
      flowTaskId: sql`ft.id`,
      flowId: sql`ft.flow_id`,
      __reservationId: sql`ft.reservation_id`,
      __secondPayment: sql`ft.is_second_payment`,
      paymentLabel: sql`case when ft.is_second_payment then 'Pago 2' else 'Pago 1' end`,
      stageName: sql`ws.name`,
      taskName: sql`wt.name`,
      startedDate: santiagoDay(sql`ft.started_at`),
      daysToComplete: sql`ft.days_to_complete`,
      daysPending,
      daysLate,
      assigneeName: sql`(select pr.first_name || ' ' || pr.last_name from flow_task_assignees a
        join profiles pr on pr.id = a.user_id where a.flow_task_id = ft.id order by a.assigned_at limit 1)`,
    },
    // The row's reservation (with its project and broker) and its commission, read once per row of
    // the page or chunk: as four sub-selects of the reservation and one of the commission per row, a
    // 2,000-row chunk took 112 ms with the pesos and 77 without; so, 74 and 60 (PostgreSQL, bench
    // scale, 2026-11-27). The commission is the reservation's (one per reservation: its unique key).
    lookups: [
      {
        join: sql`left join reservations r on r.id = ${reservationId}
          left join projects p on p.id = r.project_id
          left join brokers b on b.id = r.broker_id`,
        columns: {
          reservationNumber: sql`r.reservation_number`,
          projectName: sql`p.name`,
          apartmentNumber: sql`r.apartment_number`,
          brokerName: sql`b.name`,
        },
      },
      {
        join: sql`left join broker_commissions bc on bc.reservation_id = ${reservationId}
          left join uf_values tu on tu.date = ${today}::date
          left join ${paymentPesosRow(pageColumn('__secondPayment'))} on true`,
        columns: paymentPesosColumns,
      },
    ],
    // The open task rows of each task of the payment workflows (flow_tasks_open_idx: a range per
    // task, a few thousand rows at 100,000 reservations), kept when their flow is in progress. Read
    // from the flows' side instead, each in-progress flow's ~20 task rows were probed to find ~1
    // open one, or (as the planner preferred) every task row was scanned.
    from: sql`workflows w
      join workflow_stages ws on ws.workflow_id = w.id
      join workflow_tasks wt on wt.stage_id = ws.id
      join open_flow_tasks ft on ft.task_id = wt.id`,
    where: and(
      sql`w.kind = 'payment' and ft.kind = 'payment'`,
      sql`not wt.is_retired`,
      ...words.map((word) => sql`${text} like ${`%${escapeLike(word)}%`}`),
    ),
    sort: sorts[query.sort],
    id: sql`ft.id`,
    direction: query.direction,
  };
}

// --- Consolidado Brokers ---------------------------------------------------------------------

const firstPart = firstPaymentUf;
/** The dated payments of the commission (shared/domain/broker-consolidated.ts, in SQL). */
const paidAmount = sql`((case when bc.payment_1_date is not null then ${firstPart} else 0 end)
  + (case when bc.payment_2_date is not null then bc.commission_amount - ${firstPart} else 0 end))`;

/** A broker's commissions (broker_commissions_broker_idx). */
export function brokerConsolidatedSql(
  query: Pick<BrokerConsolidatedQuery, 'brokerId' | 'sort' | 'direction'>,
): ReportSql {
  const sorts: Record<BrokerConsolidatedSort, SortKey> = {
    ...reservationSorts,
    commissionAmount: { key: sql`bc.commission_amount`, type: 'numeric' },
    payment1Date: { key: sql`coalesce(bc.payment_1_date, date '0001-01-01')`, type: 'date' },
    payment2Date: { key: sql`coalesce(bc.payment_2_date, date '0001-01-01')`, type: 'date' },
    paidAmount: { key: paidAmount, type: 'numeric' },
  };
  return {
    columns: {
      commissionId: sql`bc.id`,
      reservationId: sql`r.id`,
      reservationNumber: sql`r.reservation_number`,
      isRescinded: sql`r.is_rescinded`,
      clientName,
      projectName,
      apartmentNumber: sql`r.apartment_number`,
      commissionAmount: sql`bc.commission_amount::text`,
      numberOfPayments: sql`bc.number_of_payments::int`,
      firstPaymentPercentage: sql`bc.first_payment_percentage::int`,
      payment1Date: sql`bc.payment_1_date`,
      payment2Date: sql`bc.payment_2_date`,
      paidAmount: sql`${paidAmount}::numeric(20, 2)::text`,
      // The pesos paid: the frozen amounts of the dated payments (null when a paid day had no UF value).
      paidClp: sql`((case when bc.payment_1_date is not null then bc.payment_1_clp else 0 end)
        + (case when bc.payment_2_date is not null then bc.payment_2_clp else 0 end))::text`,
      atRisk: sql`bc.at_risk`,
      atRiskReason: sql`bc.at_risk_reason`,
      version: sql`bc.version`,
    },
    pageColumns: {
      firstFlowId: sql`(select f.id from flows f where f.kind = 'payment' and f.broker_commission_id = ${pageColumn('commissionId')} and not f.is_second_payment)`,
    },
    from: sql`broker_commissions bc join reservations r on r.id = bc.reservation_id`,
    where: sql`bc.broker_id = ${query.brokerId}`,
    sort: sorts[query.sort],
    id: sql`bc.id`,
    direction: query.direction,
    sums: {
      totalCommission: liveSum(sql`case when not bc.at_risk then bc.commission_amount else 0 end`),
      totalPaid: liveSum(sql`case when not bc.at_risk then ${paidAmount} else 0 end`),
      totalAtRisk: liveSum(sql`case when bc.at_risk then ${paidAmount} else 0 end`),
    },
  };
}

/** The reservation's row locked for a change of its commission's risk, with what the rule reads. */
export async function brokerExists(db: Executor, brokerId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(db, sql`select id from brokers where id = ${brokerId}`);
  return rows.length > 0;
}
