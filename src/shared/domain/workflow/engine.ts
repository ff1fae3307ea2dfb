import { refusalOf } from './authority';
import { isOpenTaskStatus, type TaskStatus } from './statuses';
import type {
  Actor,
  Assignee,
  CommandResult,
  FlowCommand,
  FlowEvent,
  FlowRefusal,
  FlowState,
  TaskDefinition,
  TaskState,
  WorkflowDefinition,
} from './types';

/**
 * The workflow engine (DESIGN §10, workflows.md §2, §3, §6): pure functions over a definition and a
 * flow's state. Every rule of who may change what, and every consequence of a change (tasks opening,
 * the stage advancing, the flow completing), is decided here once; the server only loads, applies
 * and persists.
 */

const time = (date: Date | null) => (date === null ? null : date.getTime());
const sameInstant = (a: Date | null, b: Date | null) => time(a) === time(b);
const latest = (dates: readonly Date[]) =>
  dates.reduce<Date | null>((max, date) => (max === null || date > max ? date : max), null);

function refuse(refusal: FlowRefusal): CommandResult {
  return { ok: false, refusal };
}

function taskDefinitionsById(definition: WorkflowDefinition): Map<string, TaskDefinition> {
  return new Map(definition.tasks.map((task) => [task.id, task]));
}

function stageOrderOf(definition: WorkflowDefinition): Map<string, number> {
  return new Map(definition.stages.map((stage) => [stage.id, stage.order]));
}

/** Current stage = the lowest-order stage that still has a task not completed; null when none has. */
export function currentStageOf(definition: WorkflowDefinition, tasks: readonly TaskState[]): string | null {
  const byId = taskDefinitionsById(definition);
  const order = stageOrderOf(definition);
  let current: { id: string; order: number } | null = null;
  for (const task of tasks) {
    if (task.status === 'completed') continue;
    const stageId = byId.get(task.taskId)?.stageId;
    if (stageId === undefined) continue;
    const stageOrder = order.get(stageId) ?? Number.POSITIVE_INFINITY;
    if (current === null || stageOrder < current.order) current = { id: stageId, order: stageOrder };
  }
  return current?.id ?? null;
}

/** Completed tasks / all tasks, as a rounded percent (workflows.md §3). */
export function progressOf(tasks: readonly Pick<TaskState, 'status'>[]): number {
  if (tasks.length === 0) return 0;
  const completed = tasks.filter((task) => task.status === 'completed').length;
  return Math.round((completed / tasks.length) * 100);
}

/** A stage is complete when all its tasks are. */
export function isStageComplete(
  definition: WorkflowDefinition,
  tasks: readonly TaskState[],
  stageId: string,
): boolean {
  const byId = taskDefinitionsById(definition);
  return tasks
    .filter((task) => byId.get(task.taskId)?.stageId === stageId)
    .every((t) => t.status === 'completed');
}

export interface InstantiateInput {
  flowId: string;
  now: Date;
  actorId: string | null;
  /** The reservation's seller: receives the tasks flagged assign-to-seller. */
  sellerId: string | null;
  /** Ids for the new task rows (random on the server, deterministic in tests). */
  newId: () => string;
}

/**
 * A new flow of the definition. Stage-opened flows (the sale flow) start at once: in progress, the
 * first stage current and its tasks started, assignees from the seller flag and the defaults.
 * Prerequisite-opened flows (payments) wait for 'Proceder con Pago': pending, every task blocked.
 */
export function instantiate(
  definition: WorkflowDefinition,
  input: InstantiateInput,
): { state: FlowState; events: FlowEvent[] } {
  const firstStage = definition.stages[0];
  if (!firstStage || definition.tasks.length === 0) {
    throw new Error(`The workflow definition '${definition.name}' has no stages or tasks`);
  }
  const events: FlowEvent[] = [];
  if (definition.taskOpening === 'prerequisites') {
    const tasks = definition.tasks.map(
      (task): TaskState => ({
        id: input.newId(),
        taskId: task.id,
        status: 'blocked',
        startedAt: null,
        completedAt: null,
        completedBy: null,
        daysToComplete: task.daysToComplete,
        assignees: [],
      }),
    );
    return {
      state: {
        id: input.flowId,
        status: 'pending',
        currentStageId: firstStage.id,
        startedAt: null,
        completedAt: null,
        tasks,
      },
      events,
    };
  }

  const tasks = definition.tasks.map((task): TaskState => {
    const userIds = new Set(task.defaultAssigneeIds);
    if (task.assignToSeller && input.sellerId) userIds.add(input.sellerId);
    const chosen = definition.singleAssignee ? [...userIds].slice(0, 1) : [...userIds];
    return {
      id: input.newId(),
      taskId: task.id,
      status: 'pending',
      startedAt: task.stageId === firstStage.id ? input.now : null,
      completedAt: null,
      completedBy: null,
      daysToComplete: task.daysToComplete,
      assignees: chosen.map((userId) => ({ userId, assignedAt: input.now, assignedBy: input.actorId })),
    };
  });
  events.push({ type: 'flowStarted', at: input.now }, { type: 'stageEntered', stageId: firstStage.id });
  for (const task of tasks) {
    for (const assignee of task.assignees) {
      events.push({ type: 'taskAssigned', taskRowId: task.id, userId: assignee.userId });
    }
  }
  return {
    state: {
      id: input.flowId,
      status: 'in_progress',
      currentStageId: firstStage.id,
      startedAt: input.now,
      completedAt: null,
      tasks,
    },
    events,
  };
}

interface Context {
  definition: WorkflowDefinition;
  actor: Actor;
  now: Date;
}

export interface ApplyOptions {
  actor: Actor;
  now: Date;
  /** The flow's reservation was rescinded (see `AuthorityOptions`). */
  subjectClosed?: boolean;
}

/**
 * Applies one command. Who may give it is asked of the authority first (`refusalOf`), whatever route
 * sent it; then its arguments are checked. Refusals change nothing; the caller persists `state` and
 * hands on `events`.
 */
export function apply(
  definition: WorkflowDefinition,
  state: FlowState,
  command: FlowCommand,
  options: ApplyOptions,
): CommandResult {
  const refusal = refusalOf(definition, state, command, options);
  if (refusal) return refuse(refusal);
  const ctx: Context = { definition, actor: options.actor, now: options.now };
  switch (command.type) {
    case 'start':
      return start(ctx, state);
    case 'setStatus':
      return setStatus(ctx, state, command.taskRowId, command.status, command.completedAt);
    case 'reopen': {
      const task = findTask(state, command.taskRowId);
      if (task && task.status !== 'completed') return { ok: true, state, events: [] };
      return setStatus(ctx, state, command.taskRowId, 'pending');
    }
    case 'approve':
      return setStatus(ctx, state, command.taskRowId, 'completed');
    case 'reject':
      return reject(ctx, state, command.taskRowId, command.reason);
    case 'assign':
      return assign(ctx, state, command.taskRowId, command.userId);
    case 'unassign':
      return unassign(state, command.taskRowId, command.userId);
    case 'editTaskDates':
      return editTaskDates(state, command);
    case 'editFlowDates':
      return editFlowDates(state, command);
    case 'cancel':
      return cancel(state);
    case 'comment':
      return { ok: true, state, events: [{ type: 'commentAllowed', taskRowId: command.taskRowId }] };
  }
}

function findTask(state: FlowState, taskRowId: string): TaskState | undefined {
  return state.tasks.find((task) => task.id === taskRowId);
}

function replaceTask(state: FlowState, next: TaskState): FlowState {
  return { ...state, tasks: state.tasks.map((task) => (task.id === next.id ? next : task)) };
}

function start(ctx: Context, state: FlowState): CommandResult {
  const events: FlowEvent[] = [{ type: 'flowStarted', at: ctx.now }];
  const started: FlowState = { ...state, status: 'in_progress', startedAt: ctx.now };
  const opened = openReadyTasks(ctx, started, null, events);
  return { ok: true, state: settle(ctx, state, opened, events), events };
}

/**
 * A task with nobody on it that becomes workable again (reopened, or unblocked by an administrator)
 * gets its default assignees, so some inbox shows it (issue 26, item 5). Payment tasks take the first.
 */
function defaultAssigneesFor(ctx: Context, task: TaskState, events: FlowEvent[]): readonly Assignee[] {
  if (task.assignees.length > 0) return task.assignees;
  const definition = ctx.definition.tasks.find((candidate) => candidate.id === task.taskId);
  const userIds = definition?.defaultAssigneeIds ?? [];
  const chosen = ctx.definition.singleAssignee ? userIds.slice(0, 1) : userIds;
  for (const userId of chosen) events.push({ type: 'taskAssigned', taskRowId: task.id, userId });
  return chosen.map((userId) => ({ userId, assignedAt: ctx.now, assignedBy: ctx.actor.id }));
}

function setStatus(
  ctx: Context,
  state: FlowState,
  taskRowId: string,
  status: TaskStatus,
  completedAtGiven?: Date,
): CommandResult {
  const task = findTask(state, taskRowId)!;
  // The same status again changes nothing, whoever asks (a double click, two people at once).
  if (task.status === status && completedAtGiven === undefined) return { ok: true, state, events: [] };
  if (completedAtGiven !== undefined && status !== 'completed') return refuse('INVALID_TASK_DATES');

  const events: FlowEvent[] = [];
  let next: TaskState;
  if (status === 'completed') {
    const completedAt = completedAtGiven ?? ctx.now;
    if (task.startedAt && completedAt < task.startedAt) return refuse('INVALID_TASK_DATES');
    // Completing removes the task's assignees (workflows.md §2): a done task is nobody's work.
    for (const assignee of task.assignees) {
      events.push({ type: 'taskUnassigned', taskRowId, userId: assignee.userId });
    }
    next = { ...task, status, completedAt, completedBy: ctx.actor.id, assignees: [] };
    events.push({ type: 'taskStatusChanged', taskRowId, from: task.status, to: status });
    events.push({ type: 'taskCompleted', taskRowId, at: completedAt });
  } else {
    // Work that begins on a task not started yet starts it now (a later-stage sale task taken up
    // early, a blocked payment task an administrator opens by hand).
    const begins =
      status !== 'blocked' &&
      task.startedAt === null &&
      (status === 'in_progress' || task.status === 'blocked');
    const becomesWorkable = isOpenTaskStatus(status) && !isOpenTaskStatus(task.status);
    events.push({ type: 'taskStatusChanged', taskRowId, from: task.status, to: status });
    if (task.status === 'completed') events.push({ type: 'taskReopened', taskRowId });
    next = {
      ...task,
      status,
      completedAt: null,
      completedBy: null,
      startedAt: begins ? ctx.now : task.startedAt,
      assignees: becomesWorkable ? defaultAssigneesFor(ctx, task, events) : task.assignees,
    };
  }
  let after = replaceTask(state, next);
  // Only a completion opens successors; reopening or any other change never cascades (workflows.md §3).
  if (status === 'completed' && task.status !== 'completed')
    after = openReadyTasks(ctx, after, taskRowId, events);
  return { ok: true, state: settle(ctx, state, after, events), events };
}

/** 'Rechazar': the approval is blocked, and the rejection (who, when, why) is an event of the flow. */
function reject(ctx: Context, state: FlowState, taskRowId: string, reason: string): CommandResult {
  const task = findTask(state, taskRowId)!;
  const events: FlowEvent[] = [
    { type: 'taskStatusChanged', taskRowId, from: task.status, to: 'blocked' },
    { type: 'taskRejected', taskRowId, by: ctx.actor.id, at: ctx.now, reason: reason.trim() },
  ];
  const after = replaceTask(state, { ...task, status: 'blocked' });
  return { ok: true, state: settle(ctx, state, after, events), events };
}

/**
 * Prerequisite-opened flows: blocked tasks whose prerequisites are now all completed open — pending,
 * started at the latest prerequisite completion (the flow's start when they have none), given their
 * default assignee when they have no assignee. `trigger` limits this to the successors of the task
 * just completed (null at the flow's start: every ready task).
 */
function openReadyTasks(
  ctx: Context,
  state: FlowState,
  triggerRowId: string | null,
  events: FlowEvent[],
): FlowState {
  if (ctx.definition.taskOpening !== 'prerequisites') return state;
  const byTaskId = new Map(state.tasks.map((task) => [task.taskId, task]));
  const triggerTaskId = triggerRowId === null ? null : findTask(state, triggerRowId)?.taskId;
  const tasks = state.tasks.map((task) => {
    if (task.status !== 'blocked') return task;
    const definition = ctx.definition.tasks.find((candidate) => candidate.id === task.taskId);
    if (!definition) return task;
    if (triggerTaskId !== null && !definition.prerequisiteIds.includes(triggerTaskId as string)) return task;
    const prerequisites = definition.prerequisiteIds.map((id) => byTaskId.get(id));
    if (!prerequisites.every((p) => p?.status === 'completed')) return task;
    const startedAt =
      latest(prerequisites.map((p) => p!.completedAt).filter((d): d is Date => d !== null)) ??
      state.startedAt ??
      ctx.now;
    let assignees: readonly Assignee[] = task.assignees;
    const defaultAssignee = definition.defaultAssigneeIds[0];
    if (assignees.length === 0 && defaultAssignee) {
      assignees = [{ userId: defaultAssignee, assignedAt: ctx.now, assignedBy: ctx.actor.id }];
      events.push({ type: 'taskAssigned', taskRowId: task.id, userId: defaultAssignee });
    }
    events.push({ type: 'taskOpened', taskRowId: task.id });
    return { ...task, status: 'pending' as const, startedAt, assignees };
  });
  return { ...state, tasks };
}

/**
 * What follows any change: the current stage (stage-opened flows start the tasks of a stage that
 * becomes current), and the flow's completion — completed exactly when every task is, at the last
 * completion; back in progress when a task of a completed flow reopens.
 */
function settle(ctx: Context, before: FlowState, after: FlowState, events: FlowEvent[]): FlowState {
  if (after.status === 'cancelled' || after.status === 'pending') return after;
  let state = after;
  const currentStageId = currentStageOf(ctx.definition, state.tasks);
  if (currentStageId !== before.currentStageId && currentStageId !== null) {
    events.push({ type: 'stageEntered', stageId: currentStageId });
    if (ctx.definition.taskOpening === 'stage') {
      const stageTaskIds = new Set(
        ctx.definition.tasks.filter((task) => task.stageId === currentStageId).map((task) => task.id),
      );
      state = {
        ...state,
        tasks: state.tasks.map((task) =>
          stageTaskIds.has(task.taskId) && task.status !== 'completed' && task.startedAt === null
            ? { ...task, startedAt: ctx.now }
            : task,
        ),
      };
    }
  }
  state = { ...state, currentStageId };

  const allCompleted = state.tasks.every((task) => task.status === 'completed');
  if (allCompleted && state.status !== 'completed') {
    const completedAt = latest(state.tasks.map((task) => task.completedAt!)) ?? ctx.now;
    events.push({ type: 'flowCompleted', at: completedAt });
    return { ...state, status: 'completed', completedAt };
  }
  if (!allCompleted && state.status === 'completed') {
    events.push({ type: 'flowReopened' });
    return { ...state, status: 'in_progress', completedAt: null };
  }
  return state;
}

function assign(ctx: Context, state: FlowState, taskRowId: string, userId: string): CommandResult {
  const task = findTask(state, taskRowId)!;
  if (task.assignees.some((assignee) => assignee.userId === userId)) return { ok: true, state, events: [] };
  const events: FlowEvent[] = [];
  const kept = ctx.definition.singleAssignee ? [] : task.assignees;
  if (ctx.definition.singleAssignee) {
    for (const previous of task.assignees) {
      events.push({ type: 'taskUnassigned', taskRowId, userId: previous.userId });
    }
  }
  const assignees = [...kept, { userId, assignedAt: ctx.now, assignedBy: ctx.actor.id }];
  events.push({ type: 'taskAssigned', taskRowId, userId });
  return { ok: true, state: replaceTask(state, { ...task, assignees }), events };
}

function unassign(state: FlowState, taskRowId: string, userId: string): CommandResult {
  const task = findTask(state, taskRowId)!;
  if (!task.assignees.some((assignee) => assignee.userId === userId)) return { ok: true, state, events: [] };
  const assignees = task.assignees.filter((assignee) => assignee.userId !== userId);
  return {
    ok: true,
    state: replaceTask(state, { ...task, assignees }),
    events: [{ type: 'taskUnassigned', taskRowId, userId }],
  };
}

function editTaskDates(
  state: FlowState,
  command: Extract<FlowCommand, { type: 'editTaskDates' }>,
): CommandResult {
  const task = findTask(state, command.taskRowId)!;
  const startedAt = command.startedAt === undefined ? task.startedAt : command.startedAt;
  const completedAt = command.completedAt === undefined ? task.completedAt : command.completedAt;
  // A completion date belongs to a completed task, and a completed task keeps one.
  if ((task.status === 'completed') !== (completedAt !== null)) return refuse('INVALID_TASK_DATES');
  if (startedAt && completedAt && completedAt < startedAt) return refuse('INVALID_TASK_DATES');
  if (sameInstant(startedAt, task.startedAt) && sameInstant(completedAt, task.completedAt)) {
    return { ok: true, state, events: [] };
  }
  return {
    ok: true,
    state: replaceTask(state, { ...task, startedAt, completedAt }),
    events: [{ type: 'taskDatesEdited', taskRowId: task.id }],
  };
}

function editFlowDates(
  state: FlowState,
  command: Extract<FlowCommand, { type: 'editFlowDates' }>,
): CommandResult {
  const startedAt = command.startedAt === undefined ? state.startedAt : command.startedAt;
  const completedAt = command.completedAt === undefined ? state.completedAt : command.completedAt;
  // A started flow keeps a start; only a completed flow has a completion date.
  if (state.status !== 'pending' && startedAt === null) return refuse('INVALID_TASK_DATES');
  if (state.status === 'pending' && startedAt !== null) return refuse('FLOW_NOT_STARTED');
  if ((state.status === 'completed') !== (completedAt !== null)) return refuse('INVALID_TASK_DATES');
  if (startedAt && completedAt && completedAt < startedAt) return refuse('INVALID_TASK_DATES');
  if (sameInstant(startedAt, state.startedAt) && sameInstant(completedAt, state.completedAt)) {
    return { ok: true, state, events: [] };
  }
  const events: FlowEvent[] = [{ type: 'flowDatesEdited' }];
  // The payment date follows the flow's completion date.
  if (completedAt && !sameInstant(completedAt, state.completedAt))
    events.push({ type: 'flowCompleted', at: completedAt });
  return { ok: true, state: { ...state, startedAt, completedAt }, events };
}

function cancel(state: FlowState): CommandResult {
  if (state.status === 'completed' || state.status === 'cancelled') return { ok: true, state, events: [] };
  return { ok: true, state: { ...state, status: 'cancelled' }, events: [{ type: 'flowCancelled' }] };
}
