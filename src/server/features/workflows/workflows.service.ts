import { needlePattern, redactText } from '../../../shared/domain/privacy';
import {
  allowedCommands,
  type FlowCommandsAllowed,
  mayChangeCompletedTasks,
} from '../../../shared/domain/workflow/authority';
import { affectedUsers, diffFlow } from '../../../shared/domain/workflow/changes';
import { daysLate, santiagoDaysBetween } from '../../../shared/domain/workflow/days';
import { apply, instantiate, isStageComplete, progressOf } from '../../../shared/domain/workflow/engine';
import { flowViolations } from '../../../shared/domain/workflow/invariants';
import { PIE_LETTER_TASK } from '../../../shared/domain/workflow/names';
import { noticesOf } from '../../../shared/domain/workflow/notices';
import { TASK_STATUSES } from '../../../shared/domain/workflow/statuses';
import type {
  FlowCommand,
  FlowEvent,
  FlowState,
  TaskState,
  WorkflowDefinition,
  WorkflowKind,
} from '../../../shared/domain/workflow/types';
import { type ErrorCode, errorMessage } from '../../../shared/errors';
import { isoOrNull, santiagoDateOf } from '../../../shared/format';
import { can, type Holder } from '../../../shared/permissions';
import { pick } from '../../../shared/pick';
import { rejectionComment } from '../../../shared/schemas/approvals';
import type { SaleFlowStage, SaleFlowTask } from '../../../shared/schemas/sale-flows';
import type {
  CommandAllowance,
  FlowCommandsView,
  FlowStateView,
  FlowTaskCommentView,
  TaskCommandsView,
} from '../../../shared/schemas/workflows';
import type { ReadContext, ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { newRowId } from '../../db/ids';
import type { EventBus } from '../../events/event-bus';
import { AppError } from '../../http/app-error';
import * as brokerInvoices from '../broker-invoices/broker-invoices.service';
import * as buyerAccounts from '../buyer-accounts/buyer-accounts.service';
import * as commissions from '../commissions/commissions.service';
import * as documents from '../documents/documents.service';
import * as mail from '../mail/mail.service';
import * as queries from './workflows.queries';

/**
 * The only code that writes flow rows (DESIGN §10). Per command, in one transaction: lock the flow
 * row, load its definition and state, apply the pure engine, persist the changes set-based, and
 * hand the events on — the commission's payment date inside the transaction, live updates after
 * the commit.
 */

export type { FlowRow } from './workflows.queries';
export {
  countPendingTasks,
  countPendingTasksAndMentions,
  currentTaskOf,
  listActiveUserIds,
  pendingTaskRowsOf,
  pendingTasksOf,
} from './workflows.queries';

export interface FlowSubject {
  reservationId: string;
  /** Payment flows belong to the reservation's broker commission. */
  brokerCommissionId?: string | null;
  isSecondPayment?: boolean;
}

/** Definitions already read, by name: an import reads each once for all its chunks. */
export type DefinitionCache = Map<string, WorkflowDefinition>;

export async function definitionNamed(
  db: Executor,
  name: string,
  cache?: DefinitionCache,
): Promise<WorkflowDefinition> {
  const cached = cache?.get(name);
  if (cached) return cached;
  const definition = await queries.findDefinition(db, { name });
  if (!definition) throw new Error(`The workflow definition '${name}' is missing`);
  cache?.set(name, definition);
  return definition;
}

/**
 * Creates a flow of the named workflow inside the caller's transaction (a reservation's sale flow,
 * a commission's payment flow). The one-per-subject unique indexes refuse a duplicate.
 */
export async function createFlow(
  tx: Executor,
  input: FlowSubject & {
    workflowName: string;
    sellerId?: string | null;
    actorId: string | null;
    now: Date;
    /** False for bulk loads (imports, set-up scripts): nobody is e-mailed about history. */
    notices?: boolean;
  },
): Promise<CreatedFlow> {
  const definition = await definitionNamed(tx, input.workflowName);
  const { state, events } = instantiate(definition, {
    flowId: newRowId(),
    now: input.now,
    actorId: input.actorId,
    sellerId: input.sellerId ?? null,
    newId: newRowId,
  });
  await queries.insertFlow(tx, {
    state,
    workflowId: definition.id,
    kind: definition.kind,
    reservationId: input.reservationId,
    brokerCommissionId: input.brokerCommissionId ?? null,
    isSecondPayment: input.isSecondPayment ?? false,
    actorId: input.actorId,
    now: input.now,
  });
  if (input.notices !== false) {
    await mail.recordFlowNoticesIn(
      tx,
      noticesOf(definition, definition.kind, null, state, events, input.actorId),
      input.now,
    );
  }
  const affectedUserIds = [...new Set(state.tasks.flatMap((task) => task.assignees.map((a) => a.userId)))];
  return { flow: { id: state.id, reservationId: input.reservationId }, state, events, affectedUserIds };
}

export interface CreatedFlow {
  flow: { id: string; reservationId: string };
  state: FlowState;
  events: FlowEvent[];
  affectedUserIds: string[];
}

export interface CommandOutcome {
  flow: queries.FlowRow;
  definition: WorkflowDefinition;
  before: FlowState;
  state: FlowState;
  /** Every task row's version after the command (a changed row is one version further). */
  versions: Map<string, number>;
  events: FlowEvent[];
  /** Users whose pending tasks may have changed (told after the commit). */
  affectedUserIds: string[];
}

export interface CommandOptions {
  /** The version of the task row the user read: a stale one is refused with 409. */
  taskVersion?: number;
  /** The kind the screen speaks of: a flow of the other kind answers 404, as an unknown one. */
  kind?: WorkflowKind;
  /**
   * False for bulk loads (imports of historical flows, set-up scripts): the command writes no e-mail
   * notices (decision 0035). Every command of a user tells the people it concerns.
   */
  notices?: boolean;
}

/**
 * Runs one command inside the caller's transaction: lock, load, apply, persist, payment date.
 * Refusals throw the engine's error code and change nothing.
 */
export function runCommandIn(
  tx: Executor,
  actor: ActingUser,
  now: Date,
  flowId: string,
  command: FlowCommand,
  options: CommandOptions = {},
): Promise<CommandOutcome> {
  return runCommandsIn(tx, actor, now, flowId, () => [command], options);
}

/**
 * Several commands on one flow as one change (one lock, one load, one write): `plan` sees the
 * definition and the state and returns the commands, applied in order; any refusal refuses all.
 */
export async function runCommandsIn(
  tx: Executor,
  actor: ActingUser,
  now: Date,
  flowId: string,
  plan: (definition: WorkflowDefinition, state: FlowState) => FlowCommand[],
  options: CommandOptions = {},
): Promise<CommandOutcome> {
  const flow = await queries.lockFlow(tx, flowId);
  if (!flow || (options.kind && flow.kind !== options.kind)) throw new AppError('FLOW_NOT_FOUND');
  const definition = await queries.findDefinition(tx, { id: flow.workflowId });
  if (!definition) throw new Error(`The workflow ${flow.workflowId} of flow ${flow.id} is missing`);
  const { state: before, versions } = await queries.findFlowState(tx, flow);
  const commands = plan(definition, before);
  const engineActor = engineActorOf(actor);
  let state = before;
  const events: FlowEvent[] = [];
  for (const command of commands) {
    if (command.type === 'assign') await requireAssignableUser(tx, command.userId);
    const result = apply(definition, state, command, {
      actor: engineActor,
      now,
      subjectClosed: flow.subjectClosed,
    });
    // A refusal that holds whatever the user read comes first: a non-administrator acting on a task
    // completed meanwhile hears that only administrators may change it (spec part 2 §8), not 409.
    if (!result.ok) throw new AppError(result.refusal);
    if (options.taskVersion !== undefined && 'taskRowId' in command) {
      const current = versions.get(command.taskRowId);
      if (current === undefined) throw new AppError('TASK_NOT_FOUND');
      if (current !== options.taskVersion) throw new AppError('STALE_VERSION');
    }
    state = result.state;
    events.push(...result.events);
  }
  await requireDocumentsOf(tx, flow, state, events);
  await requirePieOf(tx, flow, definition, state, events);
  const changes = diffFlow(before, state);
  await queries.applyChanges(tx, flow.id, changes, actor.id);
  await handOnInTransaction(tx, flow, events, actor.id);
  // The e-mails this change causes, in its transaction: a rollback sends nothing (decision 0035).
  if (options.notices !== false) {
    await mail.recordFlowNoticesIn(
      tx,
      noticesOf(definition, flow.kind, before, state, events, actor.id),
      now,
    );
  }
  // applyChanges steps each changed task row one version (under the flow's lock, nobody else did).
  const after = new Map(versions);
  for (const task of changes.tasks) after.set(task.id, (versions.get(task.id) ?? 1) + 1);
  return {
    flow,
    definition,
    before,
    state,
    versions: after,
    events,
    affectedUserIds: affectedUsers(before, state),
  };
}

/**
 * The checklist (issue 35) and the broker's invoice (issue 33): a task completed by these commands — by its status, an approval, or as
 * the last task of a payment batch — whose definition requires a document type the reservation has
 * none of is refused, naming the document. Document types and what requires them are data
 * (Configuración → Documentos); reading them here, under the flow's lock, puts the rule in the one
 * path every flow command takes.
 */
async function requireDocumentsOf(
  tx: Executor,
  flow: queries.FlowRow,
  state: FlowState,
  events: readonly FlowEvent[],
) {
  const completedRows = new Set(
    events.flatMap((event) => (event.type === 'taskCompleted' ? [event.taskRowId] : [])),
  );
  if (completedRows.size === 0) return;
  const taskIds = state.tasks.filter((task) => completedRows.has(task.id)).map((task) => task.taskId);
  const missing = await documents.missingDocumentIn(tx, flow.reservationId, taskIds);
  if (missing !== null) throw new AppError('TASK_DOCUMENT_MISSING', { params: { document: missing } });
  // The broker's invoice (decision 0039): recorded and matching the payment, or its difference
  // accepted by an administrator, before the task that receives it completes. The paper first.
  await brokerInvoices.requireInvoicesIn(tx, [...completedRows]);
}

/**
 * The buyer's account (issue 60, decision 0074): 'PENDIENTE CARTA PIE' of a sale flow completes only
 * when the reservation's plan has its pie paid, or an administrator released it with a reason — asked
 * here, under the flow's lock, on the one path every completion takes (a status, a batch, an import).
 */
async function requirePieOf(
  tx: Executor,
  flow: queries.FlowRow,
  definition: WorkflowDefinition,
  state: FlowState,
  events: readonly FlowEvent[],
) {
  if (flow.kind !== 'sale') return;
  const pieTaskIds = new Set(
    definition.tasks.filter((task) => task.name === PIE_LETTER_TASK).map((task) => task.id),
  );
  if (pieTaskIds.size === 0) return;
  const completesPie = events.some(
    (event) =>
      event.type === 'taskCompleted' &&
      state.tasks.some((task) => task.id === event.taskRowId && pieTaskIds.has(task.taskId)),
  );
  if (completesPie) await buyerAccounts.requirePieSettledIn(tx, flow.reservationId);
}

/** What a flow's events change beyond the flow, in the same transaction. */
async function handOnInTransaction(
  tx: Executor,
  flow: queries.FlowRow,
  events: FlowEvent[],
  actorId: string,
) {
  const payment = flow.kind === 'payment' && flow.brokerCommissionId ? (flow.isSecondPayment ? 2 : 1) : null;
  for (const event of events) {
    // A payment flow's completion dates the commission's payment (workflows.md §3); a flow that stops
    // being complete (a task reopened) leaves the payment without a date, so no figure counts it paid.
    if (event.type === 'flowCompleted' && payment) {
      await commissions.recordPaymentDate(
        tx,
        flow.brokerCommissionId!,
        payment,
        santiagoDateOf(event.at),
        actorId,
      );
    }
    if (event.type === 'flowReopened' && payment) {
      await commissions.recordPaymentDate(tx, flow.brokerCommissionId!, payment, null, actorId);
    }
    // A rejection is a row of its own, and the 'RECHAZO: {reason}' comment workflows.md §4 asks for.
    if (event.type === 'taskRejected') {
      await queries.insertRejection(tx, {
        flowTaskId: event.taskRowId,
        flowId: flow.id,
        rejectedBy: event.by,
        rejectedAt: event.at,
        reason: event.reason,
      });
      await queries.insertComment(tx, {
        flowTaskId: event.taskRowId,
        userId: event.by,
        content: rejectionComment(event.reason),
        mentionedUserIds: [],
      });
    }
  }
}

/** Tells the affected users' open tabs, after the commit (DESIGN §12). */
export function publishOutcome(
  events: EventBus,
  outcome: { flow: { id: string; reservationId: string }; affectedUserIds: string[]; events: FlowEvent[] },
) {
  if (outcome.events.length === 0) return;
  events.publish({
    type: 'flow-changed',
    flowId: outcome.flow.id,
    reservationId: outcome.flow.reservationId,
    userIds: outcome.affectedUserIds,
  });
}

/** One command in its own transaction, then the live update. */
export async function runCommand(
  ctx: ServiceContext,
  flowId: string,
  command: FlowCommand,
  options: CommandOptions = {},
): Promise<CommandOutcome> {
  const outcome = await ctx.db.transaction((tx) =>
    runCommandIn(tx, ctx.user, ctx.now, flowId, command, options),
  );
  publishOutcome(ctx.events, outcome);
  return outcome;
}

/** A flow with its definition and state, read without a lock (screens, tests). */
export async function readFlow(
  db: Executor,
  flowId: string,
): Promise<{
  flow: queries.FlowRow;
  definition: WorkflowDefinition;
  state: FlowState;
  versions: Map<string, number>;
}> {
  const flow = await queries.findFlow(db, flowId);
  if (!flow) throw new AppError('FLOW_NOT_FOUND');
  // Two reads at once (a pool runs them side by side on PostgreSQL).
  const [definition, { state, versions }] = await Promise.all([
    queries.findDefinition(db, { id: flow.workflowId }),
    queries.findFlowState(db, flow),
  ]);
  if (!definition) throw new Error(`The workflow ${flow.workflowId} of flow ${flow.id} is missing`);
  return { flow, definition, state, versions };
}

/** A flow as its screen reads it: the engine's view plus comment counts and the people it names. */
export interface FlowScreen {
  flow: queries.FlowRow;
  definition: WorkflowDefinition;
  state: FlowState;
  versions: Map<string, number>;
  extras: queries.TaskExtras;
}

/** The flow's row, definition, state and extras; `header` (the screen's own statement) read alongside. */
export async function readFlowScreen<Header>(
  db: Executor,
  flowId: string,
  header: (db: Executor, flowId: string) => Promise<Header>,
): Promise<FlowScreen & { header: Header }> {
  // Everything read at once: each read needs only the flow's id.
  const [flowRead, headerRow, extras] = await Promise.all([
    readFlow(db, flowId),
    header(db, flowId),
    queries.findTaskExtras(db, flowId),
  ]);
  return { ...flowRead, header: headerRow, extras };
}

type Viewer = ActingUser;

/** A refusal code (or null) as a screen receives it. */
export const allowance = (refusal: ErrorCode | null): CommandAllowance => ({
  allowed: refusal === null,
  reason: refusal === null ? null : errorMessage(refusal),
});

/** The engine's actor: the two flow powers the catalogue gives this user. */
function engineActorOf(user: ActingUser) {
  return {
    id: user.id,
    administersFlows: can(user, 'flows.administer'),
    startsPayments: can(user, 'payments.start'),
  };
}

/** What the engine's authority allows the viewer on the flow, for the screens to render (issue 26). */
export function commandsOf(screen: Pick<FlowScreen, 'flow' | 'definition' | 'state'>, viewer: Viewer) {
  return allowedCommands(screen.definition, screen.state, {
    actor: engineActorOf(viewer),
    subjectClosed: screen.flow.subjectClosed,
  });
}

/**
 * Whether a completion the viewer gives — a status, an approval — is theirs to give once: the
 * authority's `mayChangeCompletedTasks`, for screens that hold no flow's state (the approvals list).
 */
export function isCompletionFinalFor(viewer: Viewer): boolean {
  return !mayChangeCompletedTasks(engineActorOf(viewer));
}

/** One task's commands as the screens receive them: each allowed or not, and why not in Spanish. */
export function taskCommandsView(
  allowed: FlowCommandsAllowed,
  task: Pick<TaskState, 'id' | 'status'>,
): TaskCommandsView {
  const commands = allowed.tasks.get(task.id)!;
  const changes = TASK_STATUSES.filter(
    (status) => status !== task.status && commands.statuses[status] === null,
  );
  // The select's hint: why its status cannot change (what completing would answer says it best).
  const refusals = TASK_STATUSES.filter((status) => status !== task.status).map((s) => commands.statuses[s]);
  const statusRefusal =
    (task.status === 'completed' ? null : commands.statuses.completed) ?? refusals.find(Boolean) ?? null;
  return {
    statuses: changes.length > 0 ? [task.status, ...changes] : [],
    status: allowance(changes.length > 0 ? null : statusRefusal),
    assign: allowance(commands.assign),
    editDates: allowance(commands.editDates),
    comment: allowance(commands.comment),
    approve: allowance(commands.approve),
    reject: allowance(commands.reject),
    irreversible: commands.irreversible,
  };
}

/** The flow-wide commands of a screen: 'Proceder con Pago', the flow's dates, deleting comments. */
export function flowCommandsView(
  screen: Pick<FlowScreen, 'flow' | 'definition' | 'state'>,
  viewer: Viewer,
): FlowCommandsView {
  const allowed = commandsOf(screen, viewer);
  return {
    start: allowance(allowed.start),
    editDates: allowance(allowed.editDates),
    deleteComments: allowance(can(viewer, 'comments.delete') ? null : 'FORBIDDEN'),
    singleAssignee: screen.definition.singleAssignee,
  };
}

/**
 * The stages in order, each with its tasks as both flow screens show them: assignees as people,
 * comment counts, days managed and late on the Santiago calendar, the version a command sends back,
 * what the viewer may do on each task and, while an approval stands rejected, its rejection.
 * `extend` adds what one screen shows beyond that (a payment task's default assignee).
 */
export function stagesView<Extra extends object = Record<never, never>>(
  screen: FlowScreen,
  viewer: Viewer,
  now: Date,
  extend: (task: FlowState['tasks'][number], definition: WorkflowDefinition['tasks'][number]) => Extra = () =>
    ({}) as Extra,
): (Omit<SaleFlowStage, 'tasks'> & { tasks: (SaleFlowTask & Extra)[] })[] {
  const { definition, state, versions, extras } = screen;
  const allowed = commandsOf(screen, viewer);
  const people = new Map(extras.people.map((person) => [person.id, person]));
  const rejections = new Map(extras.rejections.map((rejection) => [rejection.taskRowId, rejection]));
  const taskDefinitions = new Map(definition.tasks.map((task) => [task.id, task]));
  return definition.stages.map((stage) => ({
    id: stage.id,
    name: stage.name,
    order: stage.order,
    isComplete: isStageComplete(definition, state.tasks, stage.id),
    tasks: state.tasks
      .filter((task) => taskDefinitions.get(task.taskId)?.stageId === stage.id)
      .map((task) => {
        const taskDefinition = taskDefinitions.get(task.taskId)!;
        const rejection = task.status === 'blocked' ? rejections.get(task.id) : undefined;
        const rejectedBy = rejection?.rejectedBy ? people.get(rejection.rejectedBy) : undefined;
        return {
          id: task.id,
          taskId: task.taskId,
          name: taskDefinition.name,
          status: task.status,
          startedAt: isoOrNull(task.startedAt),
          completedAt: isoOrNull(task.completedAt),
          daysManaged: task.startedAt ? santiagoDaysBetween(task.startedAt, task.completedAt ?? now) : null,
          daysToComplete: task.daysToComplete,
          daysLate: daysLate(task, now),
          assignees: task.assignees.flatMap((assignee) => {
            const person = people.get(assignee.userId);
            return person ? [person] : [];
          }),
          commentCount: extras.commentCounts[task.id] ?? 0,
          version: versions.get(task.id) ?? 1,
          commands: taskCommandsView(allowed, task),
          rejection: rejection
            ? {
                by: rejectedBy ? pick(rejectedBy, ['id', 'firstName', 'lastName', 'avatarUrl']) : null,
                at: rejection.rejectedAt,
                reason: rejection.reason,
              }
            : null,
          // What completing it needs and the reservation lacks: said before anyone confirms (issue 57).
          requires: task.status === 'completed' ? [] : (extras.missingDocuments[task.taskId] ?? []),
          ...extend(task, taskDefinition),
        };
      }),
  }));
}

/** The flow a task row belongs to (commands addressed by task). */
export async function flowIdOfTask(db: Executor, taskRowId: string): Promise<string> {
  const flowId = await queries.flowIdOfTask(db, taskRowId);
  if (!flowId) throw new AppError('TASK_NOT_FOUND');
  return flowId;
}

// --- What the flow screens call ------------------------------------------------------------

/** 404 unless the flow exists and is of the kind the URL speaks of (a sale flow is no payment flow). */
export async function requireFlowOfKind(
  db: Executor,
  flowId: string,
  kind: WorkflowKind,
): Promise<queries.FlowRow> {
  const flow = await queries.findFlow(db, flowId);
  if (!flow || flow.kind !== kind) throw new AppError('FLOW_NOT_FOUND');
  return flow;
}

/** The flow's state as the screens read it (every task with its assignees and version). */
export async function flowStateView(db: Executor, flowId: string): Promise<FlowStateView> {
  const { flow, state, versions } = await readFlow(db, flowId);
  return stateView(flow.id, state, versions);
}

function stateView(flowId: string, state: FlowState, versions: Map<string, number>): FlowStateView {
  return {
    id: flowId,
    status: state.status,
    currentStageId: state.currentStageId,
    startedAt: isoOrNull(state.startedAt),
    completedAt: isoOrNull(state.completedAt),
    progress: progressOf(state.tasks),
    tasks: state.tasks.map((task) => ({
      id: task.id,
      taskId: task.taskId,
      status: task.status,
      startedAt: isoOrNull(task.startedAt),
      completedAt: isoOrNull(task.completedAt),
      completedBy: task.completedBy,
      daysToComplete: task.daysToComplete,
      assigneeIds: task.assignees.map((assignee) => assignee.userId),
      version: versions.get(task.id) ?? 1,
    })),
  };
}

/**
 * A command from a flow screen: the flow must be of the screen's kind (checked under the lock); answers
 * the new state as the command left it (no second read).
 */
export async function runFlowCommand(
  ctx: ServiceContext,
  kind: WorkflowKind,
  flowId: string,
  command: FlowCommand,
  options: CommandOptions = {},
): Promise<{ flow: FlowStateView }> {
  const outcome = await runCommand(ctx, flowId, command, { ...options, kind });
  return { flow: stateView(outcome.flow.id, outcome.state, outcome.versions) };
}

// --- Comments --------------------------------------------------------------------------------

/**
 * A comment on a task, with the users it mentions (spec part 2 §3). The engine decides whether the
 * task may get comments now (never while its payment flow is pending, nor once cancelled).
 */
export async function addComment(
  ctx: ServiceContext,
  kind: WorkflowKind,
  flowId: string,
  taskRowId: string,
  input: { content: string; mentionedUserIds?: readonly string[] },
): Promise<{ commentId: string }> {
  await requireFlowOfKind(ctx.db, flowId, kind);
  const outcome = await ctx.db.transaction((tx) =>
    runCommandsWithCommentIn(tx, ctx.user, ctx.now, flowId, () => [], { taskRowId, ...input }),
  );
  // Open screens of the flow see the new comment; the mentioned users' bell and inbox count it.
  publishOutcome(ctx.events, outcome);
  return { commentId: outcome.commentId };
}

export interface CommentInput {
  taskRowId: string;
  content: string;
  mentionedUserIds?: readonly string[];
}

/**
 * Commands on one flow and a comment by the actor on one of its tasks, as one change inside the
 * caller's transaction (an approval's rejection: the task blocked and 'RECHAZO: …' written, or
 * neither). One lock and one load: the engine checks that the task may get the comment in the state
 * the commands leave; any refusal, or a failed write, refuses all. The mentioned users are among the
 * affected ones: their inbox of mentions and their bell change (decision 0030).
 */
export async function runCommandsWithCommentIn(
  tx: Executor,
  actor: ActingUser,
  now: Date,
  flowId: string,
  plan: (definition: WorkflowDefinition, state: FlowState) => FlowCommand[],
  comment: CommentInput,
  options: CommandOptions = {},
): Promise<CommandOutcome & { commentId: string }> {
  const mentioned = [...new Set(comment.mentionedUserIds ?? [])];
  const outcome = await runCommandsIn(
    tx,
    actor,
    now,
    flowId,
    (definition, state) => [...plan(definition, state), { type: 'comment', taskRowId: comment.taskRowId }],
    options,
  );
  const active = await queries.listActiveUserIds(tx, mentioned);
  if (mentioned.some((id) => !active.has(id))) throw new AppError('USER_NOT_AVAILABLE');
  const commentId = await queries.insertComment(tx, {
    flowTaskId: comment.taskRowId,
    userId: actor.id,
    content: comment.content,
    mentionedUserIds: mentioned,
  });
  if (options.notices !== false && mentioned.length > 0) {
    await mail.recordMentionsIn(
      tx,
      { commentId, taskRowId: comment.taskRowId, by: actor.id, userIds: mentioned },
      now,
    );
  }
  const affectedUserIds = [...new Set([...outcome.affectedUserIds, ...mentioned])];
  return { ...outcome, affectedUserIds, commentId };
}

/** A task's comments with their authors and mentions, oldest first; 404 when the task is not the flow's. */
export async function listComments(
  ctx: ReadContext,
  kind: WorkflowKind,
  flowId: string,
  taskRowId: string,
): Promise<FlowTaskCommentView[]> {
  await requireFlowOfKind(ctx.db, flowId, kind);
  const comments = await queries.commentsOf(ctx.db, flowId, taskRowId);
  if (comments === null) throw new AppError('TASK_NOT_FOUND');
  return comments;
}

/**
 * Administrators delete comments (spec part 2 §6); the comment must belong to the flow. Its mentions
 * go with it (the foreign key cascades): the mentioned users' inbox and bell are told.
 */
export async function deleteComment(
  ctx: ServiceContext,
  kind: WorkflowKind,
  flowId: string,
  commentId: string,
): Promise<void> {
  if (!can(ctx.user, 'comments.delete')) throw new AppError('FORBIDDEN');
  const { flow, comment } = await ctx.db.transaction(async (tx) => {
    const flow = await queries.lockFlow(tx, flowId);
    if (!flow || flow.kind !== kind) throw new AppError('FLOW_NOT_FOUND');
    const comment = await queries.findComment(tx, commentId);
    if (!comment || comment.flowId !== flowId) throw new AppError('COMMENT_NOT_FOUND');
    await queries.deleteComment(tx, commentId);
    return { flow, comment };
  });
  ctx.events.publish({
    type: 'flow-changed',
    flowId: flow.id,
    reservationId: flow.reservationId,
    userIds: comment.mentionedUserIds,
  });
}

// --- The mentions inbox (decision 0030) ---------------------------------------------------------

/**
 * The signed-in user marks their mention in a comment read, in a transaction of its own; null when
 * they have none there (another user's mention is not theirs to mark). A read mark is no business
 * change: the audit leaves it out (migration 0024).
 */
export function markMentionRead(ctx: ServiceContext, commentId: string): Promise<{ readAt: string } | null> {
  return ctx.db.transaction((tx) => queries.updateMentionRead(tx, ctx.user.id, commentId, ctx.now));
}

/** The signed-in user marks every unread mention of theirs read; answers how many were unread. */
export function markAllMentionsRead(ctx: ServiceContext): Promise<number> {
  return ctx.db.transaction((tx) => queries.updateAllMentionsRead(tx, ctx.user.id, ctx.now));
}

/** Checks that a user may receive a task (exists, active) before an assignment. */
export async function requireAssignableUser(db: Executor, userId: string): Promise<void> {
  const active = await queries.listActiveUserIds(db, [userId]);
  if (!active.has(userId)) throw new AppError('USER_NOT_AVAILABLE');
}

/**
 * A reservation's seller changed: the new seller takes over the tasks flagged assign-to-seller that
 * are not completed (completed tasks keep no assignees), in the caller's transaction.
 */
export async function handOverSellerTasks(
  tx: Executor,
  actor: ActingUser,
  now: Date,
  reservationId: string,
  fromUserId: string | null,
  toUserId: string | null,
): Promise<CommandOutcome | null> {
  const saleFlow = (await queries.flowsOfReservation(tx, reservationId)).find((flow) => flow.kind === 'sale');
  if (!saleFlow || saleFlow.status === 'cancelled' || saleFlow.status === 'pending') return null;
  return runCommandsIn(tx, actor, now, saleFlow.id, (definition, state) => {
    const sellerTaskIds = new Set(
      definition.tasks.filter((task) => task.assignToSeller).map((task) => task.id),
    );
    return state.tasks
      .filter((task) => sellerTaskIds.has(task.taskId) && task.status !== 'completed')
      .flatMap((task): FlowCommand[] => [
        ...(fromUserId ? [{ type: 'unassign' as const, taskRowId: task.id, userId: fromUserId }] : []),
        ...(toUserId ? [{ type: 'assign' as const, taskRowId: task.id, userId: toUserId }] : []),
      ]);
  });
}

export { findDefinition, findFlow, flowsOfReservation, paymentFlowOf } from './workflows.queries';

// --- Holders' data rights (decision 0027) ---------------------------------------------------------------

export function flowIdsOfReservations(db: Executor, reservationIds: readonly string[]): Promise<string[]> {
  return queries.flowIdsOfReservations(db, reservationIds);
}

/**
 * Inside a suppression's transaction: every comment that names the holder rewritten, their words
 * replaced by '[titular suprimido]' — any of their values on their own flows, what names them
 * unambiguously elsewhere (`shared/domain/privacy.ts`). Comments are flow rows: written here only.
 * Answers how many changed.
 */
export async function redactCommentsIn(
  tx: Executor,
  holder: { flowIds: readonly string[]; ownNeedles: readonly string[]; globalNeedles: readonly string[] },
): Promise<number> {
  const candidates = await queries.listCommentsNaming(
    tx,
    holder.flowIds,
    holder.globalNeedles.map(needlePattern),
  );
  let changed = 0;
  for (const comment of candidates) {
    const redacted = redactText(comment.content, comment.ownFlow ? holder.ownNeedles : holder.globalNeedles);
    if (!redacted.changed) continue;
    await queries.updateCommentContent(tx, comment.id, redacted.text);
    changed += 1;
  }
  // A rejection's reason is staff's words too (issue 54: every store covered).
  const rejections = await queries.listRejectionsNaming(
    tx,
    holder.flowIds,
    holder.globalNeedles.map(needlePattern),
  );
  for (const rejection of rejections) {
    const redacted = redactText(
      rejection.reason,
      rejection.ownFlow ? holder.ownNeedles : holder.globalNeedles,
    );
    if (!redacted.changed) continue;
    await queries.updateRejectionReason(tx, rejection.id, redacted.text);
    changed += 1;
  }
  return changed;
}

/** A flow the generator drove through the engine, with what its row records beyond the state. */
export interface GeneratedFlow {
  state: FlowState;
  record: {
    workflowId: string;
    kind: 'sale' | 'payment';
    reservationId: string;
    brokerCommissionId: string | null;
    isSecondPayment: boolean;
    /** Epoch milliseconds. */
    createdAt: number;
    createdBy: string;
  };
}

/**
 * The demo and bench generator's flows, written in the caller's transaction (issue 29: this module is
 * the only writer of flow rows). A bulk load of history: it writes no e-mail notices (decision 0035). The flows were made by the engine (`instantiate`, `apply`); they are
 * written as the engine left them, in set-based batches — 100,000 reservations take minutes, not
 * hours of commands one by one.
 */
export async function loadGeneratedFlowsIn(
  tx: Executor,
  flows: readonly GeneratedFlow[],
): Promise<{ flows: number; tasks: number; assignees: number }> {
  const tasks = await queries.insertFlowBatch(
    tx,
    flows.map(({ state, record }) => {
      const last = [state.completedAt, state.startedAt, ...state.tasks.map((task) => task.completedAt)]
        .filter((date): date is Date => date !== null)
        .reduce((max, date) => Math.max(max, date.getTime()), record.createdAt);
      return {
        id: state.id,
        workflowId: record.workflowId,
        kind: record.kind,
        reservationId: record.reservationId,
        brokerCommissionId: record.brokerCommissionId,
        isSecondPayment: record.isSecondPayment,
        currentStageId: state.currentStageId,
        status: state.status,
        startedAt: isoOrNull(state.startedAt),
        completedAt: isoOrNull(state.completedAt),
        createdBy: record.createdBy,
        createdAt: new Date(record.createdAt).toISOString(),
        updatedAt: new Date(last).toISOString(),
        tasks: state.tasks.map((task) => ({
          id: task.id,
          taskId: task.taskId,
          status: task.status,
          startedAt: isoOrNull(task.startedAt),
          completedAt: isoOrNull(task.completedAt),
          completedBy: task.completedBy,
          daysToComplete: task.daysToComplete,
        })),
      };
    }),
  );
  const assignees = flows.flatMap(({ state }) =>
    state.tasks.flatMap((task) =>
      task.assignees.map((assignee) => ({
        flowTaskId: task.id,
        flowId: state.id,
        userId: assignee.userId,
        assignedBy: assignee.assignedBy,
        assignedAt: assignee.assignedAt.toISOString(),
      })),
    ),
  );
  await queries.insertAssigneeBatch(tx, assignees);
  return { flows: flows.length, tasks, assignees: assignees.length };
}

/** The generator's comments on task rows it wrote, in the caller's transaction. */
export function loadGeneratedCommentsIn(
  tx: Executor,
  comments: readonly { flowTaskId: string; userId: string; content: string; createdAt: string }[],
): Promise<void> {
  return queries.insertCommentBatch(tx, comments);
}

// --- Imports (issue 32, decision 0033) -------------------------------------------------------------------

/** A flow an import brings in mid-way: created, then its tasks completed at the imported instants. */
export interface ImportedFlowSpec {
  workflowName: string;
  reservationId: string;
  brokerCommissionId?: string | null;
  isSecondPayment?: boolean;
  sellerId?: string | null;
  /** When the flow was created (a sale flow: the reservation's day; a payment flow: its start). */
  createdAt: Date;
  /** Payment flows: 'Proceder con Pago' at this instant. */
  startedAt?: Date | null;
  /** Definition task ids completed, each at its instant, in flow order. */
  completions: readonly { taskId: string; at: Date }[];
}

/**
 * Inside an import's transaction: flows created by the engine and moved with the imported dates — the
 * same `instantiate` and `apply` as every command, by the importing administrator, each flow checked
 * against the engine's invariants (strictly) before it is written, set-based. The caller records the
 * payment dates itself (its rows carry them). `cache`: the definitions the import already read (one
 * apply reads each once). Answers the flow ids, in the order given.
 */
export async function importFlowsIn(
  tx: Executor,
  actor: { id: string },
  specs: readonly ImportedFlowSpec[],
  cache?: DefinitionCache,
): Promise<string[]> {
  if (specs.length === 0) return [];
  const definitions = new Map<string, WorkflowDefinition>();
  for (const name of new Set(specs.map((spec) => spec.workflowName))) {
    definitions.set(name, await definitionNamed(tx, name, cache));
  }
  const engineActor = { id: actor.id, administersFlows: true, startsPayments: true };
  const generated: GeneratedFlow[] = specs.map((spec) => {
    const definition = definitions.get(spec.workflowName)!;
    let state = instantiate(definition, {
      flowId: newRowId(),
      now: spec.createdAt,
      actorId: actor.id,
      sellerId: spec.sellerId ?? null,
      newId: newRowId,
    }).state;
    const run = (command: FlowCommand, now: Date) => {
      const result = apply(definition, state, command, { actor: engineActor, now });
      if (!result.ok) throw new AppError(result.refusal);
      state = result.state;
    };
    if (spec.startedAt) run({ type: 'start' }, spec.startedAt);
    for (const completion of spec.completions) {
      const row = state.tasks.find((task) => task.taskId === completion.taskId);
      if (!row) throw new Error(`Task ${completion.taskId} is not part of '${definition.name}'`);
      run(
        { type: 'setStatus', taskRowId: row.id, status: 'completed', completedAt: completion.at },
        completion.at,
      );
    }
    const problems = flowViolations(definition, state, { strict: true });
    if (problems.length > 0)
      throw new Error(`An imported flow breaks the engine's invariants: ${problems.join('; ')}`);
    return {
      state,
      record: {
        workflowId: definition.id,
        kind: definition.kind,
        reservationId: spec.reservationId,
        brokerCommissionId: spec.brokerCommissionId ?? null,
        isSecondPayment: spec.isSecondPayment ?? false,
        createdAt: spec.createdAt.getTime(),
        createdBy: actor.id,
      },
    };
  });
  await loadGeneratedFlowsIn(tx, generated);
  return generated.map((flow) => flow.state.id);
}

/** Who gives a command or reads a flow: a user with the actions the catalogue gives them. */
export type ActingUser = Holder & { id: string };

/** The sale flow's state of each reservation (its stage reached), for an import's comparison. */
export async function saleFlowStatesOf(
  db: Executor,
  reservationIds: readonly string[],
): Promise<Map<string, { status: string; currentStageName: string | null }>> {
  return queries.saleFlowStatesOf(db, reservationIds);
}
