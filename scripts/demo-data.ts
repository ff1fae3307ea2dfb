/**
 * The demo and benchmark dataset: agencies, projects with units, brokers, clients with valid RUTs,
 * reservations over the last 18 months with their commissions, sale flows and payment flows in every
 * state, and users of every user type. Deterministic for a given seed (and `now`).
 *
 * How it is built, so that it stays fast at 100,000 reservations on the embedded database:
 * - Entity rows (clients, reservations, commissions, flows) are generated here with a seeded PRNG and
 *   inserted in batches through `json_to_recordset`. Every stored figure comes from the shared math
 *   (`reservationFigures`, `commissionFigures`), so it is the server's own arithmetic by construction.
 * - Task rows (25 per sale flow, 18 or 6 per payment flow: millions at bench scale) are expanded by
 *   the database, set-based, from a few numbers per flow: its stage boundaries (sale) or its start and
 *   span (payment) and how many tasks, in flow order, were completed at the cutoff (now, or the
 *   rescission). Completed tasks always form a prefix of the flow order; for payment flows that order
 *   is topological, so the prefix respects the prerequisites, and exactly the tasks whose
 *   prerequisites are all in the prefix are open (the rest blocked), as the engine would leave them.
 * - Only the open work that lands in someone's inbox is decided here, one row at a time, and kept
 *   small (tens per user): COF tasks of the few reservations still in 'Reserva' go to their seller,
 *   the default sale assignees were configured recently (only the newest flows carry them), payment
 *   default assignees apply to tasks opened after they were configured, and a bounded number of older
 *   open tasks were assigned by hand.
 */
import { type SQL, sql } from 'drizzle-orm';
import { type Database, type Executor, queryRows } from '../src/server/db/client';
import { hashPassword } from '../src/server/features/auth/passwords';
import { dec, money } from '../src/shared/domain/decimal';
import { commissionFigures, reservationFigures } from '../src/shared/domain/pricing';
import { rutCheckDigit } from '../src/shared/domain/rut';
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

/** Bump when the generated data changes shape: a reused benchmark dataset is then regenerated. */
export const GENERATOR_VERSION = 1;
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
): Promise<void> {
  const names = Object.keys(columns);
  const list = sql.raw(names.join(', '));
  const types = sql.raw(names.map((name) => `${name} ${columns[name]}`).join(', '));
  for (let start = 0; start < rows.length; start += batchSize) {
    const batch = rows.slice(start, start + batchSize);
    await tx.execute(
      sql`insert into ${sql.raw(table)} (${list}) select ${list} from json_to_recordset(${JSON.stringify(batch)}::json) as x(${types})`,
    );
    progress?.(Math.min(rows.length, start + batchSize));
  }
}

async function expandInBatches(
  tx: Executor,
  rows: readonly Row[],
  batchSize: number,
  statement: (json: string) => SQL,
  progress?: (done: number) => void,
): Promise<void> {
  for (let start = 0; start < rows.length; start += batchSize) {
    await tx.execute(statement(JSON.stringify(rows.slice(start, start + batchSize))));
    progress?.(Math.min(rows.length, start + batchSize));
  }
}

/**
 * A task row's id derived from its flow and task (v4-shaped, so it passes strict UUID checks).
 * gen_random_uuid() costs more than the rest of the row on the embedded database.
 */
function rowId(flowId: SQL, taskId: SQL): SQL {
  return sql`overlay(overlay(md5(${flowId}::text || ${taskId}::text) placing '4' from 13) placing '8' from 17)::uuid`;
}

// ---------------------------------------------------------------------------------------------
// Workflow definitions, read from the seeded tables (never hard-coded)

interface SaleTaskDef {
  taskId: string;
  name: string;
  ord: number;
  stageNo: number;
  stageId: string;
  k: number;
  n: number;
  isCof: boolean;
}
interface SaleFlowDef {
  id: string;
  stageIds: string[];
  tasks: SaleTaskDef[];
}
interface PaymentTaskDef {
  taskId: string;
  name: string;
  ord: number;
  stageId: string;
  days: number;
  cum: number;
  prereqOrd: number;
  prereqCum: number;
  defaultAssignee: string | null;
}
interface PaymentFlowDef {
  id: string;
  name: string;
  tasks: PaymentTaskDef[];
  total: number;
}

async function loadSaleFlow(tx: Executor): Promise<SaleFlowDef> {
  const rows = await queryRows<{
    flow_id: string;
    stage_id: string;
    stage_order: number;
    task_id: string;
    name: string;
    task_order: number;
  }>(
    tx,
    sql`select f.id as flow_id, st.id as stage_id, st.sort_order as stage_order, t.id as task_id, t.name, t.sort_order as task_order
        from sale_flows f join sale_flow_stages st on st.flow_id = f.id join sale_flow_tasks t on t.stage_id = st.id
        where f.name = 'Flujo de Venta Regular' order by st.sort_order, t.sort_order`,
  );
  if (rows.length === 0) throw new Error("The sale flow 'Flujo de Venta Regular' is not seeded");
  const stageIds: string[] = [];
  for (const row of rows) if (!stageIds.includes(row.stage_id)) stageIds.push(row.stage_id);
  const tasks = rows.map((row, index) => ({
    taskId: row.task_id,
    name: row.name,
    ord: index + 1,
    stageNo: stageIds.indexOf(row.stage_id) + 1,
    stageId: row.stage_id,
    k: 0,
    n: 0,
    isCof: row.name.includes('COF'),
  }));
  for (const task of tasks) {
    const inStage = tasks.filter((other) => other.stageNo === task.stageNo);
    task.n = inStage.length;
    task.k = inStage.indexOf(task) + 1;
  }
  return { id: rows[0]!.flow_id, stageIds, tasks };
}

async function loadPaymentFlow(tx: Executor, name: string): Promise<PaymentFlowDef> {
  const rows = await queryRows<{
    flow_id: string;
    stage_id: string;
    task_id: string;
    name: string;
    days: number | null;
  }>(
    tx,
    sql`select f.id as flow_id, st.id as stage_id, t.id as task_id, t.name, t.days_to_complete as days
        from payment_flows f join payment_flow_stages st on st.flow_id = f.id join payment_flow_tasks t on t.stage_id = st.id
        where f.name = ${name} order by st.sort_order, t.sort_order`,
  );
  if (rows.length === 0) throw new Error(`The payment flow '${name}' is not seeded`);
  const prerequisites = await queryRows<{ task_id: string; prerequisite_task_id: string }>(
    tx,
    sql`select p.task_id, p.prerequisite_task_id from payment_flow_task_prerequisites p
        join payment_flow_tasks t on t.id = p.task_id join payment_flow_stages st on st.id = t.stage_id
        join payment_flows f on f.id = st.flow_id where f.name = ${name}`,
  );
  const ordOf = new Map(rows.map((row, index) => [row.task_id, index + 1]));
  let cum = 0;
  const tasks: PaymentTaskDef[] = rows.map((row, index) => {
    const days = Math.max(1, row.days ?? 1);
    cum += days;
    return {
      taskId: row.task_id,
      name: row.name,
      ord: index + 1,
      stageId: row.stage_id,
      days,
      cum,
      prereqOrd: 0,
      prereqCum: 0,
      defaultAssignee: null,
    };
  });
  for (const task of tasks) {
    const prereqOrds = prerequisites
      .filter((p) => p.task_id === task.taskId)
      .map((p) => ordOf.get(p.prerequisite_task_id)!);
    task.prereqOrd = prereqOrds.length > 0 ? Math.max(...prereqOrds) : 0;
    // The prefix model needs the flow order to be topological: every prerequisite comes earlier.
    if (task.prereqOrd >= task.ord)
      throw new Error(`Prerequisite of '${task.name}' comes after it in '${name}'`);
    task.prereqCum = task.prereqOrd === 0 ? 0 : tasks[task.prereqOrd - 1]!.cum;
  }
  return { id: rows[0]!.flow_id, name, tasks, total: cum };
}

// ---------------------------------------------------------------------------------------------
// Flow timelines

/** Completion instant of a sale task: stages run between boundaries b[s-1]..b[s], tasks evenly. */
function saleTaskTime(b: readonly number[], task: SaleTaskDef): number {
  const lo = b[task.stageNo - 1]!;
  const hi = b[task.stageNo]!;
  return lo + Math.floor(((hi - lo) * task.k) / task.n);
}
function saleDone(flow: SaleFlowDef, b: readonly number[], cutoff: number): number {
  let done = 0;
  for (const task of flow.tasks) {
    if (saleTaskTime(b, task) > cutoff) break;
    done += 1;
  }
  return done;
}
/** Completion instant of a payment task; a task opens at the completion of its latest prerequisite. */
function paymentTime(start: number, span: number, total: number, cum: number): number {
  return start + Math.floor((span * cum) / total);
}
function paymentDone(flow: PaymentFlowDef, start: number, span: number, cutoff: number): number {
  let done = 0;
  for (const task of flow.tasks) {
    if (paymentTime(start, span, flow.total, task.cum) > cutoff) break;
    done += 1;
  }
  return done;
}

type FlowStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';

interface PaymentFlowPlan {
  id: string;
  def: PaymentFlowDef;
  commissionId: string;
  createdAt: number;
  start: number;
  span: number;
  /** Completed tasks in flow order at the cutoff; -1 while the flow is pending (not started). */
  done: number;
  status: FlowStatus;
  salt: number;
  createdBy: string;
}

/** Plans a payment flow created at `createdAt` and looked at on `cutoff` (null: not created yet). */
function planPaymentFlow(
  rng: Random,
  def: PaymentFlowDef,
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
    start + Math.max(def.tasks.length, Math.round(def.total * (0.6 + rng.next() * 1.4))) * DAY,
    rng,
  );
  const span = end - start;
  let done: number;
  let status: FlowStatus;
  if (cutoff < start) {
    done = -1;
    status = 'pending';
  } else if (cutoff < end) {
    done = paymentDone(def, start, span, cutoff);
    status = 'in_progress';
  } else {
    done = def.tasks.length;
    status = 'completed';
  }
  if (cancelled && status !== 'completed') status = 'cancelled';
  return {
    id: rng.uuid(),
    def,
    commissionId,
    createdAt,
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
  const task = plan.def.tasks.find((t) => t.name === taskName);
  if (!task || plan.done < task.ord) return null;
  return paymentTime(plan.start, plan.span, plan.def.total, task.cum);
}

// ---------------------------------------------------------------------------------------------
// The generator

function resolveScale(scale: ScaleName | Scale): Scale {
  return typeof scale === 'string' ? SCALES[scale] : scale;
}

function cents(value: number): string {
  return (Math.round(value) / 100).toFixed(2);
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
    if (scale.skipTriggers) {
      // Only a superuser may skip triggers; asking first keeps a PostgreSQL transaction usable.
      const [role] = await queryRows<{ superuser: string }>(
        tx,
        sql`select current_setting('is_superuser') as superuser`,
      );
      if (role?.superuser === 'on') await tx.execute(sql`set local session_replication_role = replica`);
      else log('  (not a superuser: foreign keys are checked row by row, which is slower)');
    }
    const saleFlow = await loadSaleFlow(tx);
    const mainFlow = await loadPaymentFlow(tx, 'Flujo de Pago Principal');
    const secondFlow = await loadPaymentFlow(tx, 'Flujo de Segundo Pago');
    const counts: Record<string, number> = {};

    // --- Users -----------------------------------------------------------------------------
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
    for (let i = 0; i < scale.sellers; i++) {
      const fixed = FIXED_SELLERS[i];
      const female = rng.chance(0.5);
      const firstName = fixed?.[0] ?? rng.pick(female ? FEMALE_NAMES : MALE_NAMES);
      const lastName = fixed?.[1] ?? rng.pick(SURNAMES);
      const isFemale = (FEMALE_NAMES as readonly string[]).includes(firstName);
      const position = isFemale ? 'Ejecutiva de Ventas' : 'Ejecutivo de Ventas';
      sellerIds.push(
        addUser({
          key: `seller${i}`,
          firstName,
          lastName,
          position,
          userType: 'Operaciones',
          isSeller: true,
        }),
      );
    }
    const staffTypes: UserType[] = ['KAM', 'Gestor de Pagos', 'Operaciones', 'Supervisor'];
    const backOffice: string[] = ['kam1', 'kam2', 'pagos1', 'pagos2', 'control', 'ops1', 'ops2'].map(
      (k) => byKey.get(k)!,
    );
    for (let i = 0; i < scale.extraStaff; i++) {
      const female = rng.chance(0.5);
      const userType = staffTypes[i % staffTypes.length]!;
      backOffice.push(
        addUser({
          key: `staff${i}`,
          firstName: rng.pick(female ? FEMALE_NAMES : MALE_NAMES),
          lastName: `${rng.pick(SURNAMES)} ${rng.pick(SURNAMES)}`,
          position:
            userType === 'Gestor de Pagos'
              ? 'Analista de Pagos'
              : userType === 'KAM'
                ? 'KAM Brokers'
                : 'Analista',
          userType,
        }),
      );
    }
    const admins = [byKey.get('gerenta')!, byKey.get('jefeInv')!];
    await insertRows(
      tx,
      'profiles',
      {
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
      userRows,
      scale.batchSize,
    );
    await tx.execute(
      sql`insert into roles (name, description) values ('admin', 'Administrador del sistema con acceso total') on conflict (name) do nothing`,
    );
    await tx.execute(sql`insert into user_roles (user_id, role_id)
      select p.id, r.id from profiles p cross join roles r
      where r.name = 'admin' and p.user_type = 'Administrador' and p.email like ${`%@${DEMO_EMAIL_DOMAIN}`}
      on conflict do nothing`);
    counts.users = userRows.length;
    step(`${userRows.length} users`);

    // --- Agencies, projects, brokers -----------------------------------------------------
    const usedRuts = new Set<string>();
    const rut = (min: number, max: number) => {
      for (;;) {
        const body = String(rng.int(min, max));
        const value = `${body}-${rutCheckDigit(body)}`;
        if (!usedRuts.has(value)) {
          usedRuts.add(value);
          return value;
        }
      }
    };
    const agencyRows: Row[] = [];
    for (let i = 0; i < scale.agencies; i++) {
      agencyRows.push({
        id: rng.uuid(),
        rut: rut(76_000_000, 77_999_999),
        business_name:
          AGENCY_NAMES[i % AGENCY_NAMES.length]! +
          (i >= AGENCY_NAMES.length ? ` ${Math.floor(i / AGENCY_NAMES.length) + 1}` : ''),
        bank: rng.pick(BANKS),
        account_type: rng.chance(0.85) ? 'Cuenta Corriente' : rng.pick(ACCOUNT_TYPES),
        account_number: String(rng.int(10_000_000, 99_999_999)),
        created_by: admins[0],
        updated_by: admins[0],
      });
    }
    await insertRows(
      tx,
      'real_estate_agencies',
      {
        id: 'uuid',
        rut: 'text',
        business_name: 'text',
        bank: 'text',
        account_type: 'text',
        account_number: 'text',
        created_by: 'uuid',
        updated_by: 'uuid',
      },
      agencyRows,
      scale.batchSize,
    );

    interface ProjectPlan {
      id: string;
      commune: string;
      deadline: number;
      units: string[];
      parking: number;
      storage: number;
      weight: number;
      ufM2: number;
    }
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
        created_by: admins[0],
        updated_by: admins[0],
        created_at: iso(now - 600 * DAY),
      });
    }
    await insertRows(
      tx,
      'projects',
      {
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
      projectRows,
      scale.batchSize,
    );
    counts.projects = projectRows.length;

    const kamNames = ['Valentina Muñoz', 'Matías Contreras'];
    const brokerRows: Row[] = [];
    const brokerIds: string[] = [];
    const brokerWeights: number[] = [];
    for (let i = 0; i < scale.brokers; i++) {
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
      brokerIds.push(id);
      brokerWeights.push(rng.next() ** 2 + 0.05);
      brokerRows.push({
        id,
        rut: rut(76_000_000, 77_999_999),
        name,
        business_name: `${name.replace(' & Asociados', ' y Asociados')} Corredores de Propiedades ${rng.chance(0.6) ? 'SpA' : 'Limitada'}`,
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
        kam_name: kamNames[i % 2],
        kam_phone: phone(),
        kam_email: `${slug(kamNames[i % 2]!)}@${DEMO_EMAIL_DOMAIN}`,
        kam_receives_commission: rng.chance(0.3),
        created_by: byKey.get(i % 2 === 0 ? 'kam1' : 'kam2'),
        updated_by: byKey.get(i % 2 === 0 ? 'kam1' : 'kam2'),
        created_at: iso(now - rng.int(400, 700) * DAY),
      });
    }
    await insertRows(
      tx,
      'brokers',
      {
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
        created_by: 'uuid',
        updated_by: 'uuid',
        created_at: 'timestamptz',
      },
      brokerRows,
      scale.batchSize,
    );
    counts.brokers = brokerRows.length;
    counts.agencies = agencyRows.length;
    step(`${agencyRows.length} agencies, ${projectRows.length} projects, ${brokerRows.length} brokers`);

    // --- Clients (created with or before their first reservation) -------------------------
    interface ClientPlan {
      id: string;
      firstName: string;
      lastName: string;
      createdAt: number | null;
    }
    const clientPlans: ClientPlan[] = [];
    for (let i = 0; i < scale.clients; i++) {
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

    // --- Reservations --------------------------------------------------------------------
    const spanDays = 548; // 18 months
    const reservationTimes: number[] = [];
    for (let i = 0; i < scale.reservations; i++) {
      // Half uniform over 18 months, half increasingly dense toward today: recent months are busier.
      const x = rng.chance(0.5) ? rng.next() : Math.sqrt(rng.next());
      const ageDays = Math.min(spanDays - 1, Math.floor((1 - x) * spanDays));
      const day = Math.floor((now - ageDays * DAY) / DAY) * DAY;
      let created = day + 13 * HOUR + Math.floor(rng.next() * 8 * HOUR);
      if (created > now) created = now - Math.floor(rng.next() * HOUR);
      reservationTimes.push(created);
    }
    reservationTimes.sort((a, b) => a - b);

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
    const reservationRows: Row[] = [];
    const commissionRows: Row[] = [];
    const promotionRows: Row[] = [];
    const plans: ReservationPlan[] = [];
    const paymentPlans: PaymentFlowPlan[] = [];
    const projectWeights = projects.map((p) => p.weight);
    let nextUnusedClient = 0;
    const usedClients: number[] = [];
    const sellerWeights = sellerIds.map((_, i) => (i === 0 ? 0.3 : 0.6 + rng.next()));
    const numberBase = scale.reservations >= 10_000 ? 100_001 : 1_001;

    for (let i = 0; i < reservationTimes.length; i++) {
      const created = reservationTimes[i]!;
      // Most reservations bring a new client; some are repeat buyers (investors).
      let clientIndex: number;
      if (nextUnusedClient < clientPlans.length && (usedClients.length === 0 || rng.chance(0.85))) {
        clientIndex = nextUnusedClient++;
        usedClients.push(clientIndex);
      } else {
        clientIndex = usedClients[rng.int(0, usedClients.length - 1)]!;
      }
      const client = clientPlans[clientIndex]!;
      client.createdAt ??= created - rng.int(0, 20) * DAY - rng.int(1, 6) * HOUR;

      let projectIndex = rng.weighted(projectWeights);
      for (let tries = 0; projects[projectIndex]!.units.length === 0; tries++) {
        projectIndex = (projectIndex + 1) % projects.length;
        if (tries > projects.length) throw new Error('Not enough units for the reservations of this scale');
      }
      const project = projects[projectIndex]!;
      const apartment = project.units.pop()!;
      const sellerId = sellerIds[rng.weighted(sellerWeights)]!;
      const withBroker = rng.chance(0.6);
      const brokerId = withBroker ? brokerIds[rng.weighted(brokerWeights)]! : null;

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
      const promiseCents = Math.round(
        (totalCents - creditCents - reservationCents) * (rng.int(20, 60) / 100),
      );
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
      const figures = reservationFigures(inputs);

      // Sale flow timeline: Reserva in days, Promesa in weeks, Escrituración waits for the
      // project's delivery, Reparos a few days.
      const b = [created];
      for (let s = 1; s <= saleFlow.stageIds.length; s++) {
        const prev = b[s - 1]!;
        let days: number;
        if (s === 1) days = rng.int(1, 7);
        else if (s === 2) days = rng.int(15, 60);
        else if (s === 3)
          days = Math.max(rng.int(30, 100), Math.ceil((project.deadline - prev) / DAY) + rng.int(15, 90));
        else if (s === 4) days = rng.int(3, 20);
        else days = rng.int(5, 30);
        b.push(atOfficeHour(prev + days * DAY, rng));
      }
      const deedAt = b[3] ?? b[b.length - 1]!;
      const promiseAt = b[2] ?? b[b.length - 1]!;

      // Some reservations are rescinded before the deed.
      let rescindedAt: number | null = null;
      const latest = Math.min(now, deedAt - DAY);
      if (rng.chance(0.045) && latest > created + 3 * DAY) {
        rescindedAt = created + 3 * DAY + Math.floor(rng.next() * (latest - created - 3 * DAY));
      }
      const cutoff = rescindedAt ?? now;
      const done = saleDone(saleFlow, b, cutoff);
      const saleStatus: FlowStatus =
        done === saleFlow.tasks.length ? 'completed' : rescindedAt !== null ? 'cancelled' : 'in_progress';
      const id = rng.uuid();
      const createdBy = rng.chance(0.85) ? sellerId : admins[0]!;
      const plan: ReservationPlan = {
        id,
        number: String(numberBase + i),
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
      plans.push(plan);

      const inEscrituracion = done >= saleFlow.tasks.filter((t) => t.stageNo <= 2).length;
      const bank = inEscrituracion ? rng.pick(BANKS) : null;
      const executive = bank
        ? `${rng.pick(rng.chance(0.5) ? FEMALE_NAMES : MALE_NAMES)} ${rng.pick(SURNAMES)}`
        : null;
      const reservationRow: Row = {
        id,
        reservation_number: plan.number,
        client_id: client.id,
        project_id: project.id,
        seller_id: sellerId,
        reservation_date: dateOf(created),
        apartment_number: apartment,
        parking_number: hasParking ? `E-${++project.parking}` : null,
        storage_number: hasStorage ? `B-${++project.storage}` : null,
        apartment_price: inputs.apartmentPrice,
        parking_price: inputs.parkingPrice,
        storage_price: inputs.storagePrice,
        total_price: figures.totalPrice,
        column_discount: columnDiscount,
        additional_discount: additionalDiscount,
        other_discount: otherDiscount,
        minimum_price: figures.minimumPrice,
        reservation_payment: inputs.reservationPayment,
        promise_payment: inputs.promisePayment,
        down_payment: inputs.downPayment,
        credit_payment: inputs.creditPayment,
        subsidy_payment: inputs.subsidyPayment,
        total_payment: figures.totalPayment,
        recovery_payment: figures.recoveryPayment,
        is_with_broker: withBroker,
        broker_id: brokerId,
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
        rescinded_by: rescindedAt !== null ? admins[rng.int(0, 1)] : null,
        created_by: createdBy,
        updated_by: createdBy,
        created_at: iso(created),
        updated_at: iso(rescindedAt ?? created),
      };
      reservationRows.push(reservationRow);

      if (rng.chance(0.08)) {
        promotionRows.push({
          reservation_id: id,
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
          payment_date: promiseAt <= cutoff && rng.chance(0.6) ? dateOf(promiseAt) : null,
          created_by: createdBy,
          updated_by: createdBy,
          created_at: iso(created + DAY),
        });
      }

      if (brokerId) {
        // Commission 1.5-3 % of the base, one payment (100 %) or two (25 or 50 % first).
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
        const commissionId = rng.uuid();
        const kam = byKey.get(rng.chance(0.5) ? 'kam1' : 'kam2')!;
        // The first payment flow is opened after the promise; the second after the deed.
        const cancelled = rescindedAt !== null;
        const first = planPaymentFlow(
          rng,
          mainFlow,
          commissionId,
          atOfficeHour(promiseAt + rng.int(1, 20) * DAY, rng),
          cutoff,
          cancelled,
          admins[rng.int(0, 1)]!,
        );
        let second: PaymentFlowPlan | null = null;
        if (first?.status === 'completed' && commission.numberOfPayments === 2) {
          second = planPaymentFlow(
            rng,
            secondFlow,
            commissionId,
            atOfficeHour(Math.max(paymentFlowEnd(first), deedAt) + rng.int(1, 20) * DAY, rng),
            cutoff,
            cancelled,
            admins[rng.int(0, 1)]!,
          );
        }
        if (first) paymentPlans.push(first);
        if (second) paymentPlans.push(second);
        const paid1 = first?.status === 'completed' ? paymentFlowEnd(first) : null;
        const paid2 = second?.status === 'completed' ? paymentFlowEnd(second) : null;
        const ocAt = first ? paymentTaskDoneAt(first, 'Generación de OC') : null;
        const invoice1At = first ? paymentTaskDoneAt(first, 'Recepción Factura Broker') : null;
        const invoice2At = second ? paymentTaskDoneAt(second, 'Recepción Factura 2 Broker') : null;
        const atRisk = !cancelled && first !== null && paid2 === null && rng.chance(0.08);
        let penalty: string | null = null;
        if (cancelled && (paid1 !== null || paid2 !== null) && rng.chance(0.5)) {
          const gross = dec(commission.commissionAmount);
          const p1 = commission.firstPaymentPercentage;
          let amount = dec(0);
          if (paid1 !== null) amount = amount.plus(gross.times(p1).div(100));
          if (paid2 !== null) amount = amount.plus(gross.times(100 - p1).div(100));
          penalty = money(amount);
        }
        commissionRows.push({
          id: commissionId,
          reservation_id: id,
          broker_id: brokerId,
          commission_amount: commission.commissionAmount,
          commission_includes_tax: commission.commissionIncludesTax,
          net_commission: cf.netCommission,
          commission_for_discount: rng.chance(0.8),
          pays_secondary: paysSecondary,
          number_of_payments: commission.numberOfPayments,
          first_payment_percentage: commission.firstPaymentPercentage,
          purchase_order: ocAt !== null ? `OC-${rng.int(100_000, 999_999)}` : null,
          invoice_1: invoice1At !== null ? String(rng.int(1_000, 99_999)) : null,
          invoice_1_date: invoice1At !== null ? santiagoDate(invoice1At) : null,
          payment_1_date: paid1 !== null ? dateOf(paid1) : null,
          invoice_2: invoice2At !== null ? String(rng.int(1_000, 99_999)) : null,
          invoice_2_date: invoice2At !== null ? santiagoDate(invoice2At) : null,
          payment_2_date: paid2 !== null ? dateOf(paid2) : null,
          difference: cf.difference,
          at_risk: atRisk,
          at_risk_reason: atRisk ? rng.pick(AT_RISK_REASONS) : null,
          penalty_amount: penalty,
          created_by: kam,
          updated_by: kam,
          created_at: iso(created + HOUR),
          updated_at: iso(rescindedAt ?? created + HOUR),
        });
        reservationRow.commission_projection_month = monthOf(dateOf(promiseAt + 40 * DAY));
        reservationRow.commission_payment_month = paid1 !== null ? monthOf(dateOf(paid1)) : null;
      }
    }
    step(`planned ${plans.length} reservations`);

    // Clients that never reserved were registered at some point of the 18 months.
    const clientRows: Row[] = clientPlans.map((client) => {
      const created = client.createdAt ?? now - rng.int(1, spanDays) * DAY + rng.int(0, 8) * HOUR;
      // Older people have lower RUT numbers (they were registered earlier).
      const age = rng.int(24, 70);
      const birthYear = new Date(now).getUTCFullYear() - age;
      const bodyMin = Math.max(5_000_000, 25_000_000 - (age - 18) * 380_000);
      const withEmail = rng.chance(0.9);
      const creator = rng.chance(0.8) ? sellerIds[rng.weighted(sellerWeights)]! : admins[0]!;
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
    await insertRows(
      tx,
      'clients',
      {
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
      clientRows,
      scale.batchSize,
      (n) => n % 20_000 === 0 && step(`clients ${n}/${clientRows.length}`),
    );
    counts.clients = clientRows.length;
    step(`${clientRows.length} clients`);

    await insertRows(
      tx,
      'reservations',
      {
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
      reservationRows,
      scale.batchSize,
      (n) => n % 20_000 === 0 && step(`reservations ${n}/${reservationRows.length}`),
    );
    counts.reservations = reservationRows.length;
    counts.rescinded = plans.filter((p) => p.rescindedAt !== null).length;
    step(`${reservationRows.length} reservations`);

    await insertRows(
      tx,
      'promotions',
      {
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
      },
      promotionRows,
      scale.batchSize,
    );
    counts.promotions = promotionRows.length;

    await insertRows(
      tx,
      'broker_commissions',
      {
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
      commissionRows,
      scale.batchSize,
    );
    counts.commissions = commissionRows.length;
    step(`${commissionRows.length} commissions, ${promotionRows.length} promotions`);

    // --- Sale flows and their 25 task rows each -------------------------------------------
    // Current stage: the stage of the first task not completed (none once every task is completed).
    const currentStage = (tasks: readonly { stageId: string }[], done: number) =>
      done >= tasks.length ? null : tasks[Math.max(0, done)]!.stageId;
    const saleFlowRows: Row[] = plans.map((plan) => ({
      id: plan.saleFlowId,
      reservation_id: plan.id,
      flow_id: saleFlow.id,
      current_stage_id: currentStage(saleFlow.tasks, plan.saleDone),
      status: plan.saleStatus,
      started_at: iso(plan.created),
      completed_at: plan.saleStatus === 'completed' ? iso(plan.b[plan.b.length - 1]!) : null,
      created_by: plan.createdBy,
      updated_by: plan.createdBy,
      created_at: iso(plan.created),
      updated_at: iso(
        plan.saleStatus === 'completed' ? plan.b[plan.b.length - 1]! : (plan.rescindedAt ?? plan.created),
      ),
    }));
    await insertRows(
      tx,
      'reservation_flows',
      {
        id: 'uuid',
        reservation_id: 'uuid',
        flow_id: 'uuid',
        current_stage_id: 'uuid',
        status: 'text',
        started_at: 'timestamptz',
        completed_at: 'timestamptz',
        created_by: 'uuid',
        updated_by: 'uuid',
        created_at: 'timestamptz',
        updated_at: 'timestamptz',
      },
      saleFlowRows,
      scale.batchSize,
    );
    counts.reservationFlows = saleFlowRows.length;

    const saleDefsJson = JSON.stringify(
      saleFlow.tasks.map((t) => ({ task_id: t.taskId, ord: t.ord, stage_no: t.stageNo, k: t.k, n: t.n })),
    );
    const saleParams = plans.map((plan) => ({
      flow_id: plan.saleFlowId,
      b: `{${plan.b.join(',')}}`,
      done: plan.saleDone,
      stage_no:
        plan.saleDone >= saleFlow.tasks.length
          ? saleFlow.stageIds.length + 1
          : saleFlow.tasks[plan.saleDone]!.stageNo,
      salt: plan.created % 997,
      created: plan.created,
    }));
    // Completed tasks: started when their stage became current, completed at their instant.
    // Open tasks of the current stage: started, some in progress. Later stages: pending, not started.
    await expandInBatches(
      tx,
      saleParams,
      Math.max(1000, Math.floor(scale.batchSize / 2)),
      (json) => sql`
        insert into reservation_flow_tasks (id, reservation_flow_id, task_id, status, started_at, completed_at, created_at, updated_at)
        select ${rowId(sql`x.flow_id`, sql`x.task_id`)}, x.flow_id, x.task_id, x.status, x.started_at, x.completed_at, x.created_at,
               coalesce(x.completed_at, x.started_at, x.created_at)
        from (
          select p.flow_id, d.task_id,
                 case when d.ord <= p.done then 'completed'
                      when d.stage_no = p.stage_no and (p.salt + d.ord) % 3 = 0 then 'in_progress'
                      else 'pending' end as status,
                 case when d.stage_no <= p.stage_no then to_timestamp(p.b[d.stage_no] / 1000.0) end as started_at,
                 case when d.ord <= p.done
                      then to_timestamp((p.b[d.stage_no] + ((p.b[d.stage_no + 1] - p.b[d.stage_no]) * d.k) / d.n) / 1000.0)
                 end as completed_at,
                 to_timestamp(p.created / 1000.0) as created_at
          from json_to_recordset(${json}::json) as p(flow_id uuid, b bigint[], done int, stage_no int, salt int, created bigint)
          cross join json_to_recordset(${saleDefsJson}::json) as d(task_id uuid, ord int, stage_no int, k int, n int)
        ) x`,
      (n) => n % 20_000 === 0 && step(`sale flow tasks for ${n}/${saleParams.length} flows`),
    );
    counts.reservationFlowTasks = saleParams.length * saleFlow.tasks.length;
    step(`${saleFlowRows.length} sale flows, ${counts.reservationFlowTasks} sale tasks`);

    // --- Sale task assignments (only open work; completing a task removes its assignees) ---
    const assignmentRows: Row[] = [];
    const cofTasks = saleFlow.tasks.filter((t) => t.isCof);
    const saleDefaults = SALE_DEFAULTS.map(([task, user]) => ({
      task: saleFlow.tasks.find((t) => t.name === task),
      userId: byKey.get(user)!,
    })).filter((d): d is { task: SaleTaskDef; userId: string } => d.task !== undefined);
    const newest = [...plans].sort((a, b) => b.created - a.created);
    const defaultsConfiguredAt =
      newest.length > scale.flowsWithDefaultAssignees
        ? newest[scale.flowsWithDefaultAssignees]!.created + 1
        : (newest[newest.length - 1]?.created ?? now);
    for (const plan of plans) {
      if (plan.saleStatus === 'completed') continue;
      const taken = new Set<string>();
      const assign = (task: SaleTaskDef, userId: string, assignedBy: string, at: number) => {
        if (task.ord <= plan.saleDone || taken.has(`${task.taskId}:${userId}`)) return;
        taken.add(`${task.taskId}:${userId}`);
        assignmentRows.push({
          reservation_flow_id: plan.saleFlowId,
          task_id: task.taskId,
          user_id: userId,
          assigned_by: assignedBy,
          created_at: iso(at),
        });
      };
      for (const task of cofTasks) assign(task, plan.sellerId, plan.createdBy, plan.created);
      if (plan.created >= defaultsConfiguredAt)
        for (const d of saleDefaults) assign(d.task, d.userId, plan.createdBy, plan.created);
    }
    // A bounded number of open tasks of the current stage were assigned by hand by an admin.
    const openSaleFlows = plans.filter((p) => p.saleStatus === 'in_progress');
    for (let i = 0; i < scale.manualSaleAssignments && openSaleFlows.length > 0; i++) {
      const plan = rng.pick(openSaleFlows);
      const task = saleFlow.tasks[plan.saleDone]!;
      const stageStart = plan.b[task.stageNo - 1]!;
      const userId = rng.pick(backOffice);
      if (
        assignmentRows.some(
          (r) =>
            r.reservation_flow_id === plan.saleFlowId && r.task_id === task.taskId && r.user_id === userId,
        )
      )
        continue;
      assignmentRows.push({
        reservation_flow_id: plan.saleFlowId,
        task_id: task.taskId,
        user_id: userId,
        assigned_by: rng.pick(admins),
        created_at: iso(Math.min(now, stageStart + rng.int(1, 48) * HOUR)),
      });
    }
    await insertRows(
      tx,
      'task_assignments',
      {
        reservation_flow_id: 'uuid',
        task_id: 'uuid',
        user_id: 'uuid',
        assigned_by: 'uuid',
        created_at: 'timestamptz',
      },
      assignmentRows,
      scale.batchSize,
    );
    counts.taskAssignments = assignmentRows.length;
    step(`${assignmentRows.length} sale task assignments`);

    // --- Payment flows and their tasks ----------------------------------------------------
    const commissionFlowRows: Row[] = paymentPlans.map((plan) => {
      const end = plan.status === 'completed' ? paymentFlowEnd(plan) : null;
      return {
        id: plan.id,
        broker_commission_id: plan.commissionId,
        flow_id: plan.def.id,
        current_stage_id: currentStage(plan.def.tasks, plan.done),
        status: plan.status,
        started_at: plan.done >= 0 ? iso(plan.start) : null,
        completed_at: end !== null ? iso(end) : null,
        is_second_payment: plan.def === secondFlow,
        created_by: plan.createdBy,
        updated_by: plan.createdBy,
        created_at: iso(plan.createdAt),
        updated_at: iso(end ?? (plan.done >= 0 ? plan.start : plan.createdAt)),
      };
    });
    await insertRows(
      tx,
      'commission_flows',
      {
        id: 'uuid',
        broker_commission_id: 'uuid',
        flow_id: 'uuid',
        current_stage_id: 'uuid',
        status: 'text',
        started_at: 'timestamptz',
        completed_at: 'timestamptz',
        is_second_payment: 'boolean',
        created_by: 'uuid',
        updated_by: 'uuid',
        created_at: 'timestamptz',
        updated_at: 'timestamptz',
      },
      commissionFlowRows,
      scale.batchSize,
    );
    counts.commissionFlows = commissionFlowRows.length;

    // Payment defaults were configured (Configuración Flujo Pago) just before the newest open tasks
    // opened: tasks that opened since then carry their default assignee.
    const openPaymentTasks: { plan: PaymentFlowPlan; task: PaymentTaskDef; openedAt: number }[] = [];
    for (const plan of paymentPlans) {
      if (plan.status !== 'in_progress') continue;
      for (const task of plan.def.tasks)
        if (task.ord > plan.done && task.prereqOrd <= plan.done)
          openPaymentTasks.push({
            plan,
            task,
            openedAt: paymentTime(plan.start, plan.span, plan.def.total, task.prereqCum),
          });
    }
    openPaymentTasks.sort((a, b) => b.openedAt - a.openedAt);
    const paymentDefaultsFrom =
      openPaymentTasks.length > scale.openPaymentTasksWithDefault
        ? openPaymentTasks[scale.openPaymentTasksWithDefault]!.openedAt + 1
        : 0;

    const defaultAssigneeOf = (name: string) =>
      PAYMENT_DEFAULTS[name] ? byKey.get(PAYMENT_DEFAULTS[name]!)! : null;
    const paymentDefsJson = JSON.stringify(
      [mainFlow, secondFlow].flatMap((def) =>
        def.tasks.map((t) => ({
          flow_def_id: def.id,
          task_id: t.taskId,
          ord: t.ord,
          cum: t.cum,
          prereq_ord: t.prereqOrd,
          prereq_cum: t.prereqCum,
          default_assignee: defaultAssigneeOf(t.name),
        })),
      ),
    );
    const paymentParams = paymentPlans.map((plan) => ({
      flow_id: plan.id,
      flow_def_id: plan.def.id,
      start_ms: plan.start,
      span_ms: plan.span,
      total: plan.def.total,
      done: plan.done,
      salt: plan.salt,
      created: plan.createdAt,
    }));
    await expandInBatches(
      tx,
      paymentParams,
      Math.max(1000, Math.floor(scale.batchSize / 2)),
      (json) => sql`
        insert into commission_flow_tasks (id, commission_flow_id, task_id, status, started_at, completed_at, assignee_id, assigned_at, created_at, updated_at)
        select ${rowId(sql`x.flow_id`, sql`x.task_id`)}, x.flow_id, x.task_id, x.status, to_timestamp(x.started_ms / 1000.0), to_timestamp(x.completed_ms / 1000.0),
               case when x.status <> 'blocked' and x.started_ms >= ${paymentDefaultsFrom} then x.default_assignee end,
               case when x.status <> 'blocked' and x.started_ms >= ${paymentDefaultsFrom} and x.default_assignee is not null
                    then to_timestamp(x.started_ms / 1000.0) end,
               to_timestamp(x.created / 1000.0),
               to_timestamp(coalesce(x.completed_ms, x.started_ms, x.created) / 1000.0)
        from (
          select p.flow_id, d.task_id, d.default_assignee, p.created,
                 case when p.done < 0 then 'blocked'
                      when d.ord <= p.done then 'completed'
                      when d.prereq_ord <= p.done then case when (p.salt + d.ord) % 3 = 0 then 'in_progress' else 'pending' end
                      else 'blocked' end as status,
                 case when p.done >= 0 and d.prereq_ord <= p.done
                      then p.start_ms + (p.span_ms * d.prereq_cum) / p.total end as started_ms,
                 case when p.done >= 0 and d.ord <= p.done
                      then p.start_ms + (p.span_ms * d.cum) / p.total end as completed_ms
          from json_to_recordset(${json}::json) as p(flow_id uuid, flow_def_id uuid, start_ms bigint, span_ms bigint, total int, done int, salt int, created bigint)
          join json_to_recordset(${paymentDefsJson}::json) as d(flow_def_id uuid, task_id uuid, ord int, cum int, prereq_ord int, prereq_cum int, default_assignee uuid)
            on d.flow_def_id = p.flow_def_id
        ) x`,
      (n) => n % 20_000 === 0 && step(`payment flow tasks for ${n}/${paymentParams.length} flows`),
    );
    counts.commissionFlowTasks = paymentPlans.reduce((sum, plan) => sum + plan.def.tasks.length, 0);

    // Older open payment tasks: a bounded number were assigned by hand to back-office users.
    const olderOpen = openPaymentTasks.filter((t) => t.openedAt < paymentDefaultsFrom);
    rng.shuffle(olderOpen);
    const manualPayment = olderOpen.slice(0, scale.manualPaymentAssignments).map((t) => ({
      flow_id: t.plan.id,
      task_id: t.task.taskId,
      assignee_id: rng.pick(backOffice),
      assigned_at: iso(Math.min(now, t.openedAt + rng.int(1, 72) * HOUR)),
    }));
    if (manualPayment.length > 0)
      await tx.execute(sql`
        update commission_flow_tasks t set assignee_id = m.assignee_id, assigned_at = m.assigned_at
        from json_to_recordset(${JSON.stringify(manualPayment)}::json) as m(flow_id uuid, task_id uuid, assignee_id uuid, assigned_at timestamptz)
        where t.commission_flow_id = m.flow_id and t.task_id = m.task_id`);
    step(`${commissionFlowRows.length} payment flows, ${counts.commissionFlowTasks} payment tasks`);

    // --- Settings: default seller, default sale assignees, payment default assignees --------
    await tx.execute(sql`insert into default_seller (user_id, updated_by) values (${sellerIds[1] ?? sellerIds[0]!}, ${admins[0]!})
      on conflict (singleton) do nothing`);
    const defaultRows = saleDefaults.map((d) => ({
      task_id: d.task.taskId,
      user_id: d.userId,
      created_by: admins[0],
      updated_by: admins[0],
      created_at: iso(defaultsConfiguredAt),
    }));
    await insertRows(
      tx,
      'default_task_assignments',
      { task_id: 'uuid', user_id: 'uuid', created_by: 'uuid', updated_by: 'uuid', created_at: 'timestamptz' },
      defaultRows,
      scale.batchSize,
    );
    const paymentDefaults = [mainFlow, secondFlow].flatMap((def) =>
      def.tasks
        .filter((t) => defaultAssigneeOf(t.name))
        .map((t) => ({ task_id: t.taskId, user_id: defaultAssigneeOf(t.name) })),
    );
    await tx.execute(sql`
      update payment_flow_tasks t set default_assignee_id = d.user_id
      from json_to_recordset(${JSON.stringify(paymentDefaults)}::json) as d(task_id uuid, user_id uuid)
      where t.id = d.task_id`);

    // --- Comments on open tasks ------------------------------------------------------------
    const saleComments: Row[] = [];
    for (let i = 0; i < Math.ceil(scale.comments / 2) && openSaleFlows.length > 0; i++) {
      const plan = rng.pick(openSaleFlows);
      const task = saleFlow.tasks[Math.max(0, plan.saleDone - rng.int(0, 1))]!;
      saleComments.push({
        flow_id: plan.saleFlowId,
        task_id: task.taskId,
        user_id: rng.chance(0.5) ? plan.sellerId : rng.pick(backOffice),
        content: rng.pick(SALE_COMMENTS),
        created_at: iso(Math.min(now, plan.b[task.stageNo - 1]! + rng.int(1, 72) * HOUR)),
      });
    }
    if (saleComments.length > 0)
      await tx.execute(sql`
        insert into task_comments (reservation_flow_task_id, user_id, content, created_at)
        select t.id, c.user_id, c.content, c.created_at
        from json_to_recordset(${JSON.stringify(saleComments)}::json) as c(flow_id uuid, task_id uuid, user_id uuid, content text, created_at timestamptz)
        join reservation_flow_tasks t on t.reservation_flow_id = c.flow_id and t.task_id = c.task_id`);
    const paymentComments = openPaymentTasks.slice(0, Math.floor(scale.comments / 2)).map((t) => ({
      flow_id: t.plan.id,
      task_id: t.task.taskId,
      user_id: rng.pick(backOffice),
      content: rng.pick(PAYMENT_COMMENTS),
      created_at: iso(Math.min(now, t.openedAt + rng.int(1, 48) * HOUR)),
    }));
    if (paymentComments.length > 0)
      await tx.execute(sql`
        insert into commission_task_comments (commission_flow_task_id, user_id, content, created_at)
        select t.id, c.user_id, c.content, c.created_at
        from json_to_recordset(${JSON.stringify(paymentComments)}::json) as c(flow_id uuid, task_id uuid, user_id uuid, content text, created_at timestamptz)
        join commission_flow_tasks t on t.commission_flow_id = c.flow_id and t.task_id = c.task_id`);
    counts.comments = saleComments.length + paymentComments.length;
    step('settings and comments');

    return { counts, users: logins };
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

/**
 * Each user's pending tasks, as the bell badge counts them (workflows.md §6): sale tasks assigned
 * through task_assignments and payment tasks assigned through assignee_id, not completed and not
 * blocked, of flows in progress. Largest first.
 */
export async function pendingTaskCounts(
  db: Executor,
): Promise<{ userId: string; email: string; userType: string; count: number }[]> {
  const rows = await queryRows<{ user_id: string; email: string; user_type: string; count: number }>(
    db,
    sql`select p.id as user_id, p.email, p.user_type, count(*)::int as count from (
          select a.user_id from task_assignments a
          join reservation_flows f on f.id = a.reservation_flow_id and f.status = 'in_progress'
          join reservation_flow_tasks t on t.reservation_flow_id = a.reservation_flow_id and t.task_id = a.task_id
          where t.status in ('pending', 'in_progress')
          union all
          select t.assignee_id from commission_flow_tasks t
          join commission_flows f on f.id = t.commission_flow_id and f.status = 'in_progress'
          where t.status in ('pending', 'in_progress') and t.assignee_id is not null
        ) x join profiles p on p.id = x.user_id
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
