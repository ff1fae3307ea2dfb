import { isOpenTaskStatus, TASK_STATUSES, type TaskStatus } from './statuses';
import type {
  Actor,
  FlowCommand,
  FlowRefusal,
  FlowState,
  TaskDefinition,
  TaskState,
  WorkflowDefinition,
} from './types';

/**
 * Who may give which command on a flow, decided once (issue 26; workflows.md §2-§4). The engine asks
 * `refusalOf` before it applies any command, whatever route sent it; the screens receive
 * `allowedCommands` and render it, never re-deriving a rule. What is judged here: the actor, the
 * flow's and the task's state. What is not: a command's own arguments (dates in order, a user that
 * exists), which the engine and the service check after.
 */

export interface AuthorityOptions {
  actor: Actor;
  /**
   * The flow's reservation was rescinded: a flow the rescission left completed is closed as well, so
   * no task of it can be reopened into anybody's pending list. Comments stay possible.
   */
  subjectClosed?: boolean;
}

interface Judge {
  definition: WorkflowDefinition;
  state: FlowState;
  actor: Actor;
  subjectClosed: boolean;
}

function taskAndDefinition(
  judge: Judge,
  taskRowId: string,
): { task: TaskState; definition: TaskDefinition } | null {
  const task = judge.state.tasks.find((candidate) => candidate.id === taskRowId);
  const definition = task && judge.definition.tasks.find((candidate) => candidate.id === task.taskId);
  return task && definition ? { task, definition } : null;
}

/** Nothing of the flow's tasks changes while a payment flow waits for 'Proceder con Pago', nor once closed. */
function closedRefusal(judge: Judge): FlowRefusal | null {
  if (judge.state.status === 'cancelled' || judge.subjectClosed) return 'FLOW_CANCELLED';
  if (judge.state.status === 'pending') return 'FLOW_NOT_STARTED';
  return null;
}

/** An approval is decided, and handed to someone else, by its assignee or an administrator (§4). */
function isDecider(actor: Actor, task: TaskState): boolean {
  return actor.administersFlows || task.assignees.some((assignee) => assignee.userId === actor.id);
}

/** Prerequisite-opened flows: every prerequisite of the task is completed (stage-opened: always). */
export function prerequisitesMet(definition: WorkflowDefinition, state: FlowState, task: TaskDefinition) {
  if (definition.taskOpening !== 'prerequisites') return true;
  return task.prerequisiteIds.every(
    (id) => state.tasks.find((candidate) => candidate.taskId === id)?.status === 'completed',
  );
}

/**
 * Whether this actor may change a task once it is completed (workflows.md §2: administrators only).
 * So whatever completion a non-administrator gives — a status, an approval — is theirs to give once:
 * the approvals list, which holds no flow's state, asks before 'Aprobar Seleccionados' from this.
 */
export function mayChangeCompletedTasks(actor: Actor): boolean {
  return actor.administersFlows;
}

/**
 * What a non-administrator may not touch (workflows.md §2, §3): a completed task, and a payment task
 * while it is blocked.
 */
function ordinaryUserRefusal(
  judge: Judge,
  task: TaskState,
  completed: 'TASK_COMPLETED_ADMIN_ONLY' | 'ASSIGN_COMPLETED_ADMIN_ONLY',
): FlowRefusal | null {
  if (task.status === 'completed' && !mayChangeCompletedTasks(judge.actor)) return completed;
  if (judge.actor.administersFlows) return null;
  if (task.status === 'blocked' && judge.definition.taskOpening === 'prerequisites') return 'TASK_BLOCKED';
  return null;
}

function setStatusRefusal(
  judge: Judge,
  taskRowId: string,
  status: TaskStatus,
  withCompletionDate: boolean,
): FlowRefusal | null {
  const closed = closedRefusal(judge);
  if (closed) return closed;
  const found = taskAndDefinition(judge, taskRowId);
  if (!found) return 'TASK_NOT_FOUND';
  const { task, definition } = found;
  // The same status again changes nothing, whoever asks (a double click, two people at once).
  if (task.status === status && !withCompletionDate) return null;
  const ordinary = ordinaryUserRefusal(judge, task, 'TASK_COMPLETED_ADMIN_ONLY');
  if (ordinary) return ordinary;
  if (definition.isApproval && !isDecider(judge.actor, task)) return 'APPROVAL_NOT_ASSIGNED';
  // A task leaves 'blocked' only once everything it waits for is done, administrators included
  // (decision 0026): otherwise a flow completes with tasks that never started, out of order.
  if (
    task.status === 'blocked' &&
    status !== 'blocked' &&
    !prerequisitesMet(judge.definition, judge.state, definition)
  )
    return 'TASK_BLOCKED';
  // A rejection is an event with its reason ('Rechazar'), never a bare status.
  if (definition.isApproval && status === 'blocked') return 'APPROVAL_REJECT_NEEDS_REASON';
  if (withCompletionDate && !judge.actor.administersFlows) return 'FORBIDDEN';
  return null;
}

function assignmentRefusal(judge: Judge, taskRowId: string): FlowRefusal | null {
  const closed = closedRefusal(judge);
  if (closed) return closed;
  const found = taskAndDefinition(judge, taskRowId);
  if (!found) return 'TASK_NOT_FOUND';
  const ordinary = ordinaryUserRefusal(judge, found.task, 'ASSIGN_COMPLETED_ADMIN_ONLY');
  if (ordinary) return ordinary;
  // Taking an approval from its assignee would let anyone approve it (issue 26, item 2).
  if (found.definition.isApproval && !isDecider(judge.actor, found.task)) return 'APPROVAL_NOT_ASSIGNED';
  return null;
}

/** Approve or reject: an open approval task, by its assignee or an administrator (workflows.md §4). */
function decisionRefusal(
  judge: Judge,
  taskRowId: string,
  decision: 'approve' | 'reject',
): FlowRefusal | null {
  const closed = closedRefusal(judge);
  if (closed) return closed;
  const found = taskAndDefinition(judge, taskRowId);
  if (!found) return 'TASK_NOT_FOUND';
  if (!found.definition.isApproval) return 'APPROVAL_NOT_FOUND';
  if (found.task.status === 'completed') return decision === 'approve' ? null : 'APPROVAL_ALREADY_APPROVED';
  if (!isDecider(judge.actor, found.task)) return 'APPROVAL_NOT_ASSIGNED';
  if (!isOpenTaskStatus(found.task.status)) return 'APPROVAL_NOT_OPEN';
  return null;
}

/**
 * Why this actor may not give this command on this flow now, or null when they may. The engine
 * refuses exactly what this refuses (checked by property tests); a command that is allowed may still
 * be refused for its arguments (dates out of order).
 */
export function refusalOf(
  definition: WorkflowDefinition,
  state: FlowState,
  command: FlowCommand,
  options: AuthorityOptions,
): FlowRefusal | null {
  const judge: Judge = {
    definition,
    state,
    actor: options.actor,
    subjectClosed: options.subjectClosed ?? false,
  };
  switch (command.type) {
    case 'start':
      if (!judge.actor.startsPayments) return 'FORBIDDEN';
      if (state.status === 'cancelled' || judge.subjectClosed) return 'FLOW_CANCELLED';
      return state.status === 'pending' ? null : 'FLOW_ALREADY_STARTED';
    case 'setStatus':
      return setStatusRefusal(
        judge,
        command.taskRowId,
        command.status,
        command.completedAt !== undefined && command.isBankDate !== true,
      );
    case 'reopen': {
      const task = state.tasks.find((candidate) => candidate.id === command.taskRowId);
      // Reopening a task that is not completed changes nothing.
      if (task && task.status !== 'completed') return null;
      return setStatusRefusal(judge, command.taskRowId, 'pending', false);
    }
    case 'approve':
      return decisionRefusal(judge, command.taskRowId, 'approve');
    case 'reject':
      return decisionRefusal(judge, command.taskRowId, 'reject');
    case 'assign':
    case 'unassign':
      return assignmentRefusal(judge, command.taskRowId);
    case 'editTaskDates': {
      if (!judge.actor.administersFlows) return 'FORBIDDEN';
      const closed = closedRefusal(judge);
      if (closed) return closed;
      return taskAndDefinition(judge, command.taskRowId) ? null : 'TASK_NOT_FOUND';
    }
    case 'editFlowDates':
      if (!judge.actor.administersFlows) return 'FORBIDDEN';
      return state.status === 'cancelled' || judge.subjectClosed ? 'FLOW_CANCELLED' : null;
    case 'cancel':
      return null;
    case 'comment':
      // Comments stay possible on a completed flow of a rescinded reservation: they change nothing.
      if (state.status === 'cancelled') return 'FLOW_CANCELLED';
      if (state.status === 'pending') return 'FLOW_NOT_STARTED';
      return taskAndDefinition(judge, command.taskRowId) ? null : 'TASK_NOT_FOUND';
  }
}

/** Per task: null when the actor may give the command now, or why not. */
export interface TaskCommandsAllowed {
  /** Each status of the select: null when the actor may set it (the current one: null, it is a no-op). */
  statuses: Record<TaskStatus, FlowRefusal | null>;
  assign: FlowRefusal | null;
  editDates: FlowRefusal | null;
  comment: FlowRefusal | null;
  approve: FlowRefusal | null;
  reject: FlowRefusal | null;
  /**
   * The changes this actor may make now — the statuses allowed, and 'completed' when they may approve
   * — after which they could not set the task back to its present status (a non-administrator
   * completing a task, say). The screens ask before those (issue 28 §5), and only before those.
   */
  irreversible: TaskStatus[];
}

export interface FlowCommandsAllowed {
  start: FlowRefusal | null;
  editDates: FlowRefusal | null;
  /** By task row id. */
  tasks: Map<string, TaskCommandsAllowed>;
}

/**
 * The commands that put a task to `status`: the select's, and for the statuses a decision gives, the
 * decision ('Rechazar' blocks an approval, which no bare status may; 'Aprobar' completes one).
 */
function commandsTo(taskRowId: string, status: TaskStatus): FlowCommand[] {
  const commands: FlowCommand[] = [{ type: 'setStatus', taskRowId, status }];
  if (status === 'blocked') commands.push({ type: 'reject', taskRowId, reason: '-' });
  if (status === 'completed') commands.push({ type: 'approve', taskRowId });
  return commands;
}

/**
 * Whether the actor, by commands of their own, one or several (reopen, then reject), could bring the
 * task from `from` back to the status it has now. Only the task's status is changed in the states
 * judged: the engine's other consequences (assignees dropped on completion, successors opened, the
 * flow completed) decide nothing of the way back (held equal to the engine's own result by a
 * property test).
 */
function canTakeBack(
  definition: WorkflowDefinition,
  state: FlowState,
  task: TaskState,
  from: TaskStatus,
  options: AuthorityOptions,
): boolean {
  const reached = new Set<TaskStatus>([from]);
  const queue: TaskStatus[] = [from];
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    const at: FlowState = {
      ...state,
      tasks: state.tasks.map((candidate) =>
        candidate.id === task.id ? { ...candidate, status: current } : candidate,
      ),
    };
    for (const next of TASK_STATUSES.filter((status) => !reached.has(status))) {
      const allowed = commandsTo(task.id, next).some(
        (command) => refusalOf(definition, at, command, options) === null,
      );
      if (!allowed) continue;
      if (next === task.status) return true;
      reached.add(next);
      queue.push(next);
    }
  }
  return false;
}

/** Of the statuses `offered` to the actor on a task, those the actor could not take back. */
function irreversibleOf(
  definition: WorkflowDefinition,
  state: FlowState,
  task: TaskState,
  offered: readonly TaskStatus[],
  options: AuthorityOptions,
): TaskStatus[] {
  return offered.filter((status) => !canTakeBack(definition, state, task, status, options));
}

/**
 * Everything this actor may do on the flow now, task by task: what the flow screens, the approval
 * detail and the inboxes render (buttons, selects, their hints). Built from `refusalOf` alone; it
 * lists changes, so a command that would change nothing (the current status, approving an approved
 * task) is not offered, though the engine accepts it from anyone as a no-op.
 */
export function allowedCommands(
  definition: WorkflowDefinition,
  state: FlowState,
  options: AuthorityOptions,
): FlowCommandsAllowed {
  const ask = (command: FlowCommand) => refusalOf(definition, state, command, options);
  const tasks = new Map<string, TaskCommandsAllowed>();
  for (const task of state.tasks) {
    const taskRowId = task.id;
    const statuses = Object.fromEntries(
      TASK_STATUSES.map((status) => [status, ask({ type: 'setStatus', taskRowId, status })]),
    ) as Record<TaskStatus, FlowRefusal | null>;
    // Approving a completed approval is accepted and changes nothing: no button offers it.
    const approve =
      task.status === 'completed' ? 'APPROVAL_ALREADY_APPROVED' : ask({ type: 'approve', taskRowId });
    const reject = ask({ type: 'reject', taskRowId, reason: '-' });
    // The changes offered: the statuses allowed, completing by 'Aprobar' and blocking by 'Rechazar'.
    const offered = TASK_STATUSES.filter(
      (status) =>
        status !== task.status &&
        (statuses[status] === null ||
          (status === 'completed' && approve === null) ||
          (status === 'blocked' && reject === null)),
    );
    tasks.set(taskRowId, {
      statuses,
      assign: ask({ type: 'assign', taskRowId, userId: options.actor.id }),
      editDates: ask({ type: 'editTaskDates', taskRowId }),
      comment: ask({ type: 'comment', taskRowId }),
      approve,
      reject,
      irreversible: irreversibleOf(definition, state, task, offered, options),
    });
  }
  return { start: ask({ type: 'start' }), editDates: ask({ type: 'editFlowDates' }), tasks };
}
