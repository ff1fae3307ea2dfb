import type { FlowStatus, TaskStatus } from './statuses';

/**
 * The workflow engine's vocabulary (DESIGN §10). A definition is data (seeded rows, edited in
 * Configuración); a flow is one instance of it. The engine is pure: state and a command go in, the
 * new state and its events (or a refusal) come out. No I/O, no clock: `now` is an argument.
 */

export type WorkflowKind = 'sale' | 'payment';

/**
 * How a definition's tasks open. `stage`: every task is pending from the start and gets its start
 * date when its stage becomes current (the sale flow). `prerequisites`: tasks start blocked and open
 * when all their prerequisite tasks are completed (the payment flows).
 */
export type TaskOpening = 'stage' | 'prerequisites';

export interface StageDefinition {
  id: string;
  name: string;
  order: number;
}

export interface TaskDefinition {
  id: string;
  stageId: string;
  name: string;
  order: number;
  daysToComplete: number | null;
  /** Assigned to the reservation's seller when the flow is created (the sale flow's COF tasks). */
  assignToSeller: boolean;
  /** An approval ('VB …', 'Aprobación de Entrada'): listed in the approvals inbox. */
  isApproval: boolean;
  /** Retired from the business's flow: kept for the flows that have it, hidden from settings and reports. */
  isRetired: boolean;
  /** Tasks that must be completed before this one opens (only read when opening is `prerequisites`). */
  prerequisiteIds: readonly string[];
  /** Configured default assignees (Configuración Flujo Venta / Pago). */
  defaultAssigneeIds: readonly string[];
}

export interface WorkflowDefinition {
  id: string;
  name: string;
  kind: WorkflowKind;
  taskOpening: TaskOpening;
  /** Payment tasks have exactly one responsible; sale tasks may have several. */
  singleAssignee: boolean;
  /** Stages in order. */
  stages: readonly StageDefinition[];
  /** Tasks in flow order (stage order, then task order). */
  tasks: readonly TaskDefinition[];
}

export interface Assignee {
  userId: string;
  assignedAt: Date;
  assignedBy: string | null;
}

export interface TaskState {
  /** The flow task row's id. */
  id: string;
  /** The definition task it instantiates. */
  taskId: string;
  status: TaskStatus;
  startedAt: Date | null;
  completedAt: Date | null;
  completedBy: string | null;
  daysToComplete: number | null;
  assignees: readonly Assignee[];
}

export interface FlowState {
  id: string;
  status: FlowStatus;
  currentStageId: string | null;
  startedAt: Date | null;
  completedAt: Date | null;
  /** One per definition task, in flow order. */
  tasks: readonly TaskState[];
}

/** Who gives a command, with the two powers the spec gives administrators (shared/permissions.ts). */
export interface Actor {
  id: string;
  /** 'flows.administer': change completed tasks, correct dates, decide others' approvals. */
  administersFlows: boolean;
  /** 'payments.start': 'Proceder con Pago'. */
  startsPayments: boolean;
}

export type FlowCommand =
  /** 'Proceder con Pago': a pending flow starts (administrators). */
  | { type: 'start' }
  /**
   * Any status from the select; completing may carry an administrator's date, or the bank's date of a
   * payment batch (`isBankDate`: the batch's own rule, 'paymentBatches.markPaid', judged who may give
   * it; issue 53). No request body reaches this flag: only the batch's service sets it.
   */
  | { type: 'setStatus'; taskRowId: string; status: TaskStatus; completedAt?: Date; isBankDate?: true }
  /** A completed task back to pending (administrators: it is a change of a completed task). */
  | { type: 'reopen'; taskRowId: string }
  | { type: 'assign'; taskRowId: string; userId: string }
  | { type: 'unassign'; taskRowId: string; userId: string }
  /** 'Aprobar' (workflows.md §4): an open approval task completed by its assignee or an administrator. */
  | { type: 'approve'; taskRowId: string }
  /** 'Rechazar': an open approval task blocked with its reason, recorded as a rejection. */
  | { type: 'reject'; taskRowId: string; reason: string }
  /** Administrators correct a task's dates; never cascades. */
  | { type: 'editTaskDates'; taskRowId: string; startedAt?: Date | null; completedAt?: Date | null }
  /** Administrators correct the flow's dates; a new completion date moves the payment date with it. */
  | { type: 'editFlowDates'; startedAt?: Date | null; completedAt?: Date | null }
  /** Rescission: a flow not completed stops; its tasks leave every pending list. */
  | { type: 'cancel' }
  /** Not a change of state: may this task get a comment now? */
  | { type: 'comment'; taskRowId: string };

export type FlowEvent =
  | { type: 'flowStarted'; at: Date }
  | { type: 'stageEntered'; stageId: string }
  | { type: 'taskOpened'; taskRowId: string }
  | { type: 'taskStatusChanged'; taskRowId: string; from: TaskStatus; to: TaskStatus }
  | { type: 'taskCompleted'; taskRowId: string; at: Date }
  | { type: 'taskReopened'; taskRowId: string }
  /** An approval rejected: the task is blocked, and who, when and why are recorded with it. */
  | { type: 'taskRejected'; taskRowId: string; by: string; at: Date; reason: string }
  | { type: 'taskAssigned'; taskRowId: string; userId: string }
  | { type: 'taskUnassigned'; taskRowId: string; userId: string }
  | { type: 'taskDatesEdited'; taskRowId: string }
  | { type: 'flowDatesEdited' }
  /** `at` is the completion instant: a payment flow's completion sets the commission's payment date. */
  | { type: 'flowCompleted'; at: Date }
  | { type: 'flowReopened' }
  | { type: 'flowCancelled' }
  | { type: 'commentAllowed'; taskRowId: string };

/** Why the engine refused a command: each is an error code of `shared/errors.ts`. */
export type FlowRefusal =
  | 'FORBIDDEN'
  | 'FLOW_NOT_STARTED'
  | 'FLOW_ALREADY_STARTED'
  | 'FLOW_CANCELLED'
  | 'TASK_NOT_FOUND'
  | 'TASK_COMPLETED_ADMIN_ONLY'
  | 'ASSIGN_COMPLETED_ADMIN_ONLY'
  | 'TASK_BLOCKED'
  | 'INVALID_TASK_DATES'
  | 'APPROVAL_NOT_FOUND'
  | 'APPROVAL_NOT_ASSIGNED'
  | 'APPROVAL_NOT_OPEN'
  | 'APPROVAL_ALREADY_APPROVED'
  | 'APPROVAL_REJECT_NEEDS_REASON';

export type CommandResult =
  | { ok: true; state: FlowState; events: FlowEvent[] }
  | { ok: false; refusal: FlowRefusal };
