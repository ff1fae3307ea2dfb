import {
  addMonths,
  DASHBOARD_MONTHS,
  DASHBOARD_RECENT_ITEMS,
  monthsEndingWith,
  percentChange,
} from '../../../shared/domain/dashboard';
import { dec, money } from '../../../shared/domain/decimal';
import { commissionFigures } from '../../../shared/domain/pricing';
import { daysLate } from '../../../shared/domain/workflow/days';
import { santiagoDateOf } from '../../../shared/format';
import type { DashboardData, RecentPayment } from '../../../shared/schemas/dashboard';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import * as queries from './dashboard.queries';
import type { InventoryCounts } from './inventory-counts';

interface DashboardRows {
  projects: queries.ProjectReservedRow[];
  inventories: Map<string, queries.InventoryCountRow | null>;
  counts: { clients: number; brokers: number };
  monthRows: queries.MonthRow[];
  brokers: queries.BrokerRow[];
  reservations: queries.RecentReservationRow[];
  /** The latest commission flows, in order. */
  payments: queries.PaymentRow[];
}

/** Every figure of the dashboard, for reservation dates in [from, to). */
async function loadRows(
  db: Database,
  inventoryCounts: InventoryCounts,
  from: string,
  to: string,
): Promise<DashboardRows> {
  // Sequential on purpose: the embedded database runs one statement at a time.
  const projects = await queries.listProjectReservations(db);
  const inventories = await inventoryCounts.of(db, projects);
  const counts = await queries.countClientsAndBrokers(db);
  const monthRows = await queries.listMonthlyFigures(db, from, to);
  const brokers = await queries.listTopBrokersByCommission(db, DASHBOARD_RECENT_ITEMS);
  if (brokers.length < DASHBOARD_RECENT_ITEMS) {
    brokers.push(
      ...(await queries.listBrokersWithoutCommission(db, DASHBOARD_RECENT_ITEMS - brokers.length)),
    );
  }
  const reservations = await queries.listRecentReservations(db, DASHBOARD_RECENT_ITEMS);
  const paymentIds = await queries.listLatestCommissionFlowIds(db, DASHBOARD_RECENT_ITEMS);
  const paymentRows = new Map((await queries.listPaymentsByIds(db, paymentIds)).map((row) => [row.id, row]));
  const payments = paymentIds
    .map((id) => paymentRows.get(id))
    .filter((row): row is queries.PaymentRow => row !== undefined);
  return { projects, inventories, counts, monthRows, brokers, reservations, payments };
}

/**
 * The dashboard (spec part 1 §2; decision 0011). The request's `now` decides the current month (on
 * the America/Santiago calendar) and the days late of the payments' current tasks; tests fix it.
 */
export async function getDashboard(
  { db, now }: Pick<ServiceContext, 'db' | 'now'>,
  inventoryCounts: InventoryCounts,
): Promise<DashboardData> {
  const currentMonth = santiagoDateOf(now).slice(0, 7);
  const months = monthsEndingWith(currentMonth, DASHBOARD_MONTHS);
  const from = `${months[0]}-01`;
  const to = `${addMonths(currentMonth, 1)}-01`;
  const { projects, inventories, counts, monthRows, brokers, reservations, payments } = await loadRows(
    db,
    inventoryCounts,
    from,
    to,
  );

  const byMonth = new Map(monthRows.map((row) => [row.month.slice(0, 7), row]));
  const monthlyReservations = months.map((month) => ({ month, count: byMonth.get(month)?.count ?? 0 }));
  const monthlyCommissions = months.map((month) => ({
    month,
    amount: money(dec(byMonth.get(month)?.amount ?? '0')),
  }));
  const current = byMonth.get(currentMonth);
  const previous = byMonth.get(addMonths(currentMonth, -1));

  return {
    totals: {
      reservations: projects.reduce((sum, project) => sum + project.reserved, 0),
      clients: counts.clients,
      projects: projects.length,
      brokers: counts.brokers,
    },
    monthlyStats: {
      month: currentMonth,
      reservations: current?.count ?? 0,
      previousReservations: previous?.count ?? 0,
      reservationsChange: percentChange(current?.count ?? 0, previous?.count ?? 0),
      commissions: money(dec(current?.amount ?? '0')),
      previousCommissions: money(dec(previous?.amount ?? '0')),
    },
    monthlyReservations,
    monthlyCommissions,
    projectStats: projects.map((project) => {
      const inventory = inventories.get(project.id);
      return {
        id: project.id,
        name: project.name,
        stage: project.stage,
        reserved: project.reserved,
        // A project with an inventory counts its apartments and their status (decision 0032); without
        // one, the number typed in Configuración.
        total: inventory?.units ?? project.totalUnits,
        available:
          inventory?.available ??
          (project.totalUnits === null ? null : Math.max(0, project.totalUnits - project.reserved)),
      };
    }),
    brokerStats: brokers.map((broker) => ({ ...broker, commissions: money(dec(broker.commissions)) })),
    recentReservations: reservations,
    recentPayments: payments.map((row) => toRecentPayment(row, now)),
  };
}

function toRecentPayment(row: queries.PaymentRow, now: Date): RecentPayment {
  // The flow's share of the commission, with the shared commission math (the reservation's prices
  // do not enter the payment split).
  const figures = commissionFigures(
    {
      commissionAmount: row.commissionAmount,
      commissionIncludesTax: false,
      paysSecondary: true,
      numberOfPayments: row.numberOfPayments === 2 ? 2 : 1,
      firstPaymentPercentage: row.firstPaymentPercentage as 25 | 50 | 100,
    },
    { minimumPrice: '0', recoveryPayment: '0', parkingPrice: '0', storagePrice: '0' },
  );
  const hasTask = row.taskName !== null;
  return {
    id: row.id,
    brokerName: row.brokerName,
    reservationId: row.reservationId,
    reservationNumber: row.reservationNumber,
    isSecondPayment: row.isSecondPayment,
    status: row.status,
    currentTaskName: row.taskName,
    daysOverdue: hasTask
      ? daysLate(
          {
            startedAt: row.taskStartedAt,
            completedAt: row.taskCompletedAt,
            daysToComplete: row.taskDaysToComplete,
          },
          now,
        )
      : null,
    assigneeName: hasTask ? row.assigneeName : null,
    amount: row.isSecondPayment ? figures.secondPaymentAmount : figures.firstPaymentAmount,
    paymentDate: row.isSecondPayment ? row.payment2Date : row.payment1Date,
  };
}
