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
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../src/server/db/client';
import { apply, instantiate } from '../src/shared/domain/workflow/engine';
import { flowViolations } from '../src/shared/domain/workflow/invariants';
import type { TaskStatus } from '../src/shared/domain/workflow/statuses';
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
 * A task row's id derived from its flow and task (version-4 shaped): the same formula in SQL
 * (`flowTaskRowIdSql`) and here, so rows written in bulk and rows referencing them agree.
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

function flowTaskRowIdSql(flowId: SQL, taskId: SQL): SQL {
  return sql`overlay(overlay(md5(${flowId}::text || ${taskId}::text) placing '4' from 13) placing '8' from 17)::uuid`;
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

const STATUS_CODES: Record<TaskStatus, string> = {
  pending: 'p',
  in_progress: 'i',
  completed: 'c',
  blocked: 'b',
};

const pgArray = (values: readonly (string | number | null)[]) =>
  `{${values.map((value) => (value === null ? 'NULL' : String(value))).join(',')}}`;

/**
 * Writes the flows, their task rows and their assignees, in batches. Task rows travel compactly (a
 * status letter and three arrays per flow) and are expanded by the database against the definition.
 */
export async function writeFlows(
  tx: Executor,
  flows: readonly SimulatedFlow[],
  /** Every definition the flows instantiate (their task lists expand the compact rows). */
  definitions: readonly WorkflowDefinition[],
  batchSize: number,
  progress?: (done: number) => void,
): Promise<{ flows: number; tasks: number; assignees: number }> {
  const iso = (date: Date | null) => (date === null ? null : date.toISOString());
  const taskDefs = JSON.stringify(
    definitions.flatMap((definition) =>
      definition.tasks.map((task, index) => ({
        workflow_id: definition.id,
        task_id: task.id,
        ord: index + 1,
        days: task.daysToComplete,
      })),
    ),
  );
  let tasks = 0;
  let assignees = 0;
  for (let start = 0; start < flows.length; start += batchSize) {
    const batch = flows.slice(start, start + batchSize);
    const flowRows = batch.map((flow) => {
      const { state, record } = flow;
      const last = [state.completedAt, state.startedAt, ...state.tasks.map((t) => t.completedAt)]
        .filter((d): d is Date => d !== null)
        .reduce((max, d) => Math.max(max, d.getTime()), record.createdAt);
      return {
        id: state.id,
        workflow_id: record.workflowId,
        kind: record.kind,
        reservation_id: record.reservationId,
        broker_commission_id: record.brokerCommissionId,
        is_second_payment: record.isSecondPayment,
        current_stage_id: state.currentStageId,
        status: state.status,
        started_at: iso(state.startedAt),
        completed_at: iso(state.completedAt),
        created_by: record.createdBy,
        created_at: new Date(record.createdAt).toISOString(),
        updated_at: new Date(last).toISOString(),
      };
    });
    await tx.execute(sql`
      insert into flows (id, workflow_id, kind, reservation_id, broker_commission_id, is_second_payment, current_stage_id,
                         status, started_at, completed_at, created_by, updated_by, created_at, updated_at)
      select id, workflow_id, kind, reservation_id, broker_commission_id, is_second_payment, current_stage_id,
             status, started_at, completed_at, created_by, created_by, created_at, updated_at
        from json_to_recordset(${JSON.stringify(flowRows)}::json) as x(
          id uuid, workflow_id uuid, kind text, reservation_id uuid, broker_commission_id uuid, is_second_payment boolean,
          current_stage_id uuid, status text, started_at timestamptz, completed_at timestamptz, created_by uuid,
          created_at timestamptz, updated_at timestamptz)`);
    const taskParams = batch.map((flow) => ({
      flow_id: flow.id,
      workflow_id: flow.record.workflowId,
      created: flow.record.createdAt,
      statuses: flow.state.tasks.map((task) => STATUS_CODES[task.status]).join(''),
      started: pgArray(flow.state.tasks.map((task) => task.startedAt?.getTime() ?? null)),
      completed: pgArray(flow.state.tasks.map((task) => task.completedAt?.getTime() ?? null)),
      completed_by: pgArray(flow.state.tasks.map((task) => task.completedBy)),
    }));
    await tx.execute(sql`
      insert into flow_tasks (id, flow_id, task_id, status, started_at, completed_at, completed_by, days_to_complete,
                              created_at, updated_at)
      select ${flowTaskRowIdSql(sql`p.flow_id`, sql`d.task_id`)}, p.flow_id, d.task_id,
             case substr(p.statuses, d.ord, 1) when 'p' then 'pending' when 'i' then 'in_progress'
                  when 'c' then 'completed' else 'blocked' end,
             to_timestamp(p.started[d.ord] / 1000.0), to_timestamp(p.completed[d.ord] / 1000.0), p.completed_by[d.ord],
             d.days, to_timestamp(p.created / 1000.0),
             to_timestamp(coalesce(p.completed[d.ord], p.started[d.ord], p.created) / 1000.0)
        from json_to_recordset(${JSON.stringify(taskParams)}::json)
               as p(flow_id uuid, workflow_id uuid, created bigint, statuses text, started bigint[], completed bigint[],
                    completed_by uuid[])
        join json_to_recordset(${taskDefs}::json) as d(workflow_id uuid, task_id uuid, ord int, days int)
          on d.workflow_id = p.workflow_id`);
    tasks += batch.reduce((sum, flow) => sum + flow.state.tasks.length, 0);
    const assigneeRows = batch.flatMap((flow) =>
      flow.state.tasks.flatMap((task) =>
        task.assignees.map((assignee) => ({
          flow_task_id: task.id,
          flow_id: flow.id,
          user_id: assignee.userId,
          assigned_by: assignee.assignedBy,
          assigned_at: assignee.assignedAt.toISOString(),
        })),
      ),
    );
    if (assigneeRows.length > 0) {
      await tx.execute(sql`
        insert into flow_task_assignees (flow_task_id, flow_id, user_id, assigned_by, assigned_at)
        select flow_task_id, flow_id, user_id, assigned_by, assigned_at
          from json_to_recordset(${JSON.stringify(assigneeRows)}::json)
                 as x(flow_task_id uuid, flow_id uuid, user_id uuid, assigned_by uuid, assigned_at timestamptz)`);
    }
    assignees += assigneeRows.length;
    progress?.(Math.min(flows.length, start + batchSize));
  }
  return { flows: flows.length, tasks, assignees };
}
