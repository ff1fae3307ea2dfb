import { and, eq, sql } from 'drizzle-orm';
import type { CommissionView } from '../../../shared/schemas/reservations';
import { insertRowsAsJson } from '../../db/bulk';
import { type Executor, queryRows } from '../../db/client';
import { brokerCommissions, reservations } from '../../db/schema';

export type CommissionRow = typeof brokerCommissions.$inferSelect;
export type CommissionValues = Omit<
  typeof brokerCommissions.$inferInsert,
  'id' | 'createdAt' | 'updatedAt' | 'version' | 'createdBy' | 'updatedBy' | 'reservationId'
>;

// Spelled out: in a single-table select Drizzle would print the column unqualified, and inside the
// subquery "id" would then mean flows.id.
const hasPaymentFlow = (secondPayment: boolean) =>
  sql<boolean>`exists (select 1 from flows f where f.kind = 'payment'
    and f.broker_commission_id = broker_commissions.id and f.is_second_payment = ${secondPayment})`;

/** The commission as the API shows it: the view's keys mapped to columns, nothing copied by hand. */
const commissionViewColumns = {
  id: brokerCommissions.id,
  brokerId: brokerCommissions.brokerId,
  commissionAmount: brokerCommissions.commissionAmount,
  commissionIncludesTax: brokerCommissions.commissionIncludesTax,
  netCommission: brokerCommissions.netCommission,
  commissionForDiscount: brokerCommissions.commissionForDiscount,
  paysSecondary: brokerCommissions.paysSecondary,
  numberOfPayments: sql<1 | 2>`${brokerCommissions.numberOfPayments}::int`,
  firstPaymentPercentage: sql<25 | 50 | 100>`${brokerCommissions.firstPaymentPercentage}::int`,
  purchaseOrder: brokerCommissions.purchaseOrder,
  invoice1: brokerCommissions.invoice1,
  invoice1Date: brokerCommissions.invoice1Date,
  payment1Date: brokerCommissions.payment1Date,
  invoice2: brokerCommissions.invoice2,
  invoice2Date: brokerCommissions.invoice2Date,
  payment2Date: brokerCommissions.payment2Date,
  difference: brokerCommissions.difference,
  atRisk: brokerCommissions.atRisk,
  atRiskReason: brokerCommissions.atRiskReason,
  penaltyAmount: brokerCommissions.penaltyAmount,
  payment1Clp: brokerCommissions.payment1Clp,
  payment1UfValue: brokerCommissions.payment1UfValue,
  payment2Clp: brokerCommissions.payment2Clp,
  payment2UfValue: brokerCommissions.payment2UfValue,
  version: brokerCommissions.version,
  hasFirstPaymentFlow: hasPaymentFlow(false),
  hasSecondPaymentFlow: hasPaymentFlow(true),
} satisfies Record<keyof StoredCommission, unknown>;

/** The commission as stored, every folio included: the service decides what a user sees of it. */
export type StoredCommission = Omit<CommissionView, 'foliosShown'>;

export async function commissionViewOf(
  db: Executor,
  reservationId: string,
): Promise<StoredCommission | null> {
  const [row] = await db
    .select(commissionViewColumns)
    .from(brokerCommissions)
    .where(eq(brokerCommissions.reservationId, reservationId))
    .limit(1);
  return (row as StoredCommission | undefined) ?? null;
}

export async function commissionRowOf(db: Executor, reservationId: string): Promise<CommissionRow | null> {
  const [row] = await db
    .select()
    .from(brokerCommissions)
    .where(eq(brokerCommissions.reservationId, reservationId))
    .limit(1);
  return row ?? null;
}

/** The commission's reservation, locked: commission writes serialise with the reservation's own. */
export async function lockReservationOf(db: Executor, reservationId: string) {
  const [row] = await db
    .select()
    .from(reservations)
    .where(eq(reservations.id, reservationId))
    .for('update')
    .limit(1);
  return row ?? null;
}

/** The reservation locked (as a rescission locks it), whether it is rescinded, and its commission. */
export async function lockRiskSubject(
  tx: Executor,
  reservationId: string,
): Promise<{ isRescinded: boolean; commissionId: string | null } | null> {
  const [row] = await queryRows<{ isRescinded: boolean; commissionId: string | null }>(
    tx,
    sql`select r.is_rescinded as "isRescinded",
               (select bc.id from broker_commissions bc where bc.reservation_id = r.id) as "commissionId"
          from reservations r where r.id = ${reservationId} for update of r`,
  );
  return row ?? null;
}

/** True when a payment flow of the commission has started or finished (money is moving). */
export async function hasStartedPaymentFlow(db: Executor, commissionId: string): Promise<boolean> {
  const [row] = await queryRows<{ started: boolean }>(
    db,
    sql`select exists (select 1 from flows f where f.kind = 'payment' and f.broker_commission_id = ${commissionId}
          and f.status in ('in_progress', 'completed')) as started`,
  );
  return row?.started === true;
}

export async function insertCommission(
  db: Executor,
  reservationId: string,
  values: CommissionValues,
  actorId: string,
): Promise<CommissionRow> {
  const [row] = await db
    .insert(brokerCommissions)
    .values({ ...values, reservationId, createdBy: actorId, updatedBy: actorId })
    .returning();
  return row!;
}

/** Optimistic update when a version is given (null: the server's own follow-up write). Null when stale. */
export async function updateCommission(
  db: Executor,
  id: string,
  version: number | null,
  values: Partial<CommissionValues>,
  actorId: string | null,
): Promise<CommissionRow | null> {
  const [row] = await db
    .update(brokerCommissions)
    .set({
      ...values,
      updatedBy: actorId,
      updatedAt: sql`now()`,
      version: sql`${brokerCommissions.version} + 1`,
    })
    .where(
      version === null
        ? eq(brokerCommissions.id, id)
        : and(eq(brokerCommissions.id, id), eq(brokerCommissions.version, version)),
    )
    .returning();
  return row ?? null;
}

export async function deleteCommission(db: Executor, id: string): Promise<void> {
  await db.delete(brokerCommissions).where(eq(brokerCommissions.id, id));
}

/** The figures a payment's pesos are computed from. */
export async function findPaymentFigures(db: Executor, commissionId: string) {
  const [row] = await queryRows<{
    commissionAmount: string;
    numberOfPayments: number;
    firstPaymentPercentage: number;
  }>(
    db,
    sql`select commission_amount::text as "commissionAmount", number_of_payments::int as "numberOfPayments",
               first_payment_percentage::int as "firstPaymentPercentage"
          from broker_commissions where id = ${commissionId}`,
  );
  return row
    ? {
        ...row,
        numberOfPayments: Number(row.numberOfPayments),
        firstPaymentPercentage: Number(row.firstPaymentPercentage),
      }
    : null;
}

/** The UF value of a day (the uf-values feature writes them), or null. */
export async function findUfValueOn(db: Executor, date: string): Promise<string | null> {
  const [row] = await queryRows<{ value: string }>(
    db,
    sql`select value::text as value from uf_values where date = ${date}::date`,
  );
  return row?.value ?? null;
}

/** Paid payments whose day had no UF value when they were dated, among some days. */
export function listPaymentsWithoutPesos(db: Executor, dates: readonly string[]) {
  return queryRows<{
    id: string;
    payment: number;
    date: string;
    commissionAmount: string;
    numberOfPayments: number;
    firstPaymentPercentage: number;
  }>(
    db,
    sql`select bc.id, p.payment, p.date::text as date, bc.commission_amount::text as "commissionAmount",
               bc.number_of_payments::int as "numberOfPayments",
               bc.first_payment_percentage::int as "firstPaymentPercentage"
          from broker_commissions bc
          cross join lateral (values (1, bc.payment_1_date, bc.payment_1_clp), (2, bc.payment_2_date, bc.payment_2_clp))
                as p(payment, date, clp)
         where p.date = any(${`{${dates.join(',')}}`}::date[]) and p.clp is null
         for update of bc`,
  );
}

/** New commissions of an import's chunk, set-based (ids made by the caller). */
export async function insertCommissionsAsJson(
  tx: Executor,
  rows: readonly (CommissionValues & { id: string; reservationId: string })[],
  actorId: string,
): Promise<void> {
  await insertRowsAsJson(
    tx,
    brokerCommissions,
    rows.map((row) => ({ ...row, createdBy: actorId, updatedBy: actorId })),
  );
}

/** The UF values of these days (the uf-values feature writes them), by day. */
export async function listUfValuesOn(db: Executor, dates: readonly string[]): Promise<Map<string, string>> {
  if (dates.length === 0) return new Map();
  const rows = await queryRows<{ date: string; value: string }>(
    db,
    sql`select date::text as date, value::text as value from uf_values where date = any(${`{${dates.join(',')}}`}::date[])`,
  );
  return new Map(rows.map((row) => [row.date, row.value]));
}
