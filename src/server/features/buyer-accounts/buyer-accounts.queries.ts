import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { LineKind, PaymentMeans } from '../../../shared/buyer-plan';
import type { OverdueQuery, OverdueRow } from '../../../shared/schemas/buyer-accounts';
import { type Executor, isoInstant } from '../../db/client';
import { type Page, selectPage } from '../../db/paging';
import {
  buyerPayments,
  buyerPlanLines,
  buyerPlans,
  clients,
  profiles,
  projects,
  realEstateAgencies,
  reservations,
} from '../../db/schema';

/** The only SQL that writes the buyer's account (decision 0073); reads join the reservation. */

export function findReservationFigures(db: Executor, reservationId: string) {
  return db
    .select({
      id: reservations.id,
      reservationNumber: reservations.reservationNumber,
      isRescinded: reservations.isRescinded,
      reservationDate: reservations.reservationDate,
      reservationPayment: reservations.reservationPayment,
      promisePayment: reservations.promisePayment,
      downPayment: reservations.downPayment,
      creditPayment: reservations.creditPayment,
      subsidyPayment: reservations.subsidyPayment,
      promiseDate: reservations.promiseDate,
      deedDate: reservations.deedDate,
    })
    .from(reservations)
    .where(eq(reservations.id, reservationId))
    .then((rows) => rows[0] ?? null);
}
export type ReservationFigures = NonNullable<Awaited<ReturnType<typeof findReservationFigures>>>;

const planColumns = {
  id: buyerPlans.id,
  version: buyerPlans.version,
  reservationAmount: buyerPlans.reservationAmount,
  promiseAmount: buyerPlans.promiseAmount,
  downPaymentAmount: buyerPlans.downPaymentAmount,
  installmentCount: buyerPlans.installmentCount,
  creditAmount: buyerPlans.creditAmount,
  subsidyAmount: buyerPlans.subsidyAmount,
  promiseDate: buyerPlans.promiseDate,
  expectedDeedDate: buyerPlans.expectedDeedDate,
  paidAmount: buyerPlans.paidAmount,
  pieWaivedReason: buyerPlans.pieWaivedReason,
  pieWaivedAt: isoInstant(buyerPlans.pieWaivedAt),
  pieWaivedByName: sql<string | null>`${profiles.firstName} || ' ' || ${profiles.lastName}`,
};

export function findPlan(db: Executor, reservationId: string) {
  return db
    .select(planColumns)
    .from(buyerPlans)
    .leftJoin(profiles, eq(profiles.id, buyerPlans.pieWaivedBy))
    .where(eq(buyerPlans.reservationId, reservationId))
    .then((rows) => rows[0] ?? null);
}
export type PlanRow = NonNullable<Awaited<ReturnType<typeof findPlan>>>;

/** The plan under a lock: payments, reversals and the waiver of one plan take turns. */
export function lockPlan(tx: Executor, reservationId: string) {
  return tx
    .select({ id: buyerPlans.id, version: buyerPlans.version, pieWaivedAt: buyerPlans.pieWaivedAt })
    .from(buyerPlans)
    .where(eq(buyerPlans.reservationId, reservationId))
    .for('update')
    .then((rows) => rows[0] ?? null);
}

export function linesOf(db: Executor, planId: string) {
  return db
    .select({
      id: buyerPlanLines.id,
      kind: sql<LineKind>`${buyerPlanLines.kind}`,
      number: buyerPlanLines.number,
      dueDate: buyerPlanLines.dueDate,
      amount: buyerPlanLines.amount,
      paidAmount: buyerPlanLines.paidAmount,
      isOpen: buyerPlanLines.isOpen,
    })
    .from(buyerPlanLines)
    .where(eq(buyerPlanLines.planId, planId))
    .orderBy(asc(buyerPlanLines.sortOrder));
}
export type LineRow = Awaited<ReturnType<typeof linesOf>>[number];

export function paymentsOf(db: Executor, planId: string) {
  return db
    .select({
      id: buyerPayments.id,
      paidDate: buyerPayments.paidDate,
      amount: buyerPayments.amount,
      amountClp: buyerPayments.amountClp,
      ufValue: buyerPayments.ufValue,
      means: sql<PaymentMeans>`${buyerPayments.means}`,
      documentNumber: buyerPayments.documentNumber,
      reversedAt: isoInstant(buyerPayments.reversedAt),
      reversalReason: buyerPayments.reversalReason,
      version: buyerPayments.version,
    })
    .from(buyerPayments)
    .where(eq(buyerPayments.planId, planId))
    .orderBy(asc(buyerPayments.paidDate), asc(buyerPayments.createdAt), asc(buyerPayments.id));
}

export async function insertPlan(
  tx: Executor,
  values: typeof buyerPlans.$inferInsert,
  lines: Omit<typeof buyerPlanLines.$inferInsert, 'planId'>[],
): Promise<string> {
  const [row] = await tx.insert(buyerPlans).values(values).returning({ id: buyerPlans.id });
  const planId = row!.id;
  if (lines.length > 0) await tx.insert(buyerPlanLines).values(lines.map((line) => ({ ...line, planId })));
  return planId;
}

export function insertPayment(tx: Executor, values: typeof buyerPayments.$inferInsert) {
  return tx.insert(buyerPayments).values(values).returning({ id: buyerPayments.id });
}

/** A payment reversed (a returned cheque): kept, marked, no longer counted. False when stale or reversed. */
export async function updatePaymentReversed(
  tx: Executor,
  values: { planId: string; paymentId: string; version: number; reason: string; userId: string; at: Date },
): Promise<boolean> {
  const rows = await tx
    .update(buyerPayments)
    .set({
      reversedAt: values.at,
      reversedBy: values.userId,
      reversalReason: values.reason,
      updatedAt: values.at,
      version: sql`${buyerPayments.version} + 1`,
    })
    .where(
      and(
        eq(buyerPayments.id, values.paymentId),
        eq(buyerPayments.planId, values.planId),
        eq(buyerPayments.version, values.version),
        sql`${buyerPayments.reversedAt} is null`,
      ),
    )
    .returning({ id: buyerPayments.id });
  return rows.length > 0;
}

export function findPayment(tx: Executor, planId: string, paymentId: string) {
  return tx
    .select({ id: buyerPayments.id, version: buyerPayments.version, reversedAt: buyerPayments.reversedAt })
    .from(buyerPayments)
    .where(and(eq(buyerPayments.id, paymentId), eq(buyerPayments.planId, planId)))
    .then((rows) => rows[0] ?? null);
}

/** The UF the payments not reversed add up to: what the allocation spreads over the lines. */
export function paidTotalOf(tx: Executor, planId: string) {
  return tx
    .select({ total: sql<string>`coalesce(sum(${buyerPayments.amount}), 0)::text` })
    .from(buyerPayments)
    .where(and(eq(buyerPayments.planId, planId), sql`${buyerPayments.reversedAt} is null`))
    .then((rows) => rows[0]?.total ?? '0');
}

/** Each changed line's new paid amount (the oldest-first allocation), and the plan's total. */
export async function updatePaid(
  tx: Executor,
  planId: string,
  paidAmount: string,
  lines: readonly { id: string; paidAmount: string; isOpen: boolean }[],
  userId: string,
  at: Date,
): Promise<void> {
  for (const line of lines) {
    await tx
      .update(buyerPlanLines)
      .set({ paidAmount: line.paidAmount, isOpen: line.isOpen })
      .where(eq(buyerPlanLines.id, line.id));
  }
  await tx
    .update(buyerPlans)
    .set({ paidAmount, updatedBy: userId, updatedAt: at, version: sql`${buyerPlans.version} + 1` })
    .where(eq(buyerPlans.id, planId));
}

export async function updatePieWaived(
  tx: Executor,
  values: { planId: string; version: number; reason: string; userId: string; at: Date },
): Promise<boolean> {
  const rows = await tx
    .update(buyerPlans)
    .set({
      pieWaivedReason: values.reason,
      pieWaivedBy: values.userId,
      pieWaivedAt: values.at,
      updatedBy: values.userId,
      updatedAt: values.at,
      version: sql`${buyerPlans.version} + 1`,
    })
    .where(and(eq(buyerPlans.id, values.planId), eq(buyerPlans.version, values.version)))
    .returning({ id: buyerPlans.id });
  return rows.length > 0;
}

/** Whether the reservation's plan leaves 'PENDIENTE CARTA PIE' open: null when it has no plan. */
export function findPieState(tx: Executor, reservationId: string) {
  return tx
    .select({
      balance: sql<string>`(${buyerPlans.reservationAmount} + ${buyerPlans.promiseAmount}
        + ${buyerPlans.downPaymentAmount} - ${buyerPlans.paidAmount})::text`,
      isWaived: sql<boolean>`${buyerPlans.pieWaivedAt} is not null`,
    })
    .from(buyerPlans)
    .where(eq(buyerPlans.reservationId, reservationId))
    .then((rows) => rows[0] ?? null);
}

/**
 * 'Cuotas vencidas': the open lines due before today, oldest first, read off the partial index of open
 * lines by due date; the reservation, client, project and seller joined for the page.
 */
export function overdueSql(query: OverdueQuery, today: string) {
  const filters: SQL[] = [sql`l.is_open`, sql`l.due_date < ${today}`, sql`not r.is_rescinded`];
  if (query.projectId) filters.push(sql`r.project_id = ${query.projectId}`);
  if (query.sellerId) filters.push(sql`r.seller_id = ${query.sellerId}`);
  return {
    columns: {
      lineId: sql`l.id`,
      reservationId: sql`r.id`,
      reservationNumber: sql`r.reservation_number`,
      clientName: sql`c.first_name || ' ' || c.last_name`,
      projectName: sql`p.name`,
      sellerName: sql`s.first_name || ' ' || s.last_name`,
      kind: sql`l.kind`,
      number: sql`l.number`,
      dueDate: sql`l.due_date`,
      amount: sql`l.amount::text`,
      paidAmount: sql`l.paid_amount::text`,
      daysLate: sql`(${today}::date - l.due_date)`,
    } satisfies Record<keyof OverdueRow, SQL>,
    from: sql`buyer_plan_lines l
      join reservations r on r.id = l.reservation_id
      join clients c on c.id = r.client_id
      join projects p on p.id = r.project_id
      left join profiles s on s.id = r.seller_id`,
    where: sql.join(filters, sql` and `),
    orderBy: [sql`l.due_date`, sql`l.id`],
    page: query.page,
    pageSize: query.pageSize,
  };
}

export function selectOverdue(db: Executor, query: OverdueQuery, today: string): Promise<Page<OverdueRow>> {
  return selectPage<OverdueRow>(db, overdueSql(query, today));
}

/** The statement's heading: the developer (the project's agency), the project, the client, the plan's last change. */
export function findStatementHeading(db: Executor, reservationId: string) {
  return db
    .select({
      reservationNumber: reservations.reservationNumber,
      apartmentNumber: reservations.apartmentNumber,
      projectName: projects.name,
      projectStage: projects.stage,
      developerName: realEstateAgencies.businessName,
      developerRut: realEstateAgencies.rut,
      clientName: sql<string>`${clients.firstName} || ' ' || ${clients.lastName}`,
      clientRut: clients.rut,
      planChangedAt: isoInstant(buyerPlans.updatedAt),
    })
    .from(reservations)
    .innerJoin(projects, eq(projects.id, reservations.projectId))
    .leftJoin(realEstateAgencies, eq(realEstateAgencies.id, projects.realEstateAgencyId))
    .innerJoin(clients, eq(clients.id, reservations.clientId))
    .innerJoin(buyerPlans, eq(buyerPlans.reservationId, reservations.id))
    .where(eq(reservations.id, reservationId))
    .then((rows) => rows[0] ?? null);
}
