/**
 * The generator's flows, made by the workflow engine (issue 9): each flow is instantiated and moved
 * by the same pure engine the server runs (`src/shared/domain/workflow`), with the commands a real
 * team would have sent at the instants of its story (start, completions, assignments, rescission),
 * and only then written — in batches, set-based, so 100,000 reservations stay a matter of minutes.
 *
 * The story of a flow is a timeline: a sale flow's stages run between boundaries (Reserva in days,
 * Promesa in weeks, Escrituración until the project's delivery, Reparos in days), its tasks completed
 * evenly within their stage; a payment flow runs from its start over a span, each task completed in
 * flow order at its share of the span (flow order is topological, so prerequisites come first).
 */
import { createHash } from 'node:crypto';
import type { Executor } from '../src/server/db/client';
import { loadGeneratedFlowsIn } from '../src/server/features/workflows/workflows.service';
import { apply, instantiate } from '../src/shared/domain/workflow/engine';
import { flowViolations } from '../src/shared/domain/workflow/invariants';
import type { Actor, FlowCommand, FlowState, WorkflowDefinition } from '../src/shared/domain/workflow/types';

export interface SaleModel {
  definition: WorkflowDefinition;
  /** Per task, in flow order: its stage number (1-based) and its position k of n within the stage. */
  tasks: { stageNo: number; k: number; n: number }[];
  stageCount: number;
}

export function saleModelOf(definition: WorkflowDefinition): SaleModel {
  const stageNo = new Map(definition.stages.map((stage, index) => [stage.id, index + 1]));
  const tasks = definition.tasks.map((task) => ({ stageNo: stageNo.get(task.stageId)!, k: 0, n: 0 }));
  for (const task of tasks) {
    const inStage = tasks.filter((other) => other.stageNo === task.stageNo);
    task.n = inStage.length;
    task.k = inStage.indexOf(task) + 1;
  }
  return { definition, tasks, stageCount: definition.stages.length };
}

/** Completion instant of a sale task: stages run between boundaries b[s-1]..b[s], tasks evenly. */
export function saleTaskTime(model: SaleModel, b: readonly number[], ord: number): number {
  const task = model.tasks[ord - 1]!;
  const lo = b[task.stageNo - 1]!;
  const hi = b[task.stageNo]!;
  return lo + Math.floor(((hi - lo) * task.k) / task.n);
}

/** How many tasks, in flow order, are completed at the cutoff. */
export function saleDone(model: SaleModel, b: readonly number[], cutoff: number): number {
  let done = 0;
  while (done < model.tasks.length && saleTaskTime(model, b, done + 1) <= cutoff) done += 1;
  return done;
}

export interface PaymentModel {
  definition: WorkflowDefinition;
  /** Per task, in flow order: days (at least 1), cumulative days, and its latest prerequisite. */
  tasks: { days: number; cum: number; prereqOrd: number; prereqCum: number }[];
  total: number;
}

export function paymentModelOf(definition: WorkflowDefinition): PaymentModel {
  const ordOf = new Map(definition.tasks.map((task, index) => [task.id, index + 1]));
  let cum = 0;
  const tasks = definition.tasks.map((task) => {
    const days = Math.max(1, task.daysToComplete ?? 1);
    cum += days;
    return { days, cum, prereqOrd: 0, prereqCum: 0 };
  });
  definition.tasks.forEach((task, index) => {
    const ords = task.prerequisiteIds.map((id) => ordOf.get(id)!);
    const prereqOrd = ords.length > 0 ? Math.max(...ords) : 0;
    // The timeline needs flow order to be topological: every prerequisite comes earlier.
    if (prereqOrd > index)
      throw new Error(`Prerequisite of '${task.name}' comes after it in '${definition.name}'`);
    tasks[index]!.prereqOrd = prereqOrd;
    tasks[index]!.prereqCum = prereqOrd === 0 ? 0 : tasks[prereqOrd - 1]!.cum;
  });
  return { definition, tasks, total: cum };
}

export function paymentTime(model: PaymentModel, start: number, span: number, cum: number): number {
  return start + Math.floor((span * cum) / model.total);
}

export function paymentDone(model: PaymentModel, start: number, span: number, cutoff: number): number {
  let done = 0;
  while (done < model.tasks.length && paymentTime(model, start, span, model.tasks[done]!.cum) <= cutoff)
    done += 1;
  return done;
}

/**
 * A task row's id derived from its flow and task (version-4 shaped): the generator's comments and
 * other rows refer to task rows by it without reading them back.
 */
export function flowTaskRowId(flowId: string, taskId: string): string {
  const hex = createHash('md5')
    .update(flowId + taskId)
    .digest('hex')
    .split('');
  hex[12] = '4';
  hex[16] = '8';
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** One flow, driven through the engine command by command; a refusal means the story is wrong. */
export class SimulatedFlow {
  state: FlowState;
  private definition: WorkflowDefinition;

  constructor(
    definition: WorkflowDefinition,
    readonly record: {
      workflowId: string;
      kind: 'sale' | 'payment';
      reservationId: string;
      brokerCommissionId: string | null;
      isSecondPayment: boolean;
      createdAt: number;
      createdBy: string;
    },
    flowId: string,
    sellerId: string | null,
  ) {
    this.definition = definition;
    let index = 0;
    this.state = instantiate(definition, {
      flowId,
      now: new Date(record.createdAt),
      actorId: record.createdBy,
      sellerId,
      newId: () => flowTaskRowId(flowId, definition.tasks[index++]!.id),
    }).state;
  }

  get id(): string {
    return this.state.id;
  }

  /** The definition of later commands (its default assignees as configured at that time). */
  withDefinition(definition: WorkflowDefinition): this {
    this.definition = definition;
    return this;
  }

  run(command: FlowCommand, actor: Actor, at: number): this {
    const result = apply(this.definition, this.state, command, { actor, now: new Date(at) });
    if (!result.ok) {
      throw new Error(
        `The engine refused ${command.type} on flow ${this.state.id} at ${new Date(at).toISOString()}: ${result.refusal}`,
      );
    }
    this.state = result.state;
    return this;
  }

  /** The flow, after checking every invariant of the engine holds (strictly): at every scale. */
  checked(definition: WorkflowDefinition): this {
    const problems = flowViolations(definition, this.state, { strict: true });
    if (problems.length > 0)
      throw new Error(`A generated flow breaks the engine's invariants: ${problems.join('; ')}`);
    return this;
  }

  taskRowId(ord: number): string {
    return this.state.tasks[ord - 1]!.id;
  }

  task(ord: number) {
    return this.state.tasks[ord - 1]!;
  }
}

/**
 * Writes the flows, their task rows and their assignees, in batches, through the workflows module
 * (the only writer of flow rows, issue 29).
 */
export async function writeFlows(
  tx: Executor,
  flows: readonly SimulatedFlow[],
  batchSize: number,
  progress?: (done: number) => void,
): Promise<{ flows: number; tasks: number; assignees: number }> {
  const written = { flows: 0, tasks: 0, assignees: 0 };
  for (let start = 0; start < flows.length; start += batchSize) {
    const batch = await loadGeneratedFlowsIn(tx, flows.slice(start, start + batchSize));
    written.flows += batch.flows;
    written.tasks += batch.tasks;
    written.assignees += batch.assignees;
    progress?.(Math.min(flows.length, start + batchSize));
  }
  return written;
}
