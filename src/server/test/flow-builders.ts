/**
 * Test builders for what hangs off a reservation: sale (reservation) flows with their task rows and
 * assignments, broker commissions, and commission (payment) flows with their task rows. Task rows
 * are made from the seeded workflow definitions (drizzle/0002_workflow_definitions.sql), looked up
 * by name, so tests speak the business's task names. Rows are inserted directly (fast, no API).
 */
import { asc, eq } from 'drizzle-orm';
import { commissionFigures } from '../../shared/domain/pricing';
import type { Database } from '../db/client';
import {
  brokerCommissions,
  commissionFlows,
  commissionFlowTasks,
  paymentFlowStages,
  paymentFlows,
  paymentFlowTasks,
  reservationFlows,
  reservationFlowTasks,
  saleFlowStages,
  saleFlows,
  saleFlowTasks,
  taskAssignments,
} from '../db/schema';

export type TaskStatus = 'pending' | 'in_progress' | 'completed' | 'blocked';
export type FlowStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';

export const SALE_FLOW = 'Flujo de Venta Regular';
export const FIRST_PAYMENT_FLOW = 'Flujo de Pago Principal';
export const SECOND_PAYMENT_FLOW = 'Flujo de Segundo Pago';

interface DefinitionTask {
  id: string;
  name: string;
  stageId: string;
  daysToComplete: number | null;
}

/** The tasks of a sale flow definition, in flow order (stage order, then task order). */
async function saleDefinition(db: Database, flowName: string) {
  const rows = await db
    .select({
      flowId: saleFlows.id,
      id: saleFlowTasks.id,
      name: saleFlowTasks.name,
      stageId: saleFlowTasks.stageId,
      daysToComplete: saleFlowTasks.daysToComplete,
    })
    .from(saleFlowTasks)
    .innerJoin(saleFlowStages, eq(saleFlowStages.id, saleFlowTasks.stageId))
    .innerJoin(saleFlows, eq(saleFlows.id, saleFlowStages.flowId))
    .where(eq(saleFlows.name, flowName))
    .orderBy(asc(saleFlowStages.sortOrder), asc(saleFlowTasks.sortOrder));
  if (rows.length === 0) throw new Error(`no seeded sale flow named ${flowName}`);
  return { flowId: rows[0]!.flowId, firstStageId: rows[0]!.stageId, tasks: rows as DefinitionTask[] };
}

/** The tasks of a payment flow definition, in flow order. */
async function paymentDefinition(db: Database, flowName: string) {
  const rows = await db
    .select({
      flowId: paymentFlows.id,
      id: paymentFlowTasks.id,
      name: paymentFlowTasks.name,
      stageId: paymentFlowTasks.stageId,
      daysToComplete: paymentFlowTasks.daysToComplete,
    })
    .from(paymentFlowTasks)
    .innerJoin(paymentFlowStages, eq(paymentFlowStages.id, paymentFlowTasks.stageId))
    .innerJoin(paymentFlows, eq(paymentFlows.id, paymentFlowStages.flowId))
    .where(eq(paymentFlows.name, flowName))
    .orderBy(asc(paymentFlowStages.sortOrder), asc(paymentFlowTasks.sortOrder));
  if (rows.length === 0) throw new Error(`no seeded payment flow named ${flowName}`);
  return { flowId: rows[0]!.flowId, firstStageId: rows[0]!.stageId, tasks: rows as DefinitionTask[] };
}

/** Finds a task row by its definition name, failing loudly on a typo. */
function byName<T>(rows: Map<string, T>, name: string): T {
  const row = rows.get(name);
  if (!row) throw new Error(`no task named ${name} (known: ${[...rows.keys()].join(', ')})`);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Sale flows

export interface TaskOverride {
  status?: TaskStatus;
  startedAt?: Date | null;
  completedAt?: Date | null;
}

/**
 * A reservation's sale flow with one task row per definition task (all `pending` unless
 * overridden by name) and, optionally, assignments `{ taskName: [userId, …] }`.
 */
export async function createSaleFlow(
  db: Database,
  options: {
    reservationId: string;
    status?: FlowStatus;
    startedAt?: Date | null;
    tasks?: Record<string, TaskOverride>;
    assignments?: Record<string, string[]>;
  },
) {
  const definition = await saleDefinition(db, SALE_FLOW);
  const startedAt = options.startedAt === undefined ? new Date() : options.startedAt;
  const [flow] = await db
    .insert(reservationFlows)
    .values({
      reservationId: options.reservationId,
      flowId: definition.flowId,
      currentStageId: definition.firstStageId,
      status: options.status ?? 'in_progress',
      startedAt,
    })
    .returning();
  const known = new Set(definition.tasks.map((task) => task.name));
  for (const name of [...Object.keys(options.tasks ?? {}), ...Object.keys(options.assignments ?? {})]) {
    if (!known.has(name)) throw new Error(`no sale task named ${name}`);
  }
  const rows = await db
    .insert(reservationFlowTasks)
    .values(
      definition.tasks.map((task) => {
        const override = options.tasks?.[task.name] ?? {};
        return {
          reservationFlowId: flow!.id,
          taskId: task.id,
          status: override.status ?? 'pending',
          startedAt: override.startedAt === undefined ? startedAt : override.startedAt,
          completedAt: override.completedAt ?? null,
          daysToComplete: task.daysToComplete,
        };
      }),
    )
    .returning();
  const definitionById = new Map(definition.tasks.map((task) => [task.id, task]));
  const tasks = new Map(rows.map((row) => [definitionById.get(row.taskId)!.name, row]));
  for (const [name, userIds] of Object.entries(options.assignments ?? {})) {
    for (const userId of userIds)
      await assignSaleTask(db, { flowId: flow!.id, taskId: byName(tasks, name).taskId, userId });
  }
  return { flow: flow!, tasks, task: (name: string) => byName(tasks, name) };
}

export async function assignSaleTask(
  db: Database,
  values: { flowId: string; taskId: string; userId: string },
) {
  await db
    .insert(taskAssignments)
    .values({ reservationFlowId: values.flowId, taskId: values.taskId, userId: values.userId });
}

// ---------------------------------------------------------------------------------------------
// Commissions and payment flows

/**
 * A broker commission on a reservation (the reservation's broker unless given), with its net
 * amount and difference computed by the shared math.
 */
export async function createCommission(
  db: Database,
  reservation: {
    id: string;
    brokerId: string | null;
    minimumPrice: string;
    recoveryPayment: string;
    parkingPrice: string;
    storagePrice: string;
  },
  overrides: Partial<typeof brokerCommissions.$inferInsert> = {},
) {
  const brokerId = overrides.brokerId ?? reservation.brokerId;
  if (!brokerId) throw new Error('createCommission needs a broker (on the reservation or given)');
  const input = {
    commissionAmount: overrides.commissionAmount ?? '100.00',
    commissionIncludesTax: overrides.commissionIncludesTax ?? true,
    paysSecondary: overrides.paysSecondary ?? false,
    numberOfPayments: (overrides.numberOfPayments ?? 1) as 1 | 2,
    firstPaymentPercentage: (overrides.firstPaymentPercentage ?? 100) as 25 | 50 | 100,
  };
  const figures = commissionFigures(input, reservation);
  const [row] = await db
    .insert(brokerCommissions)
    .values({
      ...overrides,
      ...input,
      reservationId: reservation.id,
      brokerId,
      netCommission: figures.netCommission,
      difference: figures.difference,
    })
    .returning();
  return row!;
}

export interface PaymentTaskOverride extends TaskOverride {
  assigneeId?: string | null;
}

/**
 * A commission (payment) flow — the first payment, or the second with `isSecondPayment` — with one
 * task row per definition task: `blocked` unless overridden by name.
 */
export async function createCommissionFlow(
  db: Database,
  options: {
    brokerCommissionId: string;
    isSecondPayment?: boolean;
    status?: FlowStatus;
    startedAt?: Date | null;
    completedAt?: Date | null;
    createdAt?: Date;
    tasks?: Record<string, PaymentTaskOverride>;
  },
) {
  const definition = await paymentDefinition(
    db,
    options.isSecondPayment ? SECOND_PAYMENT_FLOW : FIRST_PAYMENT_FLOW,
  );
  const known = new Set(definition.tasks.map((task) => task.name));
  for (const name of Object.keys(options.tasks ?? {})) {
    if (!known.has(name)) throw new Error(`no payment task named ${name}`);
  }
  const [flow] = await db
    .insert(commissionFlows)
    .values({
      brokerCommissionId: options.brokerCommissionId,
      flowId: definition.flowId,
      currentStageId: definition.firstStageId,
      status: options.status ?? 'pending',
      startedAt: options.startedAt ?? null,
      completedAt: options.completedAt ?? null,
      isSecondPayment: options.isSecondPayment ?? false,
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    })
    .returning();
  const rows = await db
    .insert(commissionFlowTasks)
    .values(
      definition.tasks.map((task) => {
        const override = options.tasks?.[task.name] ?? {};
        return {
          commissionFlowId: flow!.id,
          taskId: task.id,
          status: override.status ?? 'blocked',
          startedAt: override.startedAt ?? null,
          completedAt: override.completedAt ?? null,
          assigneeId: override.assigneeId ?? null,
          assignedAt: override.assigneeId ? (override.startedAt ?? new Date()) : null,
        };
      }),
    )
    .returning();
  const definitionById = new Map(definition.tasks.map((task) => [task.id, task]));
  const tasks = new Map(rows.map((row) => [definitionById.get(row.taskId)!.name, row]));
  return { flow: flow!, tasks, task: (name: string) => byName(tasks, name) };
}
