import { type SQL, sql } from 'drizzle-orm';
import type { CommissionPayments } from '../../../shared/domain/uf';
import type { FlowStatus } from '../../../shared/domain/workflow/statuses';
import { type Executor, queryRows } from '../../db/client';
import { type PageSpec, pageColumn, selectPage } from '../../db/paging';
import { containsIgnoringCase } from '../../db/search';

/**
 * The payments' reads (spec part 2 'Pagos'). This feature writes no flow rows (the workflows feature
 * does) and no commission columns (the commissions feature does).
 */

export interface PaymentListParams {
  page: number;
  pageSize: number;
  search?: string | undefined;
  /** Today in Santiago: the day whose UF value estimates unpaid payments. */
  today: string;
}

interface FlowRef {
  id: string;
  status: FlowStatus;
}

export interface PaymentListDbRow {
  reservationId: string;
  reservationNumber: string;
  projectName: string;
  projectStage: string;
  apartmentNumber: string;
  brokerName: string | null;
  isRescinded: boolean;
  commission:
    | (CommissionPayments & {
        id: string;
        commissionAmount: string;
        netCommission: string;
        numberOfPayments: 1 | 2;
        firstPaymentPercentage: 25 | 50 | 100;
        atRisk: boolean;
      })
    | null;
  firstFlow: FlowRef | null;
  secondFlow: FlowRef | null;
  /** Today's UF value (Santiago), or null when not loaded. */
  ufToday: string | null;
}

const paymentFlowRef = (commissionId: SQL, second: boolean) => sql`(
  select json_build_object('id', pf.id, 'status', pf.status) from flows pf
   where pf.kind = 'payment' and pf.broker_commission_id = ${commissionId} and pf.is_second_payment = ${second})`;

/**
 * The list's statement (exported so a test can EXPLAIN it): reservations sold with a broker, newest
 * first (reservations_broker_date_idx), filtered by apartment number
 * (reservations_apartment_trgm_idx); the page's rows then look up their project, broker, commission
 * and its two payment flows (unique keys each).
 */
export function paymentListSql(params: PaymentListParams): PageSpec {
  const search = params.search?.trim();
  const filters = [sql`r.is_with_broker`];
  if (search) filters.push(containsIgnoringCase(sql`r.apartment_number`, search));
  return {
    columns: {
      reservationId: sql`r.id`,
      reservationNumber: sql`r.reservation_number`,
      apartmentNumber: sql`r.apartment_number`,
      isRescinded: sql`r.is_rescinded`,
      projectId: sql`r.project_id`,
      brokerId: sql`r.broker_id`,
    },
    pageColumns: {
      projectName: sql`(select p.name from projects p where p.id = ${pageColumn('projectId')})`,
      projectStage: sql`(select p.stage from projects p where p.id = ${pageColumn('projectId')})`,
      brokerName: sql`(select b.name from brokers b where b.id = ${pageColumn('brokerId')})`,
      commission: sql`(select json_build_object(
          'id', bc.id, 'commissionAmount', bc.commission_amount::text, 'netCommission', bc.net_commission::text,
          'numberOfPayments', bc.number_of_payments, 'firstPaymentPercentage', bc.first_payment_percentage,
          'atRisk', bc.at_risk, 'payment1Date', bc.payment_1_date, 'payment2Date', bc.payment_2_date,
          'payment1Clp', bc.payment_1_clp::text, 'payment1UfValue', bc.payment_1_uf_value::text,
          'payment2Clp', bc.payment_2_clp::text, 'payment2UfValue', bc.payment_2_uf_value::text,
          'firstFlow', ${paymentFlowRef(sql`bc.id`, false)},
          'secondFlow', ${paymentFlowRef(sql`bc.id`, true)})
        from broker_commissions bc where bc.reservation_id = ${pageColumn('reservationId')})`,
      ufToday: sql`(select u.value::text from uf_values u where u.date = ${params.today}::date)`,
    },
    from: sql`reservations r`,
    where: sql.join(filters, sql` and `),
    orderBy: [sql`r.reservation_date desc nulls last`, sql`r.id desc nulls last`],
    page: params.page,
    pageSize: params.pageSize,
  };
}

interface RawPaymentRow
  extends Omit<PaymentListDbRow, 'commission' | 'firstFlow' | 'secondFlow' | 'ufToday'> {
  ufToday: string | null;
  projectId: string;
  brokerId: string | null;
  commission:
    | (NonNullable<PaymentListDbRow['commission']> & {
        firstFlow: FlowRef | null;
        secondFlow: FlowRef | null;
      })
    | null;
}

export async function listPayments(db: Executor, params: PaymentListParams) {
  const page = await selectPage<RawPaymentRow>(db, paymentListSql(params));
  return {
    ...page,
    rows: page.rows.map(({ projectId: _p, brokerId: _b, commission, ...row }): PaymentListDbRow => {
      if (!commission) return { ...row, commission: null, firstFlow: null, secondFlow: null };
      const { firstFlow, secondFlow, ...figures } = commission;
      return {
        ...row,
        commission: {
          ...figures,
          // Integers inside json_build_object: numbers on one engine, strings on the other.
          numberOfPayments: Number(figures.numberOfPayments) as 1 | 2,
          firstPaymentPercentage: Number(figures.firstPaymentPercentage) as 25 | 50 | 100,
        },
        firstFlow,
        secondFlow,
      };
    }),
  };
}

// --- One reservation's commission and payment flows ------------------------------------------------

export interface CommissionSubject {
  reservationId: string;
  isWithBroker: boolean;
  isRescinded: boolean;
  commission: {
    id: string;
    numberOfPayments: 1 | 2;
    payment2Date: string | null;
  } | null;
  firstFlow: FlowRef | null;
  secondFlow: FlowRef | null;
}

/**
 * The reservation, locked (flows of its commission are created one at a time: twenty clicks at once
 * make one flow), with its commission and payment flows.
 */
export async function lockCommissionSubject(
  tx: Executor,
  reservationId: string,
): Promise<CommissionSubject | null> {
  const [row] = await queryRows<CommissionSubject>(
    tx,
    sql`
      select r.id as "reservationId", r.is_with_broker as "isWithBroker", r.is_rescinded as "isRescinded",
             (select json_build_object('id', bc.id, 'numberOfPayments', bc.number_of_payments,
                                       'payment2Date', bc.payment_2_date)
                from broker_commissions bc where bc.reservation_id = r.id) as commission,
             (select json_build_object('id', pf.id, 'status', pf.status)
                from broker_commissions bc
                join flows pf on pf.kind = 'payment' and pf.broker_commission_id = bc.id and not pf.is_second_payment
               where bc.reservation_id = r.id) as "firstFlow",
             (select json_build_object('id', pf.id, 'status', pf.status)
                from broker_commissions bc
                join flows pf on pf.kind = 'payment' and pf.broker_commission_id = bc.id and pf.is_second_payment
               where bc.reservation_id = r.id) as "secondFlow"
        from reservations r
       where r.id = ${reservationId}
         for update of r`,
  );
  if (!row) return null;
  return {
    ...row,
    commission: row.commission
      ? { ...row.commission, numberOfPayments: Number(row.commission.numberOfPayments) as 1 | 2 }
      : null,
  };
}

// --- Detail ------------------------------------------------------------------------------------

export interface PaymentFlowHeader {
  reservation: { id: string; reservationNumber: string; apartmentNumber: string; isRescinded: boolean };
  prices: { minimumPrice: string; recoveryPayment: string; parkingPrice: string; storagePrice: string };
  saleFlowId: string | null;
  client: { id: string; firstName: string; lastName: string; rut: string };
  project: { id: string; name: string; stage: string };
  broker: { id: string; name: string; businessName: string } | null;
  commission: CommissionPayments & {
    id: string;
    commissionAmount: string;
    commissionIncludesTax: boolean;
    paysSecondary: boolean;
    numberOfPayments: 1 | 2;
    firstPaymentPercentage: 25 | 50 | 100;
    atRisk: boolean;
    atRiskReason: string | null;
    version: number;
  };
  firstFlow: FlowRef | null;
  secondFlow: FlowRef | null;
  currentStageName: string | null;
}

/**
 * What the payment flow's screen shows around the flow, in one statement: reservation, client,
 * project, broker, commission, the commission's two flows and the reservation's sale flow. Null
 * unless it is a payment flow.
 */
export async function findPaymentFlowHeader(db: Executor, flowId: string): Promise<PaymentFlowHeader | null> {
  const [row] = await queryRows<PaymentFlowHeader>(
    db,
    sql`
      select json_build_object('id', r.id, 'reservationNumber', r.reservation_number,
                               'apartmentNumber', r.apartment_number, 'isRescinded', r.is_rescinded) as reservation,
             json_build_object('minimumPrice', r.minimum_price::text, 'recoveryPayment', r.recovery_payment::text,
                               'parkingPrice', r.parking_price::text, 'storagePrice', r.storage_price::text) as prices,
             (select sf.id from flows sf where sf.kind = 'sale' and sf.reservation_id = r.id) as "saleFlowId",
             (select json_build_object('id', c.id, 'firstName', c.first_name, 'lastName', c.last_name, 'rut', c.rut)
                from clients c where c.id = r.client_id) as client,
             (select json_build_object('id', p.id, 'name', p.name, 'stage', p.stage)
                from projects p where p.id = r.project_id) as project,
             (select json_build_object('id', b.id, 'name', b.name, 'businessName', b.business_name)
                from brokers b where b.id = r.broker_id) as broker,
             json_build_object('id', bc.id, 'commissionAmount', bc.commission_amount::text,
                               'commissionIncludesTax', bc.commission_includes_tax,
                               'paysSecondary', bc.pays_secondary,
                               'numberOfPayments', bc.number_of_payments,
                               'firstPaymentPercentage', bc.first_payment_percentage,
                               'atRisk', bc.at_risk, 'atRiskReason', bc.at_risk_reason,
                               'payment1Date', bc.payment_1_date, 'payment2Date', bc.payment_2_date,
                               'payment1Clp', bc.payment_1_clp::text, 'payment1UfValue', bc.payment_1_uf_value::text,
                               'payment2Clp', bc.payment_2_clp::text, 'payment2UfValue', bc.payment_2_uf_value::text,
                               'version', bc.version) as commission,
             ${paymentFlowRef(sql`bc.id`, false)} as "firstFlow",
             ${paymentFlowRef(sql`bc.id`, true)} as "secondFlow",
             (select st.name from workflow_stages st where st.id = f.current_stage_id) as "currentStageName"
        from flows f
        join broker_commissions bc on bc.id = f.broker_commission_id
        join reservations r on r.id = f.reservation_id
       where f.id = ${flowId} and f.kind = 'payment'`,
  );
  if (!row) return null;
  return {
    ...row,
    commission: {
      ...row.commission,
      numberOfPayments: Number(row.commission.numberOfPayments) as 1 | 2,
      firstPaymentPercentage: Number(row.commission.firstPaymentPercentage) as 25 | 50 | 100,
    },
  };
}
