/**
 * What the workflow engine's tests share: small definitions by task names, random definitions and
 * random command sequences for the property tests. Imported by tests only.
 */
import fc from 'fast-check';
import type { TaskStatus } from './statuses';
import type { Actor, FlowCommand, FlowState, TaskDefinition, WorkflowDefinition } from './types';

export const ADMIN: Actor = { id: 'admin', administersFlows: true, startsPayments: true };
export const ANA: Actor = { id: 'ana', administersFlows: false, startsPayments: false };
export const BRUNO: Actor = { id: 'bruno', administersFlows: false, startsPayments: false };
export const T0 = new Date('2026-03-02T12:00:00Z');
export const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

export function idGenerator(prefix: string) {
  let n = 0;
  return () => `${prefix}${++n}`;
}

/** A definition from stages of task names; prerequisites by task name (payment style when given). */
export function definitionOf(
  stages: Record<string, string[]>,
  options: {
    opening?: 'stage' | 'prerequisites';
    prerequisites?: Record<string, string[]>;
    seller?: string[];
    defaults?: Record<string, string[]>;
    singleAssignee?: boolean;
  } = {},
): WorkflowDefinition {
  const opening = options.opening ?? 'stage';
  const tasks: TaskDefinition[] = [];
  Object.entries(stages).forEach(([stage, names], stageIndex) => {
    names.forEach((name, taskIndex) => {
      tasks.push({
        id: name,
        stageId: stage,
        name,
        order: taskIndex + 1,
        daysToComplete: opening === 'prerequisites' ? 2 : null,
        assignToSeller: options.seller?.includes(name) ?? false,
        // As seeded: the approvals ('VB …') are tasks of the payment flows.
        isApproval: opening === 'prerequisites' && name.startsWith('VB'),
        isRetired: false,
        prerequisiteIds: [],
        defaultAssigneeIds: options.defaults?.[name] ?? [],
      });
      void stageIndex;
    });
  });
  // Every task depends on the one before it in flow order, unless overridden.
  tasks.forEach((task, index) => {
    task.prerequisiteIds = options.prerequisites?.[task.name] ?? (index > 0 ? [tasks[index - 1]!.id] : []);
  });
  return {
    id: 'wf',
    name: 'test',
    kind: opening === 'stage' ? 'sale' : 'payment',
    taskOpening: opening,
    singleAssignee: options.singleAssignee ?? opening === 'prerequisites',
    stages: Object.keys(stages).map((name, index) => ({ id: name, name, order: index + 1 })),
    tasks,
  };
}

export const USERS = ['admin', 'ana', 'bruno', 'carla'];

export const definitionArbitrary = fc
  .record({
    opening: fc.constantFrom<'stage' | 'prerequisites'>('stage', 'prerequisites'),
    singleAssignee: fc.boolean(),
    stageSizes: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }),
    seed: fc.array(fc.integer({ min: 0, max: 1_000 }), { minLength: 64, maxLength: 64 }),
  })
  .map(({ opening, singleAssignee, stageSizes, seed }) => {
    let cursor = 0;
    const pick = (n: number) => seed[cursor++ % seed.length]! % n;
    const tasks: TaskDefinition[] = [];
    const stages = stageSizes.map((size, stageIndex) => {
      const stageId = `s${stageIndex + 1}`;
      for (let i = 0; i < size; i++) {
        const index = tasks.length;
        // A random DAG: prerequisites among the tasks before this one in flow order.
        const prerequisiteIds = tasks.filter(() => pick(3) === 0).map((task) => task.id);
        if (index > 0 && prerequisiteIds.length === 0 && pick(2) === 0)
          prerequisiteIds.push(tasks[pick(index)]!.id);
        tasks.push({
          id: `d${index + 1}`,
          stageId,
          name: `Tarea ${index + 1}`,
          order: i + 1,
          daysToComplete: pick(4),
          assignToSeller: pick(4) === 0,
          isApproval: pick(4) === 0,
          isRetired: false,
          prerequisiteIds,
          defaultAssigneeIds: USERS.filter(() => pick(5) === 0),
        });
      }
      return { id: stageId, name: `Etapa ${stageIndex + 1}`, order: stageIndex + 1 };
    });
    return {
      id: 'wf',
      name: 'random',
      kind: opening === 'stage' ? 'sale' : 'payment',
      taskOpening: opening,
      singleAssignee,
      stages,
      tasks,
    } satisfies WorkflowDefinition;
  });

export type Step = {
  actor: number;
  kind: number;
  task: number;
  user: number;
  status: number;
  minutes: number;
};
export const stepArbitrary = fc.record({
  actor: fc.integer({ min: 0, max: 2 }),
  kind: fc.integer({ min: 0, max: 99 }),
  task: fc.nat(),
  user: fc.integer({ min: 0, max: USERS.length - 1 }),
  status: fc.integer({ min: 0, max: 3 }),
  minutes: fc.integer({ min: 0, max: 3 * 24 * 60 }),
});

export function commandOf(
  step: Step,
  state: FlowState,
  now: Date,
  allowedStatuses: readonly TaskStatus[],
): FlowCommand {
  const task = state.tasks[step.task % state.tasks.length]!;
  const user = USERS[step.user]!;
  if (step.kind < 8) return { type: 'start' };
  if (step.kind < 55)
    return {
      type: 'setStatus',
      taskRowId: task.id,
      status: allowedStatuses[step.status % allowedStatuses.length]!,
    };
  if (step.kind < 62)
    return {
      type: 'setStatus',
      taskRowId: task.id,
      status: 'completed',
      completedAt: new Date(now.getTime() - step.minutes * 1_000),
    };
  if (step.kind < 70) return { type: 'reopen', taskRowId: task.id };
  if (step.kind < 80) return { type: 'assign', taskRowId: task.id, userId: user };
  if (step.kind < 86) return { type: 'unassign', taskRowId: task.id, userId: user };
  if (step.kind < 90)
    return {
      type: 'editTaskDates',
      taskRowId: task.id,
      startedAt: new Date(now.getTime() - step.minutes * 60_000),
    };
  if (step.kind < 93) return { type: 'comment', taskRowId: task.id };
  return { type: 'cancel' };
}

export const ACTORS: Actor[] = [ADMIN, ANA, BRUNO];
