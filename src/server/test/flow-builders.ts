/**
 * Test builders for flows and commissions. Flows are made and moved by the workflow engine itself
 * (the same service the API uses), so a test can only reach states the product can reach: a
 * `FlowDriver` speaks the business's task names and sends engine commands, as an administrator
 * unless told otherwise, at the instant given.
 */
import { eq } from 'drizzle-orm';
import { commissionFigures } from '../../shared/domain/pricing';
import type { FlowCommand, FlowState, TaskStatus, WorkflowDefinition } from '../../shared/domain/workflow';
import {
  FIRST_PAYMENT_WORKFLOW,
  SALE_WORKFLOW,
  SECOND_PAYMENT_WORKFLOW,
} from '../../shared/domain/workflow/names';
import { actingAs, asSystem } from '../db/actor';
import type { Database } from '../db/client';
import { brokerCommissions } from '../db/schema';
import * as workflows from '../features/workflows/workflows.service';
import { createUser, type TestUser } from './builders';

const builderAdmins = new WeakMap<Database, Promise<TestUser>>();

/** The administrator the builders act as (one per test database). */
export function builderAdmin(db: Database): Promise<TestUser> {
  let admin = builderAdmins.get(db);
  if (!admin) {
    admin = createUser(db, {
      firstName: 'Admin',
      lastName: 'Pruebas',
      email: `builder.${Date.now()}@inmoflujo.test`,
    });
    builderAdmins.set(db, admin);
  }
  return admin;
}

type Actor = { id: string; actions: readonly string[] };
interface StepOptions {
  /** Who acts (an administrator by default). */
  as?: Actor;
  /** The instant of the command (now by default). */
  at?: Date;
}

/** One flow, driven by task names through the engine. */
export class FlowDriver {
  private constructor(
    readonly db: Database,
    readonly id: string,
    readonly definition: WorkflowDefinition,
    private readonly taskRowIds: Map<string, string>,
  ) {}

  static async open(db: Database, flowId: string): Promise<FlowDriver> {
    const { definition, state } = await workflows.readFlow(db, flowId);
    const names = new Map(definition.tasks.map((task) => [task.id, task.name]));
    return new FlowDriver(
      db,
      flowId,
      definition,
      new Map(state.tasks.map((task) => [names.get(task.taskId)!, task.id])),
    );
  }

  /** The task row id of a task, by its name in the definition (fails loudly on a typo). */
  task(name: string): string {
    const id = this.taskRowIds.get(name);
    if (!id) throw new Error(`no task named ${name} (known: ${[...this.taskRowIds.keys()].join(', ')})`);
    return id;
  }

  async state(): Promise<FlowState> {
    return (await workflows.readFlow(this.db, this.id)).state;
  }

  async run(command: FlowCommand, options: StepOptions = {}) {
    const actor = options.as ?? (await builderAdmin(this.db));
    return actingAs(this.db, { userId: actor.id }).transaction((tx) =>
      workflows.runCommandIn(tx, actor, options.at ?? new Date(), this.id, command),
    );
  }

  start(options: StepOptions = {}) {
    return this.run({ type: 'start' }, options);
  }

  setStatus(name: string, status: TaskStatus, options: StepOptions & { completedAt?: Date } = {}) {
    const { completedAt, ...rest } = options;
    return this.run(
      { type: 'setStatus', taskRowId: this.task(name), status, ...(completedAt ? { completedAt } : {}) },
      rest,
    );
  }

  complete(name: string, options: StepOptions = {}) {
    return this.setStatus(name, 'completed', options);
  }

  /** Completes the named tasks in order, each at the given instant. */
  async completeAll(names: readonly string[], options: StepOptions = {}) {
    for (const name of names) await this.complete(name, options);
  }

  assign(name: string, userId: string, options: StepOptions = {}) {
    return this.run({ type: 'assign', taskRowId: this.task(name), userId }, options);
  }

  unassign(name: string, userId: string, options: StepOptions = {}) {
    return this.run({ type: 'unassign', taskRowId: this.task(name), userId }, options);
  }

  cancel(options: StepOptions = {}) {
    return this.run({ type: 'cancel' }, options);
  }

  /** Every task name of the definition, in flow order. */
  taskNames(): string[] {
    return this.definition.tasks.map((task) => task.name);
  }
}

/** A reservation's sale flow, created by the engine as reservation creation does. */
export async function createSaleFlow(
  db: Database,
  options: { reservationId: string; sellerId?: string | null; at?: Date },
): Promise<FlowDriver> {
  const admin = await builderAdmin(db);
  const created = await actingAs(db, { userId: admin.id }).transaction((tx) =>
    workflows.createFlow(tx, {
      workflowName: SALE_WORKFLOW,
      reservationId: options.reservationId,
      sellerId: options.sellerId ?? null,
      actorId: admin.id,
      now: options.at ?? new Date(),
    }),
  );
  return FlowDriver.open(db, created.flow.id);
}

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
  const [row] = await asSystem(db, (tx) =>
    tx
      .insert(brokerCommissions)
      .values({
        ...overrides,
        ...input,
        reservationId: reservation.id,
        brokerId,
        netCommission: figures.netCommission,
        difference: figures.difference,
      })
      .returning(),
  );
  return row!;
}

/** A commission's payment flow (the first, or the second), created pending by the engine. */
export async function createPaymentFlow(
  db: Database,
  options: { brokerCommissionId: string; isSecondPayment?: boolean; at?: Date },
): Promise<FlowDriver> {
  const admin = await builderAdmin(db);
  const [commission] = await db
    .select({ reservationId: brokerCommissions.reservationId })
    .from(brokerCommissions)
    .where(eq(brokerCommissions.id, options.brokerCommissionId));
  if (!commission) throw new Error(`no commission ${options.brokerCommissionId}`);
  const created = await actingAs(db, { userId: admin.id }).transaction((tx) =>
    workflows.createFlow(tx, {
      workflowName: options.isSecondPayment ? SECOND_PAYMENT_WORKFLOW : FIRST_PAYMENT_WORKFLOW,
      reservationId: commission.reservationId,
      brokerCommissionId: options.brokerCommissionId,
      isSecondPayment: options.isSecondPayment ?? false,
      actorId: admin.id,
      now: options.at ?? new Date(),
    }),
  );
  return FlowDriver.open(db, created.flow.id);
}
