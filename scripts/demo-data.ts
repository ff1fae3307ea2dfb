/**
 * The demo and benchmark dataset: agencies, projects with units, brokers, clients with valid RUTs,
 * reservations over the last 18 months with their commissions, sale flows and payment flows in every
 * state, and users of every user type. Deterministic for a given seed (and `now`).
 *
 * How it is built, so that it stays fast at 100,000 reservations on the embedded database:
 * - Entity rows (clients, reservations, commissions, flows) are generated here with a seeded PRNG and
 *   inserted in batches through `json_to_recordset`. Every stored figure comes from the shared math
 *   (`reservationFigures`, `commissionFigures`), so it is the server's own arithmetic by construction.
 * - Flows are moved by the server's own workflow engine (`scripts/demo-flows.ts`): each is
 *   instantiated and given the commands its story implies (start, completions in flow order at their
 *   instants, some tasks marked in progress, assignments, cancellation on rescission), so every flow
 *   is one the engine could have left; then flows, task rows and assignees are written in batches,
 *   task rows compactly (a status letter and three arrays per flow), expanded by the database.
 * - Only the open work that lands in someone's inbox is decided here, and kept small (tens per
 *   user): COF tasks go to the seller (the definition says so), the default sale assignees were
 *   configured recently (only the newest flows carry them), payment default assignees apply to tasks
 *   opened after they were configured, and a bounded number of older open tasks were assigned by hand.
 */
import { type SQL, sql } from 'drizzle-orm';
import { declareActor, SYSTEM_ACTOR } from '../src/server/db/actor';
import { type Database, type Executor, queryRows } from '../src/server/db/client';
import { hashPassword } from '../src/server/features/auth/passwords';
import { definitionNamed, loadGeneratedCommentsIn } from '../src/server/features/workflows/workflows.service';
import { dec, money } from '../src/shared/domain/decimal';
import { commissionFigures, reservationFigures } from '../src/shared/domain/pricing';
import { rutCheckDigit } from '../src/shared/domain/rut';
import {
  FIRST_PAYMENT_WORKFLOW,
  SALE_WORKFLOW,
  SECOND_PAYMENT_WORKFLOW,
} from '../src/shared/domain/workflow/names';
import type { Actor, WorkflowDefinition } from '../src/shared/domain/workflow/types';
import type { UserType } from '../src/shared/permissions';
import {
  ACCOUNT_TYPES,
  AGENCY_NAMES,
  AT_RISK_REASONS,
  BANKS,
  BROKER_WORDS,
  COMMUNE_UF_M2,
  COMMUNES,
  FEMALE_NAMES,
  MALE_NAMES,
  PAYMENT_COMMENTS,
  PROJECT_NAMES,
  RESCISSION_REASONS,
  SALE_COMMENTS,
  STREETS,
  SURNAMES,
} from './demo-data-names';
import {
  flowTaskRowId,
  type PaymentModel,
  paymentDone,
  paymentModelOf,
  paymentTime,
  type SaleModel,
  SimulatedFlow,
  saleDone,
  saleModelOf,
  saleTaskTime,
  writeFlows,
} from './demo-flows';

/** Bump when the generated data changes shape: a reused benchmark dataset is then regenerated. */
export const GENERATOR_VERSION = 5;
/** The password of every generated user. */
export const DEMO_PASSWORD = 'demo-inmoflujo';
export const DEMO_EMAIL_DOMAIN = 'demo.inmoflujo.cl';
/** A surname that every scale uses (for search benchmarks and tests). */
export const COMMON_SURNAME = 'Valenzuela';
/** An apartment number that exists in every project of every scale ('1204': floor 12, unit 04). */
export const COMMON_APARTMENT = '1204';

export type ScaleName = 'e2e' | 'demo' | 'bench';

export interface Scale {
  name: ScaleName;
  clients: number;
  reservations: number;
  brokers: number;
  projects: number;
  agencies: number;
  /** Sellers besides the fixed demo users. */
  sellers: number;
  /** Extra back-office users (KAM, Gestor de Pagos, Operaciones) besides the fixed demo users. */
  extraStaff: number;
  floors: readonly [number, number];
  unitsPerFloor: readonly [number, number];
  /** The newest N reservations were created after the default sale assignees were configured. */
  flowsWithDefaultAssignees: number;
  /** Payment defaults were configured just before the newest N open payment tasks opened. */
  openPaymentTasksWithDefault: number;
  /** Older open tasks (sale, payment) assigned by hand to back-office users. */
  manualSaleAssignments: number;
  manualPaymentAssignments: number;
  comments: number;
  batchSize: number;
  /**
   * Skip per-row foreign-key triggers while loading (session_replication_role = replica; needs a
   * superuser, as on the embedded database). The rows reference each other correctly by
   * construction, which the tests check at the small scales where this stays off.
   */
  skipTriggers: boolean;
}

export const SCALES: Record<ScaleName, Scale> = {
  e2e: {
    name: 'e2e',
    clients: 60,
    reservations: 80,
    brokers: 8,
    projects: 4,
    agencies: 2,
    sellers: 2,
    extraStaff: 0,
    floors: [12, 18],
    unitsPerFloor: [4, 8],
    flowsWithDefaultAssignees: 10,
    openPaymentTasksWithDefault: Number.POSITIVE_INFINITY,
    manualSaleAssignments: 6,
    manualPaymentAssignments: 0,
    comments: 20,
    batchSize: 1000,
    skipTriggers: false,
  },
  demo: {
    name: 'demo',
    clients: 600,
    reservations: 800,
    brokers: 40,
    projects: 8,
    agencies: 3,
    sellers: 6,
    extraStaff: 0,
    floors: [16, 24],
    unitsPerFloor: [8, 10],
    flowsWithDefaultAssignees: 40,
    openPaymentTasksWithDefault: Number.POSITIVE_INFINITY,
    manualSaleAssignments: 30,
    manualPaymentAssignments: 0,
    comments: 150,
    batchSize: 1000,
    skipTriggers: false,
  },
  bench: {
    name: 'bench',
    clients: 100_000,
    reservations: 100_000,
    brokers: 200,
    projects: 120,
    agencies: 12,
    sellers: 60,
    extraStaff: 30,
    floors: [30, 45],
    unitsPerFloor: [24, 30],
    flowsWithDefaultAssignees: 40,
    openPaymentTasksWithDefault: 200,
    manualSaleAssignments: 400,
    manualPaymentAssignments: 400,
    comments: 5000,
    batchSize: 5000,
    skipTriggers: true,
  },
};

export interface GenerateOptions {
  scale: ScaleName | Scale;
  seed?: number;
  /** The present of the dataset (default: now). Dates fall in the 18 months before it. */
  now?: Date;
  log?: (message: string) => void;
}

export interface DemoLogin {
  email: string;
  name: string;
  userType: UserType;
  position: string;
  isSeller: boolean;
}

export interface DatasetSummary {
  scale: ScaleName;
  seed: number;
  now: string;
  users: DemoLogin[];
  counts: Record<string, number>;
  millis: number;
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness

/** mulberry32: small, fast, good enough for test data, and the same sequence for the same seed. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** Index chosen with the given (non-negative) weights. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i]!;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
  /** A version-4-shaped UUID from the sequence (deterministic ids let rows reference each other). */
  uuid(): string {
    let hex = '';
    for (let i = 0; i < 4; i++)
      hex += Math.floor(this.next() * 4_294_967_296)
        .toString(16)
        .padStart(8, '0');
    const variant = '89ab'[Number.parseInt(hex[16]!, 16) & 3];
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Time helpers. Instants are epoch milliseconds. Chile is UTC-4 (UTC-3 in summer): an instant
// between 13:00 and 21:00 UTC falls on the same calendar day in Santiago and in UTC.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The same day at a random office hour (13:00-21:00 UTC, i.e. 09:00-18:00 in Santiago). */
function atOfficeHour(ms: number, rng: Random): number {
  return Math.floor(ms / DAY) * DAY + 13 * HOUR + Math.floor(rng.next() * 8 * HOUR);
}
/** The calendar date ('YYYY-MM-DD') of an office-hour instant. */
function dateOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
/** The Santiago calendar date of any instant (standard time; good enough for document dates). */
function santiagoDate(ms: number): string {
  return new Date(ms - 4 * HOUR).toISOString().slice(0, 10);
}
function monthOf(date: string): string {
  return `${date.slice(0, 7)}-01`;
}
function iso(ms: number): string {
  return new Date(ms).toISOString();
}

// ---------------------------------------------------------------------------------------------
// Users

interface UserSeed {
  firstName: string;
  lastName: string;
  position: string;
  userType: UserType;
  isSeller?: boolean;
  key: string;
}

/** The fixed demo users: at least one of every user type, each with a role in the workflows. */
const FIXED_USERS: readonly UserSeed[] = [
  {
    key: 'gerenta',
    firstName: 'Camila',
    lastName: 'Fuentes',
    position: 'Gerenta Comercial',
    userType: 'Administrador',
  },
  {
    key: 'jefeInv',
    firstName: 'Rodrigo',
    lastName: 'Saavedra',
    position: 'Jefe de Inversiones',
    userType: 'Administrador',
  },
  { key: 'kam1', firstName: 'Valentina', lastName: 'Muñoz', position: 'KAM Brokers', userType: 'KAM' },
  { key: 'kam2', firstName: 'Matías', lastName: 'Contreras', position: 'KAM Brokers', userType: 'KAM' },
  {
    key: 'pagos1',
    firstName: 'Javiera',
    lastName: 'Rojas',
    position: 'Analista de Pagos',
    userType: 'Gestor de Pagos',
  },
  {
    key: 'pagos2',
    firstName: 'Felipe',
    lastName: 'Araya',
    position: 'Analista de Pagos',
    userType: 'Gestor de Pagos',
  },
  {
    key: 'supervisora',
    firstName: 'Catalina',
    lastName: 'Núñez',
    position: 'Supervisora de Ventas',
    userType: 'Supervisor',
    isSeller: true,
  },
  {
    key: 'control',
    firstName: 'Tomás',
    lastName: 'Vergara',
    position: 'Control de Gestión',
    userType: 'Supervisor',
  },
  {
    key: 'ops1',
    firstName: 'Ignacio',
    lastName: 'Pizarro',
    position: 'Jefe de Operaciones',
    userType: 'Operaciones',
  },
  {
    key: 'ops2',
    firstName: 'Fernanda',
    lastName: 'Soto',
    position: 'Analista de Operaciones',
    userType: 'Operaciones',
  },
];

const FIXED_SELLERS: readonly [string, string][] = [
  ['Daniela', 'Castro'],
  ['Sebastián', 'Reyes'],
  ['Constanza', 'Herrera'],
  ['Diego', 'Morales'],
  ['Francisca', 'Vega'],
  ['Benjamín', 'Espinoza'],
];

/** Default assignees of the payment tasks (Configuración Flujo Pago), by task name. */
const PAYMENT_DEFAULTS: Record<string, string> = {
  'Solicitud Liquidación': 'pagos1',
  'Solicitud a Jefe Inversiones': 'pagos1',
  'VB Jefe Inversiones': 'jefeInv',
  'Solicitud Gerente Comercial': 'pagos2',
  'VB Gerente Comercial': 'gerenta',
  'Solicitud Operaciones': 'pagos2',
  'VB Operaciones': 'ops1',
  'Solicitud Control de Gestión': 'pagos1',
  'VB Control de Gestión': 'control',
  'Generación de OC': 'ops2',
  'VB OC Gerencia Comercial': 'gerenta',
  'VB OC Gerencia General': 'jefeInv',
  'Envío OC Broker': 'kam1',
  'Recepción Factura Broker': 'kam2',
  'Generación de Entrada': 'ops2',
  'Aprobación de Entrada': 'ops1',
  'Notificación a Finanzas': 'pagos2',
  'Fecha de Pago': 'pagos1',
  'Generación de Entrada 2': 'ops2',
  'Aprobación de Entrada 2': 'ops1',
  'Envío Entrada Broker 2': 'kam1',
  'Recepción Factura 2 Broker': 'kam2',
  'Notificación a Finanzas 2': 'pagos2',
  'Fecha de Pago 2': 'pagos1',
};

/** Default sale assignees (Configuración Flujo Venta), by task name. */
const SALE_DEFAULTS: readonly [task: string, user: string][] = [
  ['SOLICITUD VB COF PENDIENTE', 'supervisora'],
  ['PENDIENTE VB PROMESA', 'supervisora'],
  ['PENDIENTE FIRMA ESCRITURA', 'ops1'],
];

function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.')
    .replace(/^\.|\.$/g, '');
}

// ---------------------------------------------------------------------------------------------
// Batched inserts through json_to_recordset (one parameter per batch, same SQL on both engines)

type Row = Record<string, unknown>;

async function insertRows(
  tx: Executor,
  table: string,
  columns: Record<string, string>,
  rows: readonly Row[],
  batchSize: number,
  progress?: (done: number) => void,
  /** Columns the database derives, as SQL over the batch's row `x` (for loads with triggers off). */
  derived: Record<string, SQL> = {},
): Promise<void> {
  const names = Object.keys(columns);
  const list = sql.raw([...names, ...Object.keys(derived)].join(', '));
  const values = sql.join([sql.raw(names.join(', ')), ...Object.values(derived)], sql`, `);
  const types = sql.raw(names.map((name) => `${name} ${columns[name]}`).join(', '));
  for (let start = 0; start < rows.length; start += batchSize) {
    const batch = rows.slice(start, start + batchSize);
    await tx.execute(
      sql`insert into ${sql.raw(table)} (${list}) select ${values} from json_to_recordset(${JSON.stringify(batch)}::json) as x(${types})`,
    );
    progress?.(Math.min(rows.length, start + batchSize));
  }
}

type FlowStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';

interface PaymentFlowPlan {
  id: string;
  model: PaymentModel;
  isSecond: boolean;
  reservationId: string;
  commissionId: string;
  createdAt: number;
  start: number;
  span: number;
  /** The instant the flow is looked at: now, or its reservation's rescission (when it is cancelled). */
  cutoff: number;
  /** Completed tasks in flow order at the cutoff; -1 while the flow is pending (not started). */
  done: number;
  status: FlowStatus;
  salt: number;
  createdBy: string;
}

/** Plans a payment flow created at `createdAt` and looked at on `cutoff` (null: not created yet). */
function planPaymentFlow(
  rng: Random,
  model: PaymentModel,
  isSecond: boolean,
  reservationId: string,
  commissionId: string,
  createdAt: number,
  cutoff: number,
  cancelled: boolean,
  createdBy: string,
): PaymentFlowPlan | null {
  if (createdAt > cutoff) return null;
  // 'Proceder con Pago' usually follows within days; some flows wait weeks for it.
  const start = atOfficeHour(createdAt + (rng.chance(0.75) ? rng.int(1, 6) : rng.int(7, 35)) * DAY, rng);
  const end = atOfficeHour(
    start + Math.max(model.tasks.length, Math.round(model.total * (0.6 + rng.next() * 1.4))) * DAY,
    rng,
  );
  const span = end - start;
  let done: number;
  let status: FlowStatus;
  if (cutoff < start) {
    done = -1;
    status = 'pending';
  } else if (cutoff < end) {
    done = paymentDone(model, start, span, cutoff);
    status = 'in_progress';
  } else {
    done = model.tasks.length;
    status = 'completed';
  }
  if (cancelled && status !== 'completed') status = 'cancelled';
  return {
    id: rng.uuid(),
    model,
    isSecond,
    reservationId,
    commissionId,
    createdAt,
    cutoff,
    start,
    span,
    done,
    status,
    salt: rng.int(0, 999),
    createdBy,
  };
}

function paymentFlowEnd(plan: PaymentFlowPlan): number {
  return plan.start + plan.span;
}
function paymentTaskDoneAt(plan: PaymentFlowPlan, taskName: string): number | null {
  const ord = plan.model.definition.tasks.findIndex((t) => t.name === taskName) + 1;
  if (ord === 0 || plan.done < ord) return null;
  return paymentTime(plan.model, plan.start, plan.span, plan.model.tasks[ord - 1]!.cum);
}

// ---------------------------------------------------------------------------------------------
// The generator: a table of contents (`generateDataset`), then one function per entity in the order
// they are made. The order is the dataset: every function draws from the one seeded sequence, so a
// step moved or a draw added changes every row after it.

function resolveScale(scale: ScaleName | Scale): Scale {
  return typeof scale === 'string' ? SCALES[scale] : scale;
}

function cents(value: number): string {
  return (Math.round(value) / 100).toFixed(2);
}

/** What every step is given: where it writes, at which scale, its random sequence and clock. */
interface Generation {
  tx: Executor;
  scale: Scale;
  seed: number;
  rng: Random;
  /** The present of the dataset (epoch milliseconds). */
  now: number;
  /** A valid RUT drawn in [min, max] that no other client, broker, agency or beneficiary has. */
  rut: (min: number, max: number) => string;
  counts: Record<string, number>;
  step: (label: string) => void;
}

/**
 * Fills a migrated, empty database with a dataset of the given scale. Runs in one transaction, so a
 * failure leaves nothing behind. Returns the counts and the demo logins.
 */
export async function generateDataset(db: Database, options: GenerateOptions): Promise<DatasetSummary> {
  const began = Date.now();
  const scale = resolveScale(options.scale);
  const seed = options.seed ?? 20_260_101;
  const now = (options.now ?? new Date()).getTime();
  const log = options.log ?? (() => {});
  const rng = new Random(seed);
  const step = (label: string) => log(`  ${label} (${((Date.now() - began) / 1000).toFixed(1)} s)`);
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const summary = await db.transaction(async (tx) => {
    // The generator writes as 'sistema' in the audit trail (decision 0024).
    await declareActor(tx, SYSTEM_ACTOR);
    const triggersSkipped = scale.skipTriggers && (await skipTriggers(tx, log));
    const workflows = await loadWorkflows(tx);
    const counts: Record<string, number> = {};
    const ctx: Generation = { tx, scale, seed, rng, now, rut: rutDrawer(rng), counts, step };

    const users = await generateUsers(ctx, passwordHash);
    const agencies = await generateAgencies(ctx, users);
    const projects = await generateProjects(ctx, agencies, users);
    const brokers = await generateBrokers(ctx, users);
    // Counted here, after the brokers, as before: the summary lists its counts in this order.
    counts.agencies = agencies.length;
    step(`${agencies.length} agencies, ${projects.length} projects, ${brokers.ids.length} brokers`);

    const clients = planClients(ctx);
    const times = drawReservationTimes(ctx);
    const sellers = weighSellers(ctx, users);
    const sales = planReservations(ctx, times, { users, sellers, projects, brokers, clients, workflows });
    step(`planned ${sales.plans.length} reservations`);
    await generateClients(ctx, clients, sellers, users);
    await insertReservations(ctx, sales);
    await generateStock(ctx, projects, sales.reservationRows, users);
    await insertPromotions(ctx, sales.promotionRows);
    await insertCommissions(ctx, sales.commissionRows);
    step(`${sales.commissionRows.length} commissions, ${sales.promotionRows.length} promotions`);

    const cast = flowCast(workflows, users);
    const saleFlows = await generateSaleFlows(ctx, sales.plans, cast);
    const paymentFlows = await generatePaymentFlows(ctx, sales.paymentPlans, cast, saleFlows.assignees);
    await generateSettings(ctx, cast, saleFlows.defaultsConfiguredAt, paymentFlows.defaultsFrom);
    await generateComments(ctx, saleFlows.open, paymentFlows.open, cast);
    step('settings and comments');

    await rebuildDerivedRows(ctx, triggersSkipped);
    return { counts, users: users.logins };
  });

  // Fresh statistics, hint bits and visibility maps, as a database that has lived a while would have
  // (the embedded database runs no autovacuum): the first requests then measure reading, not writing.
  await db.execute(sql`vacuum analyze`);
  log(`  vacuumed and analyzed (${((Date.now() - began) / 1000).toFixed(1)} s)`);
  return {
    scale: scale.name,
    seed,
    now: new Date(now).toISOString(),
    users: summary.users,
    counts: summary.counts,
    millis: Date.now() - began,
  };
}

/** Turns per-row foreign-key triggers off for this transaction when allowed; true when it did. */
async function skipTriggers(tx: Executor, log: (message: string) => void): Promise<boolean> {
  // Only a superuser may skip triggers; asking first keeps a PostgreSQL transaction usable.
  const [role] = await queryRows<{ superuser: string }>(
    tx,
    sql`select current_setting('is_superuser') as superuser`,
  );
  if (role?.superuser === 'on') {
    await tx.execute(sql`set local session_replication_role = replica`);
    return true;
  }
  log('  (not a superuser: foreign keys are checked row by row, which is slower)');
  return false;
}

/** The seeded workflow definitions and their timing models. */
interface Workflows {
  sale: WorkflowDefinition;
  main: WorkflowDefinition;
  second: WorkflowDefinition;
  saleModel: SaleModel;
  mainModel: PaymentModel;
  secondModel: PaymentModel;
}

/** The seeded definitions, loaded as the server loads them (no default assignees yet). */
async function loadWorkflows(tx: Executor): Promise<Workflows> {
  const sale = await definitionNamed(tx, SALE_WORKFLOW);
  const main = await definitionNamed(tx, FIRST_PAYMENT_WORKFLOW);
  const second = await definitionNamed(tx, SECOND_PAYMENT_WORKFLOW);
  return {
    sale,
    main,
    second,
    saleModel: saleModelOf(sale),
    mainModel: paymentModelOf(main),
    secondModel: paymentModelOf(second),
  };
}

function rutDrawer(rng: Random): (min: number, max: number) => string {
  const usedRuts = new Set<string>();
  return (min, max) => {
    for (;;) {
      const body = String(rng.int(min, max));
      const value = `${body}-${rutCheckDigit(body)}`;
      if (!usedRuts.has(value)) {
        usedRuts.add(value);
        return value;
      }
    }
  };
}

/** The column types of every table the generator loads (the record definition of `json_to_recordset`). */
const COLUMNS = {
  profiles: {
    id: 'uuid',
    email: 'text',
    password_hash: 'text',
    first_name: 'text',
    last_name: 'text',
    position: 'text',
    user_type: 'text',
    is_seller: 'boolean',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  real_estate_agencies: {
    id: 'uuid',
    rut: 'text',
    business_name: 'text',
    bank: 'text',
    account_type: 'text',
    account_number: 'text',
    created_by: 'uuid',
    updated_by: 'uuid',
    bank_changed_by: 'uuid',
    bank_changed_at: 'timestamptz',
    bank_verified_by: 'uuid',
    bank_verified_at: 'timestamptz',
  },
  projects: {
    id: 'uuid',
    name: 'text',
    stage: 'text',
    commune: 'text',
    deadline: 'date',
    real_estate_agency_id: 'uuid',
    total_units: 'integer',
    created_by: 'uuid',
    updated_by: 'uuid',
    created_at: 'timestamptz',
  },
  brokers: {
    id: 'uuid',
    rut: 'text',
    name: 'text',
    business_name: 'text',
    legal_representative: 'text',
    legal_representative_rut: 'text',
    commercial_address: 'text',
    commercial_address_commune: 'text',
    commercial_contact_name: 'text',
    commercial_contact_phone: 'text',
    commercial_contact_email: 'text',
    constitution_date: 'date',
    constitution_notary: 'text',
    operations_contact_name: 'text',
    operations_contact_phone: 'text',
    operations_contact_email: 'text',
    finance_contact_name: 'text',
    finance_contact_phone: 'text',
    finance_contact_email: 'text',
    kam_name: 'text',
    kam_phone: 'text',
    kam_email: 'text',
    kam_receives_commission: 'boolean',
    bank_name: 'text',
    bank_account_type: 'text',
    bank_account_number: 'text',
    bank_holder_name: 'text',
    bank_holder_rut: 'text',
    payment_email: 'text',
    bank_changed_by: 'uuid',
    bank_changed_at: 'timestamptz',
    bank_verified_by: 'uuid',
    bank_verified_at: 'timestamptz',
    created_by: 'uuid',
    updated_by: 'uuid',
    created_at: 'timestamptz',
  },
  clients: {
    id: 'uuid',
    rut: 'text',
    first_name: 'text',
    last_name: 'text',
    birth_date: 'date',
    phone: 'text',
    email: 'text',
    created_by: 'uuid',
    updated_by: 'uuid',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  reservations: {
    id: 'uuid',
    reservation_number: 'text',
    client_id: 'uuid',
    project_id: 'uuid',
    seller_id: 'uuid',
    reservation_date: 'date',
    apartment_number: 'text',
    parking_number: 'text',
    storage_number: 'text',
    apartment_price: 'numeric',
    parking_price: 'numeric',
    storage_price: 'numeric',
    total_price: 'numeric',
    column_discount: 'numeric',
    additional_discount: 'numeric',
    other_discount: 'numeric',
    minimum_price: 'numeric',
    reservation_payment: 'numeric',
    promise_payment: 'numeric',
    down_payment: 'numeric',
    credit_payment: 'numeric',
    subsidy_payment: 'numeric',
    total_payment: 'numeric',
    recovery_payment: 'numeric',
    is_with_broker: 'boolean',
    broker_id: 'uuid',
    promise_date: 'date',
    deed_date: 'date',
    commission_payment_month: 'date',
    commission_projection_month: 'date',
    bank_name: 'text',
    bank_executive: 'text',
    bank_executive_email: 'text',
    bank_executive_phone: 'text',
    is_rescinded: 'boolean',
    rescinded_at: 'timestamptz',
    rescinded_reason: 'text',
    rescinded_by: 'uuid',
    created_by: 'uuid',
    updated_by: 'uuid',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  units: {
    id: 'uuid',
    project_id: 'uuid',
    kind: 'text',
    number: 'text',
    floor: 'integer',
    building: 'text',
    typology: 'text',
    orientation: 'text',
    usable_area: 'numeric',
    terrace_area: 'numeric',
    total_area: 'numeric',
    blocked_reason: 'text',
    created_by: 'uuid',
    updated_by: 'uuid',
    created_at: 'timestamptz',
  },
  price_lists: {
    id: 'uuid',
    project_id: 'uuid',
    effective_date: 'date',
    price_count: 'integer',
    note: 'text',
    created_by: 'uuid',
    created_at: 'timestamptz',
  },
  price_list_items: { price_list_id: 'uuid', unit_id: 'uuid', effective_date: 'date', price: 'numeric' },
  reservation_units: {
    reservation_id: 'uuid',
    unit_id: 'uuid',
    price: 'numeric',
    price_list_id: 'uuid',
    is_live: 'boolean',
  },
  promotions: {
    reservation_id: 'uuid',
    amount: 'numeric',
    beneficiary: 'text',
    rut: 'text',
    bank: 'text',
    account_type: 'text',
    account_number: 'text',
    email: 'text',
    purchase_order: 'text',
    document_number: 'text',
    document_date: 'date',
    payment_date: 'date',
    created_by: 'uuid',
    updated_by: 'uuid',
    created_at: 'timestamptz',
    bank_changed_by: 'uuid',
    bank_changed_at: 'timestamptz',
    bank_verified_by: 'uuid',
    bank_verified_at: 'timestamptz',
  },
  broker_commissions: {
    id: 'uuid',
    reservation_id: 'uuid',
    broker_id: 'uuid',
    commission_amount: 'numeric',
    commission_includes_tax: 'boolean',
    net_commission: 'numeric',
    commission_for_discount: 'boolean',
    pays_secondary: 'boolean',
    number_of_payments: 'smallint',
    first_payment_percentage: 'smallint',
    purchase_order: 'text',
    invoice_1: 'text',
    invoice_1_date: 'date',
    payment_1_date: 'date',
    invoice_2: 'text',
    invoice_2_date: 'date',
    payment_2_date: 'date',
    difference: 'numeric',
    at_risk: 'boolean',
    at_risk_reason: 'text',
    penalty_amount: 'numeric',
    created_by: 'uuid',
    updated_by: 'uuid',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  workflow_task_default_assignees: {
    task_id: 'uuid',
    user_id: 'uuid',
    created_by: 'uuid',
    created_at: 'timestamptz',
  },
} satisfies Record<string, Record<string, string>>;

/** Inserts a table's rows in the scale's batches (`insertRows` with the table's column types). */
function loadRows(
  ctx: Generation,
  table: keyof typeof COLUMNS,
  rows: readonly Row[],
  progress?: (done: number) => void,
  derived?: Record<string, SQL>,
): Promise<void> {
  return insertRows(ctx.tx, table, COLUMNS[table], rows, ctx.scale.batchSize, progress, derived);
}

// --- Users ---------------------------------------------------------------------------------

interface Staff {
  logins: DemoLogin[];
  /** User ids by their key in FIXED_USERS (`kam1`, `ops1`…). */
  byKey: Map<string, string>;
  /** The two fixed administrators: the Gerenta Comercial, then the Jefe de Inversiones. */
  admins: string[];
  /** The supervisor who sells, then the sellers. */
  sellerIds: string[];
  /** Who open tasks may be assigned to by hand, or commented by. */
  backOffice: string[];
}

/** The fixed demo users, the scale's sellers and extra staff; admins get the admin role. */
async function generateUsers(ctx: Generation, passwordHash: string): Promise<Staff> {
  const { rng, now, scale } = ctx;
  const userRows: Row[] = [];
  const logins: DemoLogin[] = [];
  const byKey = new Map<string, string>();
  const emails = new Set<string>();
  const addUser = (seedUser: UserSeed) => {
    let email = `${slug(seedUser.firstName.split(' ')[0]!)}.${slug(seedUser.lastName.split(' ')[0]!)}@${DEMO_EMAIL_DOMAIN}`;
    for (let n = 2; emails.has(email); n++) email = email.replace(/(\d*)@/, `${n}@`);
    emails.add(email);
    const id = rng.uuid();
    byKey.set(seedUser.key, id);
    userRows.push({
      id,
      email,
      password_hash: passwordHash,
      first_name: seedUser.firstName,
      last_name: seedUser.lastName,
      position: seedUser.position,
      user_type: seedUser.userType,
      is_seller: seedUser.isSeller ?? false,
      created_at: iso(now - 600 * DAY),
      updated_at: iso(now - 600 * DAY),
    });
    logins.push({
      email,
      name: `${seedUser.firstName} ${seedUser.lastName}`,
      userType: seedUser.userType,
      position: seedUser.position,
      isSeller: seedUser.isSeller ?? false,
    });
    return id;
  };
  for (const user of FIXED_USERS) addUser(user);
  const sellerIds: string[] = [byKey.get('supervisora')!];
  for (let i = 0; i < scale.sellers; i++) sellerIds.push(addUser(sellerSeed(rng, i)));
  const backOffice: string[] = ['kam1', 'kam2', 'pagos1', 'pagos2', 'control', 'ops1', 'ops2'].map(
    (k) => byKey.get(k)!,
  );
  for (let i = 0; i < scale.extraStaff; i++) backOffice.push(addUser(staffSeed(rng, i)));
  const admins = [byKey.get('gerenta')!, byKey.get('jefeInv')!];
  await loadRows(ctx, 'profiles', userRows);
  await ctx.tx.execute(
    sql`insert into roles (name, description) values ('admin', 'Administrador del sistema con acceso total') on conflict (name) do nothing`,
  );
  await ctx.tx.execute(sql`insert into user_roles (user_id, role_id)
    select p.id, r.id from profiles p cross join roles r
    where r.name = 'admin' and p.user_type = 'Administrador' and p.email like ${`%@${DEMO_EMAIL_DOMAIN}`}
    on conflict do nothing`);
  ctx.counts.users = userRows.length;
  ctx.step(`${userRows.length} users`);
  return { logins, byKey, admins, sellerIds, backOffice };
}

/** The i-th seller: the fixed sellers first, then drawn names. */
function sellerSeed(rng: Random, i: number): UserSeed {
  const fixed = FIXED_SELLERS[i];
  const female = rng.chance(0.5);
  const firstName = fixed?.[0] ?? rng.pick(female ? FEMALE_NAMES : MALE_NAMES);
  const lastName = fixed?.[1] ?? rng.pick(SURNAMES);
  const isFemale = (FEMALE_NAMES as readonly string[]).includes(firstName);
  const position = isFemale ? 'Ejecutiva de Ventas' : 'Ejecutivo de Ventas';
  return { key: `seller${i}`, firstName, lastName, position, userType: 'Operaciones', isSeller: true };
}

const STAFF_TYPES: readonly UserType[] = ['KAM', 'Gestor de Pagos', 'Operaciones', 'Supervisor'];

/** The i-th extra back-office user, the user types in turn. */
function staffSeed(rng: Random, i: number): UserSeed {
  const female = rng.chance(0.5);
  const userType = STAFF_TYPES[i % STAFF_TYPES.length]!;
  return {
    key: `staff${i}`,
    firstName: rng.pick(female ? FEMALE_NAMES : MALE_NAMES),
    lastName: `${rng.pick(SURNAMES)} ${rng.pick(SURNAMES)}`,
    position:
      userType === 'Gestor de Pagos' ? 'Analista de Pagos' : userType === 'KAM' ? 'KAM Brokers' : 'Analista',
    userType,
  };
}

// --- Agencies, projects, brokers -----------------------------------------------------------

async function generateAgencies(ctx: Generation, users: Staff): Promise<Row[]> {
  const { rng, rut } = ctx;
  const agencyRows: Row[] = [];
  for (let i = 0; i < ctx.scale.agencies; i++) {
    agencyRows.push({
      id: rng.uuid(),
      rut: rut(76_000_000, 77_999_999),
      business_name:
        AGENCY_NAMES[i % AGENCY_NAMES.length]! +
        (i >= AGENCY_NAMES.length ? ` ${Math.floor(i / AGENCY_NAMES.length) + 1}` : ''),
      bank: rng.pick(BANKS),
      account_type: rng.chance(0.85) ? 'Cuenta Corriente' : rng.pick(ACCOUNT_TYPES),
      account_number: String(rng.int(10_000_000, 99_999_999)),
      created_by: users.admins[0],
      updated_by: users.admins[0],
      // Entered by an administrator, verified by the payments team (decision 0063); no draw.
      bank_changed_by: users.admins[0],
      bank_changed_at: iso(ctx.now - 400 * DAY),
      bank_verified_by: users.byKey.get('pagos1'),
      bank_verified_at: iso(ctx.now - 399 * DAY),
    });
  }
  await loadRows(ctx, 'real_estate_agencies', agencyRows);
  return agencyRows;
}

interface ProjectPlan {
  id: string;
  commune: string;
  deadline: number;
  units: string[];
  /** Every apartment number (`units` is what is left to reserve). */
  allUnits: string[];
  parking: number;
  storage: number;
  weight: number;
  ufM2: number;
}

/** Projects in stages (a name's later stages deliver later), each with its shuffled apartments. */
async function generateProjects(ctx: Generation, agencyRows: Row[], users: Staff): Promise<ProjectPlan[]> {
  const { rng, now, scale } = ctx;
  const projects: ProjectPlan[] = [];
  const projectRows: Row[] = [];
  const nameCount = Math.min(PROJECT_NAMES.length, Math.ceil(scale.projects * 0.7));
  const firstStageDeadline: number[] = [];
  for (let i = 0; i < scale.projects; i++) {
    const nameIndex = i % nameCount;
    const stageNo = Math.floor(i / nameCount) + 1;
    const [name, commune] = PROJECT_NAMES[nameIndex]!;
    if (stageNo === 1) firstStageDeadline[nameIndex] = now + rng.int(-20, 8) * 30 * DAY;
    const deadline = atOfficeHour(
      firstStageDeadline[nameIndex]! + (stageNo - 1) * rng.int(9, 14) * 30 * DAY,
      rng,
    );
    const floors = rng.int(scale.floors[0], scale.floors[1]);
    const perFloor = rng.int(scale.unitsPerFloor[0], scale.unitsPerFloor[1]);
    const units: string[] = [];
    for (let f = 1; f <= floors; f++)
      for (let u = 1; u <= perFloor; u++) units.push(`${f}${String(u).padStart(2, '0')}`);
    rng.shuffle(units);
    const id = rng.uuid();
    projects.push({
      id,
      commune,
      deadline,
      units,
      allUnits: [...units],
      parking: 0,
      storage: 0,
      weight: 0.5 + rng.next(),
      ufM2: COMMUNE_UF_M2[commune] ?? 60,
    });
    projectRows.push({
      id,
      name,
      stage: `Etapa ${stageNo}`,
      commune,
      deadline: dateOf(deadline),
      real_estate_agency_id: agencyRows[i % agencyRows.length]!.id,
      total_units: units.length,
      created_by: users.admins[0],
      updated_by: users.admins[0],
      created_at: iso(now - 600 * DAY),
    });
  }
  await loadRows(ctx, 'projects', projectRows);
  ctx.counts.projects = projectRows.length;
  return projects;
}

interface BrokerPool {
  ids: string[];
  /** How often each broker sells (a few sell most). */
  weights: number[];
}

const KAM_NAMES = ['Valentina Muñoz', 'Matías Contreras'];

async function generateBrokers(ctx: Generation, users: Staff): Promise<BrokerPool> {
  const brokerRows: Row[] = [];
  const pool: BrokerPool = { ids: [], weights: [] };
  for (let i = 0; i < ctx.scale.brokers; i++) brokerRows.push(brokerRow(ctx, i, pool, users));
  await loadRows(ctx, 'brokers', brokerRows);
  ctx.counts.brokers = brokerRows.length;
  return pool;
}

/** The i-th broker's row; its id and weight join the pool. */
function brokerRow(ctx: Generation, i: number, pool: BrokerPool, users: Staff): Row {
  const { rng, rut, now } = ctx;
  const contact = () => `${rng.pick(rng.chance(0.5) ? FEMALE_NAMES : MALE_NAMES)} ${rng.pick(SURNAMES)}`;
  const phone = () => `+56 9 ${rng.int(1000, 9999)} ${rng.int(1000, 9999)}`;
  const word = BROKER_WORDS[i % BROKER_WORDS.length]!;
  const surname = rng.pick(SURNAMES);
  const name =
    i < BROKER_WORDS.length
      ? `Propiedades ${word}`
      : i < 2 * BROKER_WORDS.length
        ? `${surname} & Asociados`
        : `Corredora ${word} ${i}`;
  const domain = `${slug(name).replace(/\./g, '')}.cl`;
  const id = rng.uuid();
  pool.ids.push(id);
  pool.weights.push(rng.next() ** 2 + 0.05);
  const brokerRut = rut(76_000_000, 77_999_999);
  const businessName = `${name.replace(' & Asociados', ' y Asociados')} Corredores de Propiedades ${rng.chance(0.6) ? 'SpA' : 'Limitada'}`;
  return {
    id,
    rut: brokerRut,
    name,
    business_name: businessName,
    legal_representative: contact(),
    legal_representative_rut: rut(7_000_000, 19_999_999),
    commercial_address: `${rng.pick(STREETS)} ${rng.int(100, 9_999)}, oficina ${rng.int(101, 1_802)}`,
    commercial_address_commune: rng.pick(COMMUNES),
    commercial_contact_name: contact(),
    commercial_contact_phone: phone(),
    commercial_contact_email: `contacto@${domain}`,
    constitution_date: dateOf(now - rng.int(2, 20) * 365 * DAY),
    constitution_notary: `Notaría ${rng.pick(SURNAMES)}`,
    operations_contact_name: rng.chance(0.7) ? contact() : null,
    operations_contact_phone: rng.chance(0.7) ? phone() : null,
    operations_contact_email: rng.chance(0.7) ? `operaciones@${domain}` : null,
    finance_contact_name: rng.chance(0.8) ? contact() : null,
    finance_contact_phone: rng.chance(0.8) ? phone() : null,
    finance_contact_email: rng.chance(0.8) ? `finanzas@${domain}` : null,
    kam_name: KAM_NAMES[i % 2],
    kam_phone: phone(),
    kam_email: `${slug(KAM_NAMES[i % 2]!)}@${DEMO_EMAIL_DOMAIN}`,
    kam_receives_commission: rng.chance(0.3),
    ...brokerBankData(ctx, i, { rut: brokerRut, businessName, domain }, users),
    created_by: users.byKey.get(i % 2 === 0 ? 'kam1' : 'kam2'),
    updated_by: users.byKey.get(i % 2 === 0 ? 'kam1' : 'kam2'),
    created_at: iso(now - rng.int(400, 700) * DAY),
  };
}

const BROKER_BANKS = ['Banco de Chile', 'Banco Santander', 'BCI', 'Banco Itaú', 'Scotiabank', 'BancoEstado'];
const BROKER_ACCOUNT_TYPES = ['Cuenta Corriente', 'Cuenta Vista', 'Cuenta de Ahorro'];

/**
 * Every demo broker's account (issue 53): held by the broker itself, entered by the payments team
 * and verified by an administrator a day later, so a 'Nómina de pago' can be tried. Derived from the
 * broker's number, not drawn: the seeded stream (and every figure after it) stays as it was.
 */
function brokerBankData(
  ctx: Generation,
  i: number,
  broker: { rut: string; businessName: string; domain: string },
  users: Staff,
): Row {
  const changedAt = ctx.now - (300 + (i % 60)) * DAY;
  return {
    bank_name: BROKER_BANKS[i % BROKER_BANKS.length]!,
    bank_account_type: BROKER_ACCOUNT_TYPES[i % BROKER_ACCOUNT_TYPES.length]!,
    bank_account_number: `${broker.rut.slice(0, 8)}${String(i).padStart(4, '0')}`,
    bank_holder_name: broker.businessName,
    bank_holder_rut: broker.rut,
    payment_email: `pagos@${broker.domain}`,
    bank_changed_by: users.byKey.get(i % 2 === 0 ? 'pagos1' : 'pagos2'),
    bank_changed_at: iso(changedAt),
    bank_verified_by: users.admins[0],
    bank_verified_at: iso(changedAt + DAY),
  };
}

// --- Clients (created with or before their first reservation) ------------------------------

interface ClientPlan {
  id: string;
  firstName: string;
  lastName: string;
  createdAt: number | null;
}

/** The clients' names and ids; when each was created is known once its first reservation is. */
function planClients(ctx: Generation): ClientPlan[] {
  const { rng } = ctx;
  const clientPlans: ClientPlan[] = [];
  for (let i = 0; i < ctx.scale.clients; i++) {
    const female = rng.chance(0.5);
    const first = rng.pick(female ? FEMALE_NAMES : MALE_NAMES);
    const lastName = `${rng.pick(SURNAMES)} ${rng.pick(SURNAMES)}`;
    clientPlans.push({ id: rng.uuid(), firstName: first, lastName, createdAt: null });
  }
  // Every scale has clients with the common surname, so searches for it always find someone.
  for (let i = 0; i < clientPlans.length; i += 40) {
    const client = clientPlans[i]!;
    client.lastName = `${COMMON_SURNAME} ${client.lastName.split(' ')[1]}`;
  }
  return clientPlans;
}

/** The clients' rows: those that never reserved were registered at some point of the 18 months. */
async function generateClients(
  ctx: Generation,
  clientPlans: ClientPlan[],
  sellers: Sellers,
  users: Staff,
): Promise<void> {
  const { rng, rut, now } = ctx;
  const clientRows: Row[] = clientPlans.map((client) => {
    const created = client.createdAt ?? now - rng.int(1, SPAN_DAYS) * DAY + rng.int(0, 8) * HOUR;
    // Older people have lower RUT numbers (they were registered earlier).
    const age = rng.int(24, 70);
    const birthYear = new Date(now).getUTCFullYear() - age;
    const bodyMin = Math.max(5_000_000, 25_000_000 - (age - 18) * 380_000);
    const withEmail = rng.chance(0.9);
    const creator = rng.chance(0.8) ? sellers.ids[rng.weighted(sellers.weights)]! : users.admins[0]!;
    return {
      id: client.id,
      rut: rut(bodyMin, bodyMin + 1_500_000),
      first_name: client.firstName,
      last_name: client.lastName,
      birth_date: `${birthYear}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
      phone: rng.chance(0.85) ? `+56 9 ${rng.int(1000, 9999)} ${rng.int(1000, 9999)}` : null,
      email: withEmail
        ? `${slug(client.firstName.split(' ')[0]!)}.${slug(client.lastName.split(' ')[0]!)}${rng.int(1, 999)}@${rng.pick(['gmail.com', 'hotmail.com', 'outlook.com', 'yahoo.es', 'live.cl'])}`
        : null,
      created_by: creator,
      updated_by: creator,
      created_at: iso(created),
      updated_at: iso(created),
    };
  });
  await loadRows(
    ctx,
    'clients',
    clientRows,
    (n) => n % 20_000 === 0 && ctx.step(`clients ${n}/${clientRows.length}`),
  );
  ctx.counts.clients = clientRows.length;
  ctx.step(`${clientRows.length} clients`);
}

// --- Reservations, with their promotions, commissions and payment flow plans -----------------

/** The dataset spans 18 months before its present. */
const SPAN_DAYS = 548;

/** When each reservation was made, oldest first. */
function drawReservationTimes(ctx: Generation): number[] {
  const { rng, now } = ctx;
  const reservationTimes: number[] = [];
  for (let i = 0; i < ctx.scale.reservations; i++) {
    // Half uniform over 18 months, half increasingly dense toward today: recent months are busier.
    const x = rng.chance(0.5) ? rng.next() : Math.sqrt(rng.next());
    const ageDays = Math.min(SPAN_DAYS - 1, Math.floor((1 - x) * SPAN_DAYS));
    const day = Math.floor((now - ageDays * DAY) / DAY) * DAY;
    let created = day + 13 * HOUR + Math.floor(rng.next() * 8 * HOUR);
    if (created > now) created = now - Math.floor(rng.next() * HOUR);
    reservationTimes.push(created);
  }
  return reservationTimes.sort((a, b) => a - b);
}

interface Sellers {
  ids: string[];
  /** How often each sells: the supervisor less than the sellers. */
  weights: number[];
}

function weighSellers(ctx: Generation, users: Staff): Sellers {
  return {
    ids: users.sellerIds,
    weights: users.sellerIds.map((_, i) => (i === 0 ? 0.3 : 0.6 + ctx.rng.next())),
  };
}

interface ReservationPlan {
  id: string;
  number: string;
  created: number;
  clientId: string;
  projectIndex: number;
  sellerId: string;
  brokerId: string | null;
  b: number[];
  rescindedAt: number | null;
  cutoff: number;
  saleFlowId: string;
  saleDone: number;
  saleStatus: FlowStatus;
  createdBy: string;
}

/** Who and what the reservations are made of. */
interface SaleParties {
  users: Staff;
  sellers: Sellers;
  projects: ProjectPlan[];
  brokers: BrokerPool;
  clients: ClientPlan[];
  workflows: Workflows;
}

/** The planned reservations and the rows that hang from them, inserted later in their own steps. */
interface Sales {
  plans: ReservationPlan[];
  reservationRows: Row[];
  promotionRows: Row[];
  commissionRows: Row[];
  paymentPlans: PaymentFlowPlan[];
}

/** One reservation: its plan and row, the prices it was computed from, and its sale's milestones. */
interface Reservation {
  plan: ReservationPlan;
  row: Row;
  client: ClientPlan;
  prices: Prices;
  promiseAt: number;
  deedAt: number;
}

function planReservations(ctx: Generation, times: number[], parties: SaleParties): Sales {
  const sales: Sales = {
    plans: [],
    reservationRows: [],
    promotionRows: [],
    commissionRows: [],
    paymentPlans: [],
  };
  const pickClient = clientPicker(ctx.rng, parties.clients);
  const numberBase = ctx.scale.reservations >= 10_000 ? 100_001 : 1_001;
  for (let i = 0; i < times.length; i++) {
    const created = times[i]!;
    const client = pickClient();
    client.createdAt ??= created - ctx.rng.int(0, 20) * DAY - ctx.rng.int(1, 6) * HOUR;
    const reservation = planReservation(ctx, String(numberBase + i), created, client, parties);
    sales.plans.push(reservation.plan);
    sales.reservationRows.push(reservation.row);
    const promotion = generatePromotion(ctx, reservation, parties.users);
    if (promotion) sales.promotionRows.push(promotion);
    if (reservation.plan.brokerId) generateCommission(ctx, reservation, parties, sales);
  }
  return sales;
}

/** Most reservations bring a new client; some are repeat buyers (investors). */
function clientPicker(rng: Random, clientPlans: ClientPlan[]): () => ClientPlan {
  let nextUnusedClient = 0;
  const usedClients: number[] = [];
  return () => {
    let clientIndex: number;
    if (nextUnusedClient < clientPlans.length && (usedClients.length === 0 || rng.chance(0.85))) {
      clientIndex = nextUnusedClient++;
      usedClients.push(clientIndex);
    } else {
      clientIndex = usedClients[rng.int(0, usedClients.length - 1)]!;
    }
    return clientPlans[clientIndex]!;
  };
}

/** A project with units left, drawn by the projects' weights. */
function pickProject(rng: Random, projects: ProjectPlan[]): number {
  let projectIndex = rng.weighted(projects.map((p) => p.weight));
  for (let tries = 0; projects[projectIndex]!.units.length === 0; tries++) {
    projectIndex = (projectIndex + 1) % projects.length;
    if (tries > projects.length) throw new Error('Not enough units for the reservations of this scale');
  }
  return projectIndex;
}

function planReservation(
  ctx: Generation,
  number: string,
  created: number,
  client: ClientPlan,
  parties: SaleParties,
): Reservation {
  const { rng, now } = ctx;
  const { saleModel } = parties.workflows;
  const projectIndex = pickProject(rng, parties.projects);
  const project = parties.projects[projectIndex]!;
  const apartment = project.units.pop()!;
  const sellerId = parties.sellers.ids[rng.weighted(parties.sellers.weights)]!;
  const withBroker = rng.chance(0.6);
  const brokerId = withBroker ? parties.brokers.ids[rng.weighted(parties.brokers.weights)]! : null;
  const prices = drawPrices(rng, project);
  const b = drawSaleMilestones(rng, saleModel, created, project.deadline);
  const deedAt = b[3] ?? b[b.length - 1]!;
  const promiseAt = b[2] ?? b[b.length - 1]!;

  // Some reservations are rescinded before the deed.
  let rescindedAt: number | null = null;
  const latest = Math.min(now, deedAt - DAY);
  if (rng.chance(0.045) && latest > created + 3 * DAY) {
    rescindedAt = created + 3 * DAY + Math.floor(rng.next() * (latest - created - 3 * DAY));
  }
  const cutoff = rescindedAt ?? now;
  const done = saleDone(saleModel, b, cutoff);
  const saleStatus: FlowStatus =
    done === saleModel.tasks.length ? 'completed' : rescindedAt !== null ? 'cancelled' : 'in_progress';
  const id = rng.uuid();
  const createdBy = rng.chance(0.85) ? sellerId : parties.users.admins[0]!;
  const plan: ReservationPlan = {
    id,
    number,
    created,
    clientId: client.id,
    projectIndex,
    sellerId,
    brokerId,
    b,
    rescindedAt,
    cutoff,
    saleFlowId: rng.uuid(),
    saleDone: done,
    saleStatus,
    createdBy,
  };
  const inEscrituracion = done >= saleModel.tasks.filter((t) => t.stageNo <= 2).length;
  const row = reservationRow(
    ctx,
    plan,
    { project, apartment, prices, promiseAt, deedAt, inEscrituracion },
    parties,
  );
  return { plan, row, client, prices, promiseAt, deedAt };
}

interface Prices {
  inputs: Parameters<typeof reservationFigures>[0];
  figures: ReturnType<typeof reservationFigures>;
  hasParking: boolean;
  hasStorage: boolean;
}

/** The unit's prices, discounts and payments; the stored figures are the shared pricing math's. */
function drawPrices(rng: Random, project: ProjectPlan): Prices {
  // Prices in cents, so every input is an exact two-decimal amount.
  const m2 = rng.int(38, 110);
  const apartmentCents = Math.round((project.ufM2 * m2 * (0.9 + rng.next() * 0.2)) / 5) * 500;
  const hasParking = rng.chance(0.7);
  const hasStorage = rng.chance(0.55);
  const parkingCents = hasParking ? rng.int(250, 480) * 100 : 0;
  const storageCents = hasStorage ? rng.int(50, 130) * 100 : 0;
  const columnDiscount = (rng.int(0, 16) * 0.005).toFixed(3);
  const additionalDiscount = rng.chance(0.3) ? (rng.int(1, 6) * 0.005).toFixed(3) : '0';
  const otherDiscount = rng.chance(0.1) ? (rng.int(1, 4) * 0.005).toFixed(3) : '0';
  const minimumEstimate =
    apartmentCents *
      (1 - Number(columnDiscount)) *
      (1 - Number(additionalDiscount)) *
      (1 - Number(otherDiscount)) +
    parkingCents +
    storageCents;
  const subsidyCents = rng.chance(0.5) ? Math.round((minimumEstimate * rng.int(5, 10)) / 100) : 0;
  const recoveryCents = Math.round(minimumEstimate * (0.995 + rng.next() * 0.02));
  const totalCents = recoveryCents + subsidyCents;
  const reservationCents = rng.int(20, 100) * 100;
  const creditCents = Math.round(totalCents * (rng.int(75, 90) / 100));
  const promiseCents = Math.round((totalCents - creditCents - reservationCents) * (rng.int(20, 60) / 100));
  const downCents = totalCents - creditCents - reservationCents - promiseCents - subsidyCents;
  const inputs = {
    apartmentPrice: cents(apartmentCents),
    parkingPrice: cents(parkingCents),
    storagePrice: cents(storageCents),
    columnDiscount,
    additionalDiscount,
    otherDiscount,
    reservationPayment: cents(reservationCents),
    promisePayment: cents(promiseCents),
    downPayment: cents(Math.max(0, downCents)),
    creditPayment: cents(creditCents),
    subsidyPayment: cents(subsidyCents),
  };
  return { inputs, figures: reservationFigures(inputs), hasParking, hasStorage };
}

/**
 * The sale flow's stage boundaries: Reserva in days, Promesa in weeks, Escrituración waits for the
 * project's delivery, Reparos a few days.
 */
function drawSaleMilestones(rng: Random, saleModel: SaleModel, created: number, deadline: number): number[] {
  const b = [created];
  for (let s = 1; s <= saleModel.stageCount; s++) {
    const prev = b[s - 1]!;
    let days: number;
    if (s === 1) days = rng.int(1, 7);
    else if (s === 2) days = rng.int(15, 60);
    else if (s === 3) days = Math.max(rng.int(30, 100), Math.ceil((deadline - prev) / DAY) + rng.int(15, 90));
    else if (s === 4) days = rng.int(3, 20);
    else days = rng.int(5, 30);
    b.push(atOfficeHour(prev + days * DAY, rng));
  }
  return b;
}

function reservationRow(
  ctx: Generation,
  plan: ReservationPlan,
  sale: {
    project: ProjectPlan;
    apartment: string;
    prices: Prices;
    promiseAt: number;
    deedAt: number;
    inEscrituracion: boolean;
  },
  parties: SaleParties,
): Row {
  const { rng } = ctx;
  const { project, prices, promiseAt, deedAt } = sale;
  const { inputs, figures } = prices;
  const { rescindedAt, cutoff, created } = plan;
  const bank = sale.inEscrituracion ? rng.pick(BANKS) : null;
  const executive = bank
    ? `${rng.pick(rng.chance(0.5) ? FEMALE_NAMES : MALE_NAMES)} ${rng.pick(SURNAMES)}`
    : null;
  return {
    id: plan.id,
    reservation_number: plan.number,
    client_id: plan.clientId,
    project_id: project.id,
    seller_id: plan.sellerId,
    reservation_date: dateOf(created),
    apartment_number: sale.apartment,
    parking_number: prices.hasParking ? `E-${++project.parking}` : null,
    storage_number: prices.hasStorage ? `B-${++project.storage}` : null,
    apartment_price: inputs.apartmentPrice,
    parking_price: inputs.parkingPrice,
    storage_price: inputs.storagePrice,
    total_price: figures.totalPrice,
    column_discount: inputs.columnDiscount,
    additional_discount: inputs.additionalDiscount,
    other_discount: inputs.otherDiscount,
    minimum_price: figures.minimumPrice,
    reservation_payment: inputs.reservationPayment,
    promise_payment: inputs.promisePayment,
    down_payment: inputs.downPayment,
    credit_payment: inputs.creditPayment,
    subsidy_payment: inputs.subsidyPayment,
    total_payment: figures.totalPayment,
    recovery_payment: figures.recoveryPayment,
    is_with_broker: plan.brokerId !== null,
    broker_id: plan.brokerId,
    promise_date: promiseAt <= cutoff ? dateOf(promiseAt) : null,
    deed_date: deedAt <= cutoff ? dateOf(deedAt) : null,
    commission_payment_month: null,
    commission_projection_month: null,
    bank_name: bank,
    bank_executive: executive,
    bank_executive_email: executive ? `${slug(executive)}@${slug(bank!).replace(/\./g, '')}.cl` : null,
    bank_executive_phone: executive ? `+56 2 ${rng.int(2000, 2999)} ${rng.int(1000, 9999)}` : null,
    is_rescinded: rescindedAt !== null,
    rescinded_at: rescindedAt !== null ? iso(rescindedAt) : null,
    rescinded_reason: rescindedAt !== null ? rng.pick(RESCISSION_REASONS) : null,
    rescinded_by: rescindedAt !== null ? parties.users.admins[rng.int(0, 1)] : null,
    created_by: plan.createdBy,
    updated_by: plan.createdBy,
    created_at: iso(created),
    updated_at: iso(rescindedAt ?? created),
  };
}

/** A promotion paid to the client, for about one reservation in twelve (null for the rest). */
function generatePromotion(ctx: Generation, reservation: Reservation, users: Staff): Row | null {
  const { rng, rut } = ctx;
  const { plan, client, promiseAt } = reservation;
  if (!rng.chance(0.08)) return null;
  return {
    reservation_id: plan.id,
    amount: cents(rng.int(20, 150) * 100),
    beneficiary: `${client.firstName} ${client.lastName}`,
    rut: rut(7_000_000, 24_999_999),
    bank: rng.pick(BANKS),
    account_type: rng.pick(ACCOUNT_TYPES),
    account_number: String(rng.int(1_000_000, 99_999_999)),
    email: `${slug(client.firstName.split(' ')[0]!)}.${slug(client.lastName.split(' ')[0]!)}@gmail.com`,
    purchase_order: rng.chance(0.5) ? `OC-P${rng.int(10_000, 99_999)}` : null,
    document_number: null,
    document_date: null,
    payment_date: promiseAt <= plan.cutoff && rng.chance(0.6) ? dateOf(promiseAt) : null,
    created_by: plan.createdBy,
    updated_by: plan.createdBy,
    created_at: iso(plan.created + DAY),
    // The payee's account verified by the payments team (decision 0063), so a payment can be recorded
    // in the demo; no draw, so the seeded stream is unchanged.
    bank_changed_by: plan.createdBy,
    bank_changed_at: iso(plan.created + DAY),
    bank_verified_by:
      plan.createdBy === users.byKey.get('pagos1') ? users.admins[0] : users.byKey.get('pagos1'),
    bank_verified_at: iso(plan.created + 2 * DAY),
  };
}

/**
 * The broker's commission of a reservation sold through one, its payment flows' plans, and the
 * reservation's commission months (set on its row).
 */
function generateCommission(
  ctx: Generation,
  reservation: Reservation,
  parties: SaleParties,
  sales: Sales,
): void {
  const { rng } = ctx;
  const { plan, row, promiseAt } = reservation;
  const { id, rescindedAt, created } = plan;
  const { commission, cf } = drawCommissionTerms(rng, reservation.prices);
  const commissionId = rng.uuid();
  const kam = parties.users.byKey.get(rng.chance(0.5) ? 'kam1' : 'kam2')!;
  const { first, second } = planPaymentFlows(
    ctx,
    reservation,
    commission.numberOfPayments,
    commissionId,
    parties,
  );
  if (first) sales.paymentPlans.push(first);
  if (second) sales.paymentPlans.push(second);
  const paid1 = first?.status === 'completed' ? paymentFlowEnd(first) : null;
  const paid2 = second?.status === 'completed' ? paymentFlowEnd(second) : null;
  const ocAt = first ? paymentTaskDoneAt(first, 'Generación de OC') : null;
  const invoice1At = first ? paymentTaskDoneAt(first, 'Recepción Factura Broker') : null;
  const invoice2At = second ? paymentTaskDoneAt(second, 'Recepción Factura 2 Broker') : null;
  const cancelled = rescindedAt !== null;
  const atRisk = !cancelled && first !== null && paid2 === null && rng.chance(0.08);
  const penalty = cancelled ? drawPenalty(rng, commission, paid1, paid2) : null;
  sales.commissionRows.push({
    id: commissionId,
    reservation_id: id,
    broker_id: plan.brokerId,
    commission_amount: commission.commissionAmount,
    commission_includes_tax: commission.commissionIncludesTax,
    net_commission: cf.netCommission,
    commission_for_discount: rng.chance(0.8),
    pays_secondary: commission.paysSecondary,
    number_of_payments: commission.numberOfPayments,
    first_payment_percentage: commission.firstPaymentPercentage,
    purchase_order: ocAt !== null ? `OC-${rng.int(100_000, 999_999)}` : null,
    invoice_1: invoice1At !== null ? String(rng.int(1_000, 99_999)) : null,
    invoice_1_date: invoice1At !== null ? santiagoDate(invoice1At) : null,
    payment_1_date: paid1 !== null ? santiagoDate(paid1) : null,
    invoice_2: invoice2At !== null ? String(rng.int(1_000, 99_999)) : null,
    invoice_2_date: invoice2At !== null ? santiagoDate(invoice2At) : null,
    payment_2_date: paid2 !== null ? santiagoDate(paid2) : null,
    difference: cf.difference,
    at_risk: atRisk,
    at_risk_reason: atRisk ? rng.pick(AT_RISK_REASONS) : null,
    penalty_amount: penalty,
    created_by: kam,
    updated_by: kam,
    created_at: iso(created + HOUR),
    updated_at: iso(rescindedAt ?? created + HOUR),
  });
  row.commission_projection_month = monthOf(dateOf(promiseAt + 40 * DAY));
  row.commission_payment_month = paid1 !== null ? monthOf(santiagoDate(paid1)) : null;
}

/** Commission 1.5-3 % of the base, one payment (100 %) or two (25 or 50 % first), and its figures. */
function drawCommissionTerms(rng: Random, prices: Prices) {
  const { inputs, figures } = prices;
  const paysSecondary = rng.chance(0.2);
  const base = paysSecondary
    ? dec(figures.minimumPrice)
    : dec(figures.minimumPrice).minus(dec(inputs.parkingPrice)).minus(dec(inputs.storagePrice));
  const percent = rng.int(15, 30) / 10;
  const twoPayments = rng.chance(0.4);
  const commission = {
    commissionAmount: money(base.times(percent).div(100)),
    commissionIncludesTax: rng.chance(0.85),
    paysSecondary,
    numberOfPayments: (twoPayments ? 2 : 1) as 1 | 2,
    firstPaymentPercentage: (twoPayments ? (rng.chance(0.5) ? 25 : 50) : 100) as 25 | 50 | 100,
  };
  const cf = commissionFigures(commission, {
    minimumPrice: figures.minimumPrice,
    recoveryPayment: figures.recoveryPayment,
    parkingPrice: inputs.parkingPrice,
    storagePrice: inputs.storagePrice,
  });
  return { commission, cf };
}

/** The first payment flow is opened after the promise; the second (of two payments) after the deed. */
function planPaymentFlows(
  ctx: Generation,
  reservation: Reservation,
  numberOfPayments: 1 | 2,
  commissionId: string,
  parties: SaleParties,
): { first: PaymentFlowPlan | null; second: PaymentFlowPlan | null } {
  const { rng } = ctx;
  const { plan, promiseAt, deedAt } = reservation;
  const { id, cutoff } = plan;
  const { admins } = parties.users;
  const { mainModel, secondModel } = parties.workflows;
  const cancelled = plan.rescindedAt !== null;
  const first = planPaymentFlow(
    rng,
    mainModel,
    false,
    id,
    commissionId,
    atOfficeHour(promiseAt + rng.int(1, 20) * DAY, rng),
    cutoff,
    cancelled,
    admins[rng.int(0, 1)]!,
  );
  let second: PaymentFlowPlan | null = null;
  if (first?.status === 'completed' && numberOfPayments === 2) {
    second = planPaymentFlow(
      rng,
      secondModel,
      true,
      id,
      commissionId,
      atOfficeHour(Math.max(paymentFlowEnd(first), deedAt) + rng.int(1, 20) * DAY, rng),
      cutoff,
      cancelled,
      admins[rng.int(0, 1)]!,
    );
  }
  return { first, second };
}

/** Half the rescinded reservations whose broker was already paid carry a penalty: what was paid. */
function drawPenalty(
  rng: Random,
  commission: { commissionAmount: string; firstPaymentPercentage: 25 | 50 | 100 },
  paid1: number | null,
  paid2: number | null,
): string | null {
  if (!((paid1 !== null || paid2 !== null) && rng.chance(0.5))) return null;
  const gross = dec(commission.commissionAmount);
  const p1 = commission.firstPaymentPercentage;
  let amount = dec(0);
  if (paid1 !== null) amount = amount.plus(gross.times(p1).div(100));
  if (paid2 !== null) amount = amount.plus(gross.times(100 - p1).div(100));
  return money(amount);
}

async function insertReservations(ctx: Generation, sales: Sales): Promise<void> {
  const { reservationRows, plans } = sales;
  await loadRows(
    ctx,
    'reservations',
    reservationRows,
    (n) => n % 20_000 === 0 && ctx.step(`reservations ${n}/${reservationRows.length}`),
    // What the reservations_client_search trigger copies (decision 0025), when triggers are off.
    { client_search_text: sql`(select c.search_text from clients c where c.id = x.client_id)` },
  );
  ctx.counts.reservations = reservationRows.length;
  ctx.counts.rescinded = plans.filter((p) => p.rescindedAt !== null).length;
  ctx.step(`${reservationRows.length} reservations`);
}

async function insertPromotions(ctx: Generation, promotionRows: Row[]): Promise<void> {
  await loadRows(ctx, 'promotions', promotionRows);
  ctx.counts.promotions = promotionRows.length;
}

async function insertCommissions(ctx: Generation, commissionRows: Row[]): Promise<void> {
  await loadRows(ctx, 'broker_commissions', commissionRows);
  ctx.counts.commissions = commissionRows.length;
}

// --- Stock (decision 0032) -------------------------------------------------------------------

const TYPOLOGIES = [
  ['1D1B', 38, 48],
  ['2D1B', 48, 58],
  ['2D2B', 55, 72],
  ['3D2B', 72, 110],
] as const;
const ORIENTATIONS = ['Norte', 'Nororiente', 'Oriente', 'Poniente', 'Surponiente', 'Sur'];

/** The inventory being built: units, price lists and their items, and unit ids by project:kind:number. */
interface Stock {
  unitRows: Row[];
  listRows: Row[];
  itemRows: Row[];
  unitIds: Map<string, string>;
}

/**
 * Every project's inventory, its first price list, and the units each reservation holds (live
 * unless rescinded). Its own random sequence, so the rest of the dataset stays what it was.
 */
async function generateStock(
  ctx: Generation,
  projects: ProjectPlan[],
  reservationRows: Row[],
  users: Staff,
): Promise<void> {
  const unitRng = new Random(ctx.seed + 32);
  const stock: Stock = { unitRows: [], listRows: [], itemRows: [], unitIds: new Map() };
  const listIds = projects.map((project) => generateProjectStock(ctx, unitRng, project, stock, users));
  // Every unit of a project is on its first list.
  const pricesPerList = new Map<string, number>();
  for (const item of stock.itemRows) {
    const listId = item.price_list_id as string;
    pricesPerList.set(listId, (pricesPerList.get(listId) ?? 0) + 1);
  }
  for (const list of stock.listRows) list.price_count = pricesPerList.get(list.id as string) ?? 0;
  const listOf = new Map(projects.map((project, index) => [project.id, listIds[index]!]));
  const heldRows = heldUnitRows(reservationRows, listOf, stock.unitIds);

  const { unitRows } = stock;
  await loadRows(
    ctx,
    'units',
    unitRows,
    (n) => n % 100_000 === 0 && ctx.step(`units ${n}/${unitRows.length}`),
  );
  await loadRows(ctx, 'price_lists', stock.listRows);
  await loadRows(ctx, 'price_list_items', stock.itemRows);
  await loadRows(ctx, 'reservation_units', heldRows);
  ctx.counts.units = unitRows.length;
  ctx.counts.apartments = unitRows.filter((row) => row.kind === 'apartment').length;
  ctx.counts.priceLists = stock.listRows.length;
  ctx.step(
    `${unitRows.length} units (${ctx.counts.apartments} apartments), ${heldRows.length} held by reservations`,
  );
}

/** A project's apartments, parking and storage units, priced on its launch list (whose id it returns). */
function generateProjectStock(
  ctx: Generation,
  unitRng: Random,
  project: ProjectPlan,
  stock: Stock,
  users: Staff,
): string {
  const { now } = ctx;
  const admin = users.admins[0];
  const listDate = dateOf(now - 600 * DAY);
  const listId = unitRng.uuid();
  stock.listRows.push({
    id: listId,
    project_id: project.id,
    effective_date: listDate,
    price_count: 0,
    note: 'Lista de lanzamiento',
    created_by: admin,
    created_at: iso(now - 600 * DAY),
  });
  const add: AddUnit = (kind, number, floor, extra, priceCents) => {
    const id = unitRng.uuid();
    stock.unitIds.set(`${project.id}:${kind}:${number}`, id);
    stock.unitRows.push({
      id,
      project_id: project.id,
      kind,
      number,
      floor,
      building: null,
      typology: null,
      orientation: null,
      usable_area: null,
      terrace_area: null,
      total_area: null,
      blocked_reason: null,
      created_by: admin,
      updated_by: admin,
      created_at: iso(now - 600 * DAY),
      ...extra,
    });
    stock.itemRows.push({
      price_list_id: listId,
      unit_id: id,
      effective_date: listDate,
      price: cents(priceCents),
    });
  };
  addApartments(unitRng, project, add);
  const parkings = Math.max(project.parking, Math.ceil(project.allUnits.length * 0.8));
  for (let n = 1; n <= parkings; n++)
    add('parking', `E-${n}`, n % 2 === 0 ? -2 : -1, {}, unitRng.int(250, 480) * 100);
  const storages = Math.max(project.storage, Math.ceil(project.allUnits.length * 0.6));
  for (let n = 1; n <= storages; n++) add('storage', `B-${n}`, -1, {}, unitRng.int(50, 130) * 100);
  return listId;
}

type AddUnit = (kind: string, number: string, floor: number, extra: Row, priceCents: number) => void;

/** The project's apartments: typology, orientation and areas, priced by area and floor. */
function addApartments(unitRng: Random, project: ProjectPlan, add: AddUnit): void {
  // Each unit position of a floor keeps its typology, as a floor plan repeats.
  const typologyOf = new Map<string, (typeof TYPOLOGIES)[number]>();
  const unreserved = new Set(project.units);
  for (const number of [...project.allUnits].sort()) {
    const position = number.slice(-2);
    let typology = typologyOf.get(position);
    if (!typology) {
      typology = unitRng.pick(TYPOLOGIES);
      typologyOf.set(position, typology);
    }
    const usable = unitRng.int(typology[1], typology[2]);
    const terrace = unitRng.int(4, 14);
    const floor = Math.floor(Number(number) / 100);
    add(
      'apartment',
      number,
      floor,
      {
        typology: typology[0],
        orientation: unitRng.pick(ORIENTATIONS),
        usable_area: `${usable}.00`,
        terrace_area: `${terrace}.00`,
        total_area: `${usable + terrace}.00`,
        // A few units are kept off sale (the sales office's pilot).
        blocked_reason: unitRng.chance(0.004) && unreserved.has(number) ? 'Piloto de ventas' : null,
      },
      Math.round((project.ufM2 * (usable + terrace / 2) * (1 + floor * 0.004)) / 5) * 500,
    );
  }
}

/** The units each reservation holds at its prices: live unless the reservation was rescinded. */
function heldUnitRows(
  reservationRows: Row[],
  listOf: Map<string, string>,
  unitIds: Map<string, string>,
): Row[] {
  const heldRows: Row[] = [];
  for (const reservation of reservationRows) {
    const projectId = reservation.project_id as string;
    const listId = listOf.get(projectId)!;
    const hold = (kind: string, number: unknown, price: unknown) => {
      if (typeof number !== 'string') return;
      heldRows.push({
        reservation_id: reservation.id,
        unit_id: unitIds.get(`${projectId}:${kind}:${number}`)!,
        price,
        price_list_id: listId,
        is_live: !reservation.is_rescinded,
      });
    };
    hold('apartment', reservation.apartment_number, reservation.apartment_price);
    hold('parking', reservation.parking_number, reservation.parking_price);
    hold('storage', reservation.storage_number, reservation.storage_price);
  }
  return heldRows;
}

// --- Flows, moved by the workflow engine -----------------------------------------------------
// Every flow is instantiated and driven by the server's own engine with the commands its story
// implies, at their instants; a refusal would stop the generator. Then the states are written.

/** Who moves the flows, and the definitions with the default assignees that were configured. */
interface FlowCast {
  workflows: Workflows;
  users: Staff;
  saleWithDefaults: WorkflowDefinition;
  mainWithDefaults: WorkflowDefinition;
  secondWithDefaults: WorkflowDefinition;
  /** Today's default assignee of a payment task, by its name. */
  paymentDefaultOf: (name: string) => string[];
  actorOf: (userId: string) => Actor;
}

function flowCast(workflows: Workflows, users: Staff): FlowCast {
  const adminIds = new Set(users.admins);
  const userOf = (key: string) => users.byKey.get(key)!;
  const withDefaults = (definition: WorkflowDefinition, defaults: (name: string) => string[]) => ({
    ...definition,
    tasks: definition.tasks.map((task) => ({ ...task, defaultAssigneeIds: defaults(task.name) })),
  });
  const saleDefaultsOf = (name: string) =>
    SALE_DEFAULTS.filter(([task]) => task === name).map(([, user]) => userOf(user));
  const paymentDefaultOf = (name: string) =>
    PAYMENT_DEFAULTS[name] ? [userOf(PAYMENT_DEFAULTS[name]!)] : [];
  return {
    workflows,
    users,
    saleWithDefaults: withDefaults(workflows.sale, saleDefaultsOf),
    mainWithDefaults: withDefaults(workflows.main, paymentDefaultOf),
    secondWithDefaults: withDefaults(workflows.second, paymentDefaultOf),
    paymentDefaultOf,
    actorOf: (userId) => ({
      id: userId,
      administersFlows: adminIds.has(userId),
      startsPayments: adminIds.has(userId),
    }),
  };
}

function flowBatchSize(scale: Scale): number {
  return Math.max(1000, Math.floor(scale.batchSize / 2));
}

/** One sale flow per reservation; returns the open ones and when the sale defaults were configured. */
async function generateSaleFlows(
  ctx: Generation,
  plans: ReservationPlan[],
  cast: FlowCast,
): Promise<{ open: ReservationPlan[]; defaultsConfiguredAt: number; assignees: number }> {
  const { scale } = ctx;
  // The default sale assignees (Configuración Flujo Venta) were configured before the newest flows.
  const newest = [...plans].sort((a, b) => b.created - a.created);
  const defaultsConfiguredAt =
    newest.length > scale.flowsWithDefaultAssignees
      ? newest[scale.flowsWithDefaultAssignees]!.created + 1
      : (newest[newest.length - 1]?.created ?? ctx.now);
  const open = plans.filter((p) => p.saleStatus === 'in_progress');
  const manualSale = assignSaleTasksByHand(ctx, open, cast.users);
  const flowBatch = flowBatchSize(scale);
  const written = { flows: 0, tasks: 0, assignees: 0 };
  for (let from = 0; from < plans.length; from += flowBatch) {
    const batch = plans
      .slice(from, from + flowBatch)
      .map((plan) => simulateSaleFlow(ctx, plan, cast, defaultsConfiguredAt, manualSale.get(plan.id) ?? []));
    addWritten(written, await writeFlows(ctx.tx, batch, batch.length));
    if ((from + flowBatch) % 20_000 === 0) ctx.step(`sale flows ${from + flowBatch}/${plans.length}`);
  }
  ctx.counts.saleFlows = written.flows;
  ctx.counts.saleFlowTasks = written.tasks;
  ctx.step(`${written.flows} sale flows, ${written.tasks} sale tasks`);
  return { open, defaultsConfiguredAt, assignees: written.assignees };
}

type Written = Awaited<ReturnType<typeof writeFlows>>;

function addWritten(total: Written, batch: Written): void {
  total.flows += batch.flows;
  total.tasks += batch.tasks;
  total.assignees += batch.assignees;
}

/** A user given a task by an administrator (`by`). */
type ManualSaleAssignment = { userId: string; by: string };

/** A bounded number of open sale tasks of the current stage were assigned by hand by an admin. */
function assignSaleTasksByHand(
  ctx: Generation,
  openSaleFlows: ReservationPlan[],
  users: Staff,
): Map<string, ManualSaleAssignment[]> {
  const { rng } = ctx;
  const manualSale = new Map<string, ManualSaleAssignment[]>();
  for (let i = 0; i < ctx.scale.manualSaleAssignments && openSaleFlows.length > 0; i++) {
    const plan = rng.pick(openSaleFlows);
    const list = manualSale.get(plan.id) ?? [];
    list.push({ userId: rng.pick(users.backOffice), by: rng.pick(users.admins) });
    manualSale.set(plan.id, list);
  }
  return manualSale;
}

/** A reservation's sale flow: tasks completed by the seller in flow order, then what is open now. */
function simulateSaleFlow(
  ctx: Generation,
  plan: ReservationPlan,
  cast: FlowCast,
  defaultsConfiguredAt: number,
  manualAssignments: ManualSaleAssignment[],
): SimulatedFlow {
  const { sale: saleDefinition, saleModel } = cast.workflows;
  const { actorOf } = cast;
  const definition = plan.created >= defaultsConfiguredAt ? cast.saleWithDefaults : saleDefinition;
  const flow = new SimulatedFlow(
    definition,
    {
      workflowId: saleDefinition.id,
      kind: 'sale',
      reservationId: plan.id,
      brokerCommissionId: null,
      isSecondPayment: false,
      createdAt: plan.created,
      createdBy: plan.createdBy,
    },
    plan.saleFlowId,
    plan.sellerId,
  );
  const seller = actorOf(plan.sellerId);
  for (let ord = 1; ord <= plan.saleDone; ord++) {
    const at = saleTaskTime(saleModel, plan.b, ord);
    flow.run({ type: 'setStatus', taskRowId: flow.taskRowId(ord), status: 'completed' }, seller, at);
  }
  if (plan.saleDone < saleModel.tasks.length) workOnOpenSaleTasks(ctx, flow, plan, cast, manualAssignments);
  if (plan.rescindedAt !== null && flow.state.status !== 'completed') {
    flow.run({ type: 'cancel' }, actorOf(cast.users.admins[0]!), plan.rescindedAt);
  }
  if (flow.state.status !== plan.saleStatus) {
    throw new Error(`Sale flow of ${plan.number} ended ${flow.state.status}, planned ${plan.saleStatus}`);
  }
  return flow.checked(saleDefinition);
}

/** Some open tasks of the current stage are being worked on, and some were assigned by hand. */
function workOnOpenSaleTasks(
  ctx: Generation,
  flow: SimulatedFlow,
  plan: ReservationPlan,
  cast: FlowCast,
  manualAssignments: ManualSaleAssignment[],
): void {
  const { saleModel } = cast.workflows;
  const { actorOf } = cast;
  const seller = actorOf(plan.sellerId);
  const stageNo = saleModel.tasks[plan.saleDone]!.stageNo;
  const stageStart = plan.b[stageNo - 1]!;
  for (let ord = plan.saleDone + 1; ord <= saleModel.tasks.length; ord++) {
    if (saleModel.tasks[ord - 1]!.stageNo !== stageNo || (plan.created + ord) % 3 !== 0) continue;
    const at = Math.min(plan.cutoff, stageStart + 2 * HOUR);
    flow.run({ type: 'setStatus', taskRowId: flow.taskRowId(ord), status: 'in_progress' }, seller, at);
  }
  for (const manual of manualAssignments) {
    const at = Math.min(ctx.now, stageStart + 24 * HOUR);
    flow.run(
      { type: 'assign', taskRowId: flow.taskRowId(plan.saleDone + 1), userId: manual.userId },
      actorOf(manual.by),
      at,
    );
  }
}

interface OpenPaymentTask {
  plan: PaymentFlowPlan;
  ord: number;
  openedAt: number;
}

function openedAtOf(plan: PaymentFlowPlan, ord: number): number {
  return paymentTime(plan.model, plan.start, plan.span, plan.model.tasks[ord - 1]!.prereqCum);
}

/**
 * The payment flows. Open tasks now (in flow order, completed tasks are a prefix, so a task is open
 * when its latest prerequisite is done): the newest of them opened after the payment defaults
 * (Configuración Flujo Pago) were configured and carry them; a bounded number of older ones were
 * assigned by hand. Returns the open tasks, newest first, and when the defaults were configured.
 */
async function generatePaymentFlows(
  ctx: Generation,
  paymentPlans: PaymentFlowPlan[],
  cast: FlowCast,
  saleAssignees: number,
): Promise<{ open: OpenPaymentTask[]; defaultsFrom: number }> {
  const { scale } = ctx;
  const open: OpenPaymentTask[] = [];
  for (const plan of paymentPlans) {
    if (plan.status !== 'in_progress') continue;
    plan.model.tasks.forEach((task, index) => {
      const ord = index + 1;
      if (ord > plan.done && task.prereqOrd <= plan.done)
        open.push({ plan, ord, openedAt: openedAtOf(plan, ord) });
    });
  }
  open.sort((a, b) => b.openedAt - a.openedAt);
  const defaultsFrom =
    open.length > scale.openPaymentTasksWithDefault
      ? open[scale.openPaymentTasksWithDefault]!.openedAt + 1
      : 0;
  const manualPayment = assignPaymentTasksByHand(ctx, open, defaultsFrom, cast.users);

  const flowBatch = flowBatchSize(scale);
  const written = { flows: 0, tasks: 0, assignees: saleAssignees };
  for (let from = 0; from < paymentPlans.length; from += flowBatch) {
    const batch = paymentPlans
      .slice(from, from + flowBatch)
      .map((plan) => simulatePaymentFlow(ctx, plan, cast, defaultsFrom, manualPayment.get(plan.id) ?? []));
    addWritten(written, await writeFlows(ctx.tx, batch, batch.length));
    if ((from + flowBatch) % 20_000 === 0)
      ctx.step(`payment flows ${from + flowBatch}/${paymentPlans.length}`);
  }
  ctx.counts.paymentFlows = written.flows;
  ctx.counts.paymentFlowTasks = written.tasks;
  ctx.counts.taskAssignees = written.assignees;
  ctx.step(`${written.flows} payment flows, ${written.tasks} payment tasks, ${written.assignees} assignees`);
  return { open, defaultsFrom };
}

type ManualPaymentAssignment = { ord: number; userId: string; at: number };

/** A bounded number of open payment tasks older than the defaults were assigned by hand. */
function assignPaymentTasksByHand(
  ctx: Generation,
  open: OpenPaymentTask[],
  defaultsFrom: number,
  users: Staff,
): Map<string, ManualPaymentAssignment[]> {
  const { rng } = ctx;
  const olderOpen = open.filter((t) => t.openedAt < defaultsFrom);
  rng.shuffle(olderOpen);
  const manualPayment = new Map<string, ManualPaymentAssignment[]>();
  for (const t of olderOpen.slice(0, ctx.scale.manualPaymentAssignments)) {
    const list = manualPayment.get(t.plan.id) ?? [];
    list.push({
      ord: t.ord,
      userId: rng.pick(users.backOffice),
      at: Math.min(ctx.now, t.openedAt + rng.int(1, 72) * HOUR),
    });
    manualPayment.set(t.plan.id, list);
  }
  return manualPayment;
}

/** A payment flow: 'Proceder con Pago', its tasks completed in flow order, then the work open now. */
function simulatePaymentFlow(
  ctx: Generation,
  plan: PaymentFlowPlan,
  cast: FlowCast,
  defaultsFrom: number,
  manualAssignments: ManualPaymentAssignment[],
): SimulatedFlow {
  const { actorOf } = cast;
  const admin = cast.users.admins[0]!;
  const definitionAt = (at: number) =>
    at >= defaultsFrom
      ? plan.isSecond
        ? cast.secondWithDefaults
        : cast.mainWithDefaults
      : plan.isSecond
        ? cast.workflows.second
        : cast.workflows.main;
  const flow = new SimulatedFlow(
    definitionAt(plan.createdAt),
    {
      workflowId: plan.model.definition.id,
      kind: 'payment',
      reservationId: plan.reservationId,
      brokerCommissionId: plan.commissionId,
      isSecondPayment: plan.isSecond,
      createdAt: plan.createdAt,
      createdBy: plan.createdBy,
    },
    plan.id,
    null,
  );
  if (plan.done >= 0) {
    flow.withDefinition(definitionAt(plan.start)).run({ type: 'start' }, actorOf(plan.createdBy), plan.start);
    completePaymentTasks(flow, plan, cast, definitionAt);
    workOnOpenPaymentTasks(ctx, flow, plan, cast, manualAssignments);
  }
  if (plan.status === 'cancelled') {
    flow.run({ type: 'cancel' }, actorOf(admin), plan.cutoff);
  }
  if (flow.state.status !== plan.status) {
    throw new Error(`Payment flow ${plan.id} ended ${flow.state.status}, planned ${plan.status}`);
  }
  const completedAt = flow.state.completedAt?.getTime() ?? null;
  if (plan.status === 'completed' && completedAt !== paymentFlowEnd(plan)) {
    throw new Error(`Payment flow ${plan.id} completed at ${completedAt}, planned ${paymentFlowEnd(plan)}`);
  }
  return flow.checked(plan.model.definition);
}

/**
 * The tasks done by the cutoff, in flow order at their instants. Whoever holds a task completes it (an
 * approval is decided by its assignee alone, decision 0026): the default assignee it opened with; a
 * task that opened with none (the flow predates the defaults) is first given today's default by an
 * administrator.
 */
function completePaymentTasks(
  flow: SimulatedFlow,
  plan: PaymentFlowPlan,
  cast: FlowCast,
  definitionAt: (at: number) => WorkflowDefinition,
): void {
  const { actorOf } = cast;
  const admin = cast.users.admins[0]!;
  for (let ord = 1; ord <= plan.done; ord++) {
    const at = paymentTime(plan.model, plan.start, plan.span, plan.model.tasks[ord - 1]!.cum);
    const holder = flow.task(ord).assignees[0]?.userId;
    const responsible =
      holder ?? cast.paymentDefaultOf(plan.model.definition.tasks[ord - 1]!.name)[0] ?? plan.createdBy;
    flow.withDefinition(definitionAt(at));
    if (holder === undefined && !actorOf(responsible).administersFlows) {
      flow.run({ type: 'assign', taskRowId: flow.taskRowId(ord), userId: responsible }, actorOf(admin), at);
    }
    flow.run(
      { type: 'setStatus', taskRowId: flow.taskRowId(ord), status: 'completed' },
      actorOf(responsible),
      at,
    );
  }
}

/** Some open tasks are being worked on, and some were assigned by hand. */
function workOnOpenPaymentTasks(
  ctx: Generation,
  flow: SimulatedFlow,
  plan: PaymentFlowPlan,
  cast: FlowCast,
  manualAssignments: ManualPaymentAssignment[],
): void {
  const { actorOf } = cast;
  const admin = cast.users.admins[0]!;
  for (let ord = plan.done + 1; ord <= plan.model.tasks.length && plan.status === 'in_progress'; ord++) {
    if (flow.task(ord).status !== 'pending' || (plan.salt + ord) % 3 !== 0) continue;
    const at = Math.min(ctx.now, openedAtOf(plan, ord) + HOUR);
    flow.run(
      { type: 'setStatus', taskRowId: flow.taskRowId(ord), status: 'in_progress' },
      actorOf(plan.createdBy),
      at,
    );
  }
  for (const manual of manualAssignments) {
    flow.run(
      { type: 'assign', taskRowId: flow.taskRowId(manual.ord), userId: manual.userId },
      actorOf(admin),
      manual.at,
    );
  }
}

// --- Settings and comments -------------------------------------------------------------------

/** The default seller, and the default sale and payment assignees as of when they were configured. */
async function generateSettings(
  ctx: Generation,
  cast: FlowCast,
  saleDefaultsAt: number,
  paymentDefaultsFrom: number,
): Promise<void> {
  const { now } = ctx;
  const { sellerIds, admins } = cast.users;
  await ctx.tx.execute(sql`insert into default_seller (user_id, updated_by) values (${sellerIds[1] ?? sellerIds[0]!}, ${admins[0]!})
    on conflict (singleton) do nothing`);
  const defaultRows = [
    ...cast.saleWithDefaults.tasks.flatMap((task) =>
      task.defaultAssigneeIds.map((userId) => ({ task_id: task.id, user_id: userId, at: saleDefaultsAt })),
    ),
    ...[cast.mainWithDefaults, cast.secondWithDefaults].flatMap((definition) =>
      definition.tasks.flatMap((task) =>
        task.defaultAssigneeIds.map((userId) => ({
          task_id: task.id,
          user_id: userId,
          at: paymentDefaultsFrom > 0 ? paymentDefaultsFrom : now - 500 * DAY,
        })),
      ),
    ),
  ].map((row) => ({
    task_id: row.task_id,
    user_id: row.user_id,
    created_by: admins[0],
    created_at: iso(Math.min(now, row.at)),
  }));
  await loadRows(ctx, 'workflow_task_default_assignees', defaultRows);
}

/** Comments on open tasks: half on sale flows' current tasks, half on the newest open payment tasks. */
async function generateComments(
  ctx: Generation,
  openSaleFlows: ReservationPlan[],
  openPaymentTasks: OpenPaymentTask[],
  cast: FlowCast,
): Promise<void> {
  const { rng, now, scale } = ctx;
  const { backOffice } = cast.users;
  const { sale: saleDefinition, saleModel } = cast.workflows;
  const commentRows: { flowTaskId: string; userId: string; content: string; createdAt: string }[] = [];
  for (let i = 0; i < Math.ceil(scale.comments / 2) && openSaleFlows.length > 0; i++) {
    const plan = rng.pick(openSaleFlows);
    const ord = Math.max(1, plan.saleDone + 1 - rng.int(0, 1));
    const stageNo = saleModel.tasks[ord - 1]!.stageNo;
    commentRows.push({
      flowTaskId: flowTaskRowId(plan.saleFlowId, saleDefinition.tasks[ord - 1]!.id),
      userId: rng.chance(0.5) ? plan.sellerId : rng.pick(backOffice),
      content: rng.pick(SALE_COMMENTS),
      createdAt: iso(Math.min(now, plan.b[stageNo - 1]! + rng.int(1, 72) * HOUR)),
    });
  }
  for (const t of openPaymentTasks.slice(0, Math.floor(scale.comments / 2))) {
    commentRows.push({
      flowTaskId: flowTaskRowId(t.plan.id, t.plan.model.definition.tasks[t.ord - 1]!.id),
      userId: rng.pick(backOffice),
      content: rng.pick(PAYMENT_COMMENTS),
      createdAt: iso(Math.min(now, t.openedAt + rng.int(1, 48) * HOUR)),
    });
  }
  for (let start = 0; start < commentRows.length; start += scale.batchSize) {
    await loadGeneratedCommentsIn(ctx.tx, commentRows.slice(start, start + scale.batchSize));
  }
  ctx.counts.comments = commentRows.length;
}

/** What triggers keep, rebuilt from scratch: at bench scale the triggers were skipped. */
async function rebuildDerivedRows(ctx: Generation, triggersSkipped: boolean): Promise<void> {
  // The dashboard's rollups.
  await ctx.tx.execute(sql`select dashboard_rebuild()`);
  // The task inboxes likewise (decision 0021).
  await ctx.tx.execute(sql`select task_inbox_rebuild()`);
  // And the audit trail: every row this load wrote, as an insert by 'sistema' (decision 0024).
  if (triggersSkipped) {
    await ctx.tx.execute(sql`select audit_backfill(true)`);
    ctx.step('audit trail');
  }
}

/**
 * Each user's pending tasks, as the bell badge counts them (workflows.md §6: assigned, not completed
 * and not blocked, of flows in progress; the server's `pendingTaskRowsOf` for every user). Largest first.
 */
export async function pendingTaskCounts(
  db: Executor,
): Promise<{ userId: string; email: string; userType: string; count: number }[]> {
  const rows = await queryRows<{ user_id: string; email: string; user_type: string; count: number }>(
    db,
    sql`select p.id as user_id, p.email, p.user_type, count(*)::int as count
          from flow_task_assignees a
          join flow_tasks ft on ft.id = a.flow_task_id and ft.status in ('pending', 'in_progress')
          join flows f on f.id = ft.flow_id and f.status = 'in_progress'
          join profiles p on p.id = a.user_id
         group by p.id, p.email, p.user_type order by count(*) desc, p.email`,
  );
  return rows.map((row) => ({
    userId: row.user_id,
    email: row.email,
    userType: row.user_type,
    count: row.count,
  }));
}

/** True when the database holds no reservation yet (a fresh or merely migrated database). */
export async function isEmpty(db: Executor): Promise<boolean> {
  const rows = await queryRows<{ any: boolean }>(db, sql`select exists (select 1 from reservations) as any`);
  return !rows[0]?.any;
}
