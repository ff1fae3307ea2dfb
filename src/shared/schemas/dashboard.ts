import { z } from 'zod';

/**
 * GET /api/dashboard (spec part 1 §2 "Dashboard", §3 "Dashboard data"; decision 0011).
 * Every figure is aggregated by the server; amounts are UF decimal strings ("1234.56"),
 * months 'YYYY-MM' (America/Santiago calendar), dates 'YYYY-MM-DD'.
 */
const count = z.number().int().min(0);
const uf = z.string();

export const PAYMENT_FLOW_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export type PaymentFlowStatus = (typeof PAYMENT_FLOW_STATUSES)[number];

export const dashboardResponse = z.object({
  totals: z.object({
    /** Reservations that are not rescinded. */
    reservations: count,
    /** Clients not deleted ('activos en el sistema'). */
    clients: count,
    /** Projects ('en comercialización'). */
    projects: count,
    /** Brokers ('registrados'). */
    brokers: count,
  }),
  monthlyStats: z.object({
    /** The current month in America/Santiago. */
    month: z.string(),
    reservations: count,
    previousReservations: count,
    /** Whole percent, signed: round(|cur − prev| / prev × 100); 100 when the previous month had none. */
    reservationsChange: z.number().int(),
    commissions: uf,
    previousCommissions: uf,
  }),
  /** The last six months, oldest first, every month present. */
  monthlyReservations: z.array(z.object({ month: z.string(), count })),
  monthlyCommissions: z.array(z.object({ month: z.string(), amount: uf })),
  projectStats: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      stage: z.string(),
      /** Reservations that are not rescinded. */
      reserved: count,
      /** Units of the project: its apartments when it has an inventory, else as typed; null when not recorded. */
      total: count.nullable(),
      /**
       * With an inventory, its apartments 'Disponible' (blocked ones are not); else total − reserved,
       * never negative; null when total is unknown.
       */
      available: count.nullable(),
    }),
  ),
  /** The five brokers with the most commission (UF). */
  brokerStats: z.array(z.object({ id: z.uuid(), name: z.string(), reservations: count, commissions: uf })),
  recentReservations: z.array(
    z.object({
      id: z.uuid(),
      reservationNumber: z.string(),
      projectName: z.string(),
      projectStage: z.string(),
      apartmentNumber: z.string(),
      clientName: z.string(),
      sellerName: z.string().nullable(),
      brokerName: z.string().nullable(),
      totalPrice: uf,
      reservationDate: z.string(),
      isRescinded: z.boolean(),
      reservationFlowId: z.uuid().nullable(),
    }),
  ),
  recentPayments: z.array(
    z.object({
      /** The commission flow: the row opens /pagos/flujo/{id}. */
      id: z.uuid(),
      brokerName: z.string(),
      reservationId: z.uuid(),
      reservationNumber: z.string(),
      isSecondPayment: z.boolean(),
      status: z.enum(PAYMENT_FLOW_STATUSES),
      /** The oldest pending or in-progress task of a flow in progress, else null. */
      currentTaskName: z.string().nullable(),
      /** Days late of that task; null without one. */
      daysOverdue: count.nullable(),
      assigneeName: z.string().nullable(),
      /** First payment for a first flow, the remainder for a second flow. */
      amount: uf,
      /** payment_1_date or payment_2_date. */
      paymentDate: z.string().nullable(),
    }),
  ),
});
export type DashboardData = z.infer<typeof dashboardResponse>;
export type RecentPayment = DashboardData['recentPayments'][number];
