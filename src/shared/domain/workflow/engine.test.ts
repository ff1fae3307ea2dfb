import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTORS,
  ADMIN,
  ANA,
  BRUNO,
  commandOf,
  definitionArbitrary,
  definitionOf,
  idGenerator,
  minutes,
  stepArbitrary,
  T0,
} from './engine-testing';
import {
  type Actor,
  apply,
  currentStageOf,
  diffFlow,
  type FlowCommand,
  type FlowEvent,
  type FlowState,
  flowViolations,
  instantiate,
  isOpenTaskStatus,
  progressOf,
  TASK_STATUSES,
  type TaskStatus,
  type WorkflowDefinition,
} from './index';

function run(
  definition: WorkflowDefinition,
  state: FlowState,
  command: FlowCommand,
  actor = ADMIN,
  now = T0,
) {
  const result = apply(definition, state, command, { actor, now });
  if (!result.ok) throw new Error(`refused: ${result.refusal}`);
  expect(flowViolations(definition, result.state)).toEqual([]);
  return result;
}

const rowOf = (state: FlowState, taskId: string) => state.tasks.find((task) => task.taskId === taskId)!;

// The seeded main payment flow's shape (workflows.md §1.2, §1.4): the commercial and operations
// approvals run side by side. The server test checks the same on the seeded rows themselves.
const MAIN_PAYMENT = definitionOf(
  {
    'Solicitud Liquidación': ['Solicitud Liquidación'],
    'Aprobación Jefe Inversiones': ['Solicitud a Jefe Inversiones', 'VB Jefe Inversiones'],
    'Aprobación Gerente Comercial': ['Solicitud Gerente Comercial', 'VB Gerente Comercial'],
    'Aprobación Operaciones': ['Solicitud Operaciones', 'VB Operaciones'],
    'Aprobación Control de Gestión': ['Solicitud Control de Gestión', 'VB Control de Gestión'],
    'Orden de Compra': ['Generación de OC', 'VB OC Gerencia Comercial'],
  },
  {
    opening: 'prerequisites',
    prerequisites: {
      'Solicitud Operaciones': ['VB Jefe Inversiones'],
      'Generación de OC': ['VB Gerente Comercial', 'VB Control de Gestión'],
    },
    defaults: { 'VB Jefe Inversiones': ['rodrigo'] },
  },
);

const SALE = definitionOf(
  { Reserva: ['COF 1', 'COF 2', 'VB COF'], Promesa: ['P1', 'P2'], Reparos: ['R1'] },
  { seller: ['COF 1', 'COF 2'], defaults: { P1: ['ana', 'bruno'] } },
);

describe('the sale flow (workflows.md §2)', () => {
  const created = () =>
    instantiate(SALE, {
      flowId: 'f',
      now: T0,
      actorId: 'admin',
      sellerId: 'seller',
      newId: idGenerator('t'),
    });

  it('starts in progress at the first stage, its tasks started, COF tasks to the seller plus defaults', () => {
    const { state } = created();
    expect(state).toMatchObject({ status: 'in_progress', currentStageId: 'Reserva', startedAt: T0 });
    expect(rowOf(state, 'COF 1').startedAt).toEqual(T0);
    expect(rowOf(state, 'P1').startedAt).toBeNull();
    expect(rowOf(state, 'COF 1').assignees.map((a) => a.userId)).toEqual(['seller']);
    expect(rowOf(state, 'VB COF').assignees).toEqual([]);
    expect(rowOf(state, 'P1').assignees.map((a) => a.userId)).toEqual(['ana', 'bruno']);
    expect(flowViolations(SALE, state, { strict: true })).toEqual([]);
  });

  it('completing a stage makes the next one current and starts its tasks; completing all completes the flow', () => {
    let { state } = created();
    for (const name of ['COF 1', 'COF 2', 'VB COF']) {
      state = run(
        SALE,
        state,
        { type: 'setStatus', taskRowId: rowOf(state, name).id, status: 'completed' },
        ANA,
        minutes(5),
      ).state;
    }
    expect(state.currentStageId).toBe('Promesa');
    expect(rowOf(state, 'P1').startedAt).toEqual(minutes(5));
    expect(rowOf(state, 'COF 1')).toMatchObject({
      completedAt: minutes(5),
      completedBy: 'ana',
      assignees: [],
    });
    for (const name of ['P1', 'P2', 'R1']) {
      state = run(
        SALE,
        state,
        { type: 'setStatus', taskRowId: rowOf(state, name).id, status: 'completed' },
        ADMIN,
        minutes(9),
      ).state;
    }
    expect(state).toMatchObject({ status: 'completed', completedAt: minutes(9), currentStageId: null });
    // Reopening a task puts the flow back in progress at that task's stage.
    const reopened = run(
      SALE,
      state,
      { type: 'reopen', taskRowId: rowOf(state, 'P2').id },
      ADMIN,
      minutes(10),
    );
    expect(reopened.state).toMatchObject({
      status: 'in_progress',
      completedAt: null,
      currentStageId: 'Promesa',
    });
    expect(rowOf(reopened.state, 'P2')).toMatchObject({
      status: 'pending',
      completedAt: null,
      completedBy: null,
    });
    expect(reopened.events.map((e) => e.type)).toContain('flowReopened');
  });

  it('lets only administrators change or assign a completed task, and take a completion date', () => {
    let { state } = created();
    const cof = rowOf(state, 'COF 1').id;
    state = run(SALE, state, { type: 'setStatus', taskRowId: cof, status: 'completed' }, ANA).state;
    const refused = (command: FlowCommand, actor: Actor) => apply(SALE, state, command, { actor, now: T0 });
    expect(refused({ type: 'setStatus', taskRowId: cof, status: 'pending' }, BRUNO)).toEqual({
      ok: false,
      refusal: 'TASK_COMPLETED_ADMIN_ONLY',
    });
    expect(refused({ type: 'assign', taskRowId: cof, userId: 'bruno' }, BRUNO)).toEqual({
      ok: false,
      refusal: 'ASSIGN_COMPLETED_ADMIN_ONLY',
    });
    const p1 = rowOf(state, 'P1').id;
    expect(refused({ type: 'setStatus', taskRowId: p1, status: 'completed', completedAt: T0 }, ANA)).toEqual({
      ok: false,
      refusal: 'FORBIDDEN',
    });
    expect(refused({ type: 'setStatus', taskRowId: cof, status: 'in_progress' }, ADMIN).ok).toBe(true);
    const dated = run(SALE, state, {
      type: 'setStatus',
      taskRowId: p1,
      status: 'completed',
      completedAt: minutes(-60),
    });
    expect(rowOf(dated.state, 'P1').completedAt).toEqual(minutes(-60));
  });

  it('lets anyone move an open sale task through every status, blocked included', () => {
    let { state } = created();
    const cof = rowOf(state, 'COF 2').id;
    for (const status of ['in_progress', 'blocked', 'pending'] as const) {
      state = run(SALE, state, { type: 'setStatus', taskRowId: cof, status }, BRUNO).state;
      expect(rowOf(state, 'COF 2').status).toBe(status);
    }
  });
});

describe('the payment flows (workflows.md §3)', () => {
  const created = () =>
    instantiate(MAIN_PAYMENT, {
      flowId: 'p',
      now: T0,
      actorId: 'admin',
      sellerId: null,
      newId: idGenerator('t'),
    });

  it('is created pending with every task blocked; only an administrator proceeds', () => {
    const { state } = created();
    expect(state).toMatchObject({
      status: 'pending',
      startedAt: null,
      currentStageId: 'Solicitud Liquidación',
    });
    expect(state.tasks.every((task) => task.status === 'blocked')).toBe(true);
    const first = rowOf(state, 'Solicitud Liquidación').id;
    expect(
      apply(
        MAIN_PAYMENT,
        state,
        { type: 'setStatus', taskRowId: first, status: 'completed' },
        { actor: ADMIN, now: T0 },
      ),
    ).toEqual({ ok: false, refusal: 'FLOW_NOT_STARTED' });
    expect(
      apply(MAIN_PAYMENT, state, { type: 'comment', taskRowId: first }, { actor: ADMIN, now: T0 }),
    ).toEqual({ ok: false, refusal: 'FLOW_NOT_STARTED' });
    expect(apply(MAIN_PAYMENT, state, { type: 'start' }, { actor: ANA, now: T0 })).toEqual({
      ok: false,
      refusal: 'FORBIDDEN',
    });
    const started = run(MAIN_PAYMENT, state, { type: 'start' }, ADMIN, minutes(1)).state;
    expect(started).toMatchObject({ status: 'in_progress', startedAt: minutes(1) });
    expect(rowOf(started, 'Solicitud Liquidación')).toMatchObject({
      status: 'pending',
      startedAt: minutes(1),
    });
    expect(rowOf(started, 'Solicitud a Jefe Inversiones').status).toBe('blocked');
    expect(apply(MAIN_PAYMENT, started, { type: 'start' }, { actor: ADMIN, now: T0 })).toEqual({
      ok: false,
      refusal: 'FLOW_ALREADY_STARTED',
    });
  });

  it("opens 'Solicitud Operaciones' while the Gerente Comercial branch is open, and 'Generación de OC' only after both VBs", () => {
    let state = run(MAIN_PAYMENT, created().state, { type: 'start' }).state;
    const complete = (name: string, at: number, actor = ADMIN) => {
      state = run(
        MAIN_PAYMENT,
        state,
        { type: 'setStatus', taskRowId: rowOf(state, name).id, status: 'completed' },
        actor,
        minutes(at),
      ).state;
    };
    complete('Solicitud Liquidación', 10);
    complete('Solicitud a Jefe Inversiones', 20);
    expect(rowOf(state, 'VB Jefe Inversiones')).toMatchObject({ status: 'pending', startedAt: minutes(20) });
    // The default assignee receives the task when it opens.
    expect(rowOf(state, 'VB Jefe Inversiones').assignees.map((a) => a.userId)).toEqual(['rodrigo']);
    complete('VB Jefe Inversiones', 30, { id: 'rodrigo', administersFlows: false, startsPayments: false });
    expect(rowOf(state, 'Solicitud Gerente Comercial').status).toBe('pending');
    expect(rowOf(state, 'Solicitud Operaciones').status).toBe('pending');
    complete('Solicitud Operaciones', 40);
    complete('VB Operaciones', 50);
    complete('Solicitud Control de Gestión', 60);
    complete('VB Control de Gestión', 70);
    expect(rowOf(state, 'Generación de OC').status).toBe('blocked');
    expect(state.currentStageId).toBe('Aprobación Gerente Comercial');
    complete('Solicitud Gerente Comercial', 80);
    complete('VB Gerente Comercial', 90);
    expect(rowOf(state, 'Generación de OC')).toMatchObject({ status: 'pending', startedAt: minutes(90) });
    complete('Generación de OC', 100);
    const last = run(
      MAIN_PAYMENT,
      state,
      { type: 'setStatus', taskRowId: rowOf(state, 'VB OC Gerencia Comercial').id, status: 'completed' },
      ADMIN,
      minutes(110),
    );
    expect(last.state).toMatchObject({
      status: 'completed',
      completedAt: minutes(110),
      currentStageId: null,
    });
    expect(last.events).toContainEqual({ type: 'flowCompleted', at: minutes(110) });
    expect(progressOf(last.state.tasks)).toBe(100);
  });

  it('answers a blocked task with 409 for non-administrators; reopening never cascades', () => {
    let state = run(MAIN_PAYMENT, created().state, { type: 'start' }).state;
    const blocked = rowOf(state, 'Solicitud a Jefe Inversiones').id;
    expect(
      apply(
        MAIN_PAYMENT,
        state,
        { type: 'setStatus', taskRowId: blocked, status: 'in_progress' },
        { actor: ANA, now: T0 },
      ),
    ).toEqual({ ok: false, refusal: 'TASK_BLOCKED' });
    expect(
      apply(
        MAIN_PAYMENT,
        state,
        { type: 'assign', taskRowId: blocked, userId: 'ana' },
        { actor: ANA, now: T0 },
      ),
    ).toEqual({ ok: false, refusal: 'TASK_BLOCKED' });
    state = run(
      MAIN_PAYMENT,
      state,
      { type: 'setStatus', taskRowId: rowOf(state, 'Solicitud Liquidación').id, status: 'completed' },
      ANA,
    ).state;
    expect(rowOf(state, 'Solicitud a Jefe Inversiones').status).toBe('pending');
    state = run(MAIN_PAYMENT, state, {
      type: 'reopen',
      taskRowId: rowOf(state, 'Solicitud Liquidación').id,
    }).state;
    expect(rowOf(state, 'Solicitud Liquidación').status).toBe('pending');
    expect(rowOf(state, 'Solicitud a Jefe Inversiones').status).toBe('pending');
  });

  it('keeps one assignee per payment task: assigning replaces', () => {
    let state = run(MAIN_PAYMENT, created().state, { type: 'start' }).state;
    const first = rowOf(state, 'Solicitud Liquidación').id;
    state = run(MAIN_PAYMENT, state, { type: 'assign', taskRowId: first, userId: 'ana' }, BRUNO).state;
    const replaced = run(MAIN_PAYMENT, state, { type: 'assign', taskRowId: first, userId: 'bruno' }, BRUNO);
    expect(rowOf(replaced.state, 'Solicitud Liquidación').assignees.map((a) => a.userId)).toEqual(['bruno']);
    expect(diffFlow(state, replaced.state)).toMatchObject({
      assigneesAdded: [{ taskRowId: first, userId: 'bruno' }],
      assigneesRemoved: [{ taskRowId: first, userId: 'ana' }],
    });
  });

  it('cancels a flow not completed, and refuses every change afterwards', () => {
    const state = run(MAIN_PAYMENT, created().state, { type: 'start' }).state;
    const cancelled = run(MAIN_PAYMENT, state, { type: 'cancel' }).state;
    expect(cancelled.status).toBe('cancelled');
    const first = rowOf(cancelled, 'Solicitud Liquidación').id;
    expect(
      apply(
        MAIN_PAYMENT,
        cancelled,
        { type: 'setStatus', taskRowId: first, status: 'completed' },
        { actor: ADMIN, now: T0 },
      ),
    ).toEqual({ ok: false, refusal: 'FLOW_CANCELLED' });
  });

  it('edits dates only for administrators, never before the start, and moves the payment date with the flow', () => {
    let state = run(MAIN_PAYMENT, created().state, { type: 'start' }, ADMIN, minutes(0)).state;
    const first = rowOf(state, 'Solicitud Liquidación').id;
    expect(
      apply(
        MAIN_PAYMENT,
        state,
        { type: 'editTaskDates', taskRowId: first, startedAt: minutes(-5) },
        { actor: ANA, now: T0 },
      ),
    ).toEqual({ ok: false, refusal: 'FORBIDDEN' });
    expect(
      apply(
        MAIN_PAYMENT,
        state,
        { type: 'editTaskDates', taskRowId: first, completedAt: minutes(5) },
        { actor: ADMIN, now: T0 },
      ),
    ).toEqual({ ok: false, refusal: 'INVALID_TASK_DATES' });
    state = run(MAIN_PAYMENT, state, {
      type: 'editTaskDates',
      taskRowId: first,
      startedAt: minutes(-5),
    }).state;
    expect(rowOf(state, 'Solicitud Liquidación').startedAt).toEqual(minutes(-5));
    expect(rowOf(state, 'Solicitud a Jefe Inversiones').startedAt).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over random definitions and random command sequences.

/** The pending-list predicate of workflows.md §6. */
const inPendingSet = (flow: FlowState, status: TaskStatus) =>
  flow.status === 'in_progress' && isOpenTaskStatus(status);

function checkStep(definition: WorkflowDefinition, before: FlowState, after: FlowState, events: FlowEvent[]) {
  expect(flowViolations(definition, after)).toEqual([]);
  // No task opens before all its prerequisites are completed.
  for (const event of events) {
    if (event.type !== 'taskOpened') continue;
    const row = after.tasks.find((task) => task.id === event.taskRowId)!;
    const prerequisites = definition.tasks.find((task) => task.id === row.taskId)!.prerequisiteIds;
    for (const id of prerequisites)
      expect(after.tasks.find((task) => task.taskId === id)!.status).toBe('completed');
  }
  // A flow is completed exactly when every task is (unless it was cancelled).
  if (after.status !== 'cancelled') {
    expect(after.status === 'completed').toBe(after.tasks.every((task) => task.status === 'completed'));
    expect(after.currentStageId).toBe(currentStageOf(definition, after.tasks));
  }
  // Completing removes the assignees.
  for (const event of events) {
    if (event.type === 'taskCompleted')
      expect(after.tasks.find((t) => t.id === event.taskRowId)!.assignees).toEqual([]);
  }
  // Cancelling leaves no task in any pending set.
  if (after.status === 'cancelled')
    expect(after.tasks.some((task) => inPendingSet(after, task.status))).toBe(false);
  expect(progressOf(after.tasks)).toBe(
    Math.round((after.tasks.filter((t) => t.status === 'completed').length / after.tasks.length) * 100),
  );
  // Refused or not, a command never adds or loses task rows.
  expect(after.tasks.map((t) => t.id)).toEqual(before.tasks.map((t) => t.id));
}

describe('engine properties', () => {
  it('keeps every invariant under random definitions and random command sequences', () => {
    fc.assert(
      fc.property(definitionArbitrary, fc.array(stepArbitrary, { maxLength: 60 }), (definition, steps) => {
        let { state } = instantiate(definition, {
          flowId: 'f',
          now: T0,
          actorId: 'admin',
          sellerId: 'ana',
          newId: idGenerator('t'),
        });
        expect(flowViolations(definition, state, { strict: true })).toEqual([]);
        let now = T0;
        for (const step of steps) {
          now = new Date(now.getTime() + step.minutes * 60_000);
          const command = commandOf(step, state, now, TASK_STATUSES);
          const result = apply(definition, state, command, { actor: ACTORS[step.actor]!, now });
          if (!result.ok) continue;
          checkStep(definition, state, result.state, result.events);
          state = result.state;
        }
      }),
      { numRuns: 400 },
    );
  });

  it('keeps the strict invariants while ordinary users complete and move open tasks', () => {
    fc.assert(
      fc.property(definitionArbitrary, fc.array(stepArbitrary, { maxLength: 60 }), (definition, steps) => {
        let { state } = instantiate(definition, {
          flowId: 'f',
          now: T0,
          actorId: 'admin',
          sellerId: 'ana',
          newId: idGenerator('t'),
        });
        let now = T0;
        for (const step of steps) {
          now = new Date(now.getTime() + step.minutes * 60_000);
          // An administrator only proceeds; ordinary users do the rest, never blocking by hand.
          const command =
            step.kind < 8
              ? ({ type: 'start' } as const)
              : commandOf({ ...step, kind: 8 + (step.kind % 47) }, state, now, [
                  'pending',
                  'in_progress',
                  'completed',
                ]);
          const actor = command.type === 'start' ? ADMIN : ACTORS[1 + (step.actor % 2)]!;
          const result = apply(definition, state, command, { actor, now });
          if (!result.ok) continue;
          expect(flowViolations(definition, result.state, { strict: true })).toEqual([]);
          state = result.state;
        }
      }),
      { numRuns: 400 },
    );
  });

  it('refuses without changing anything', () => {
    fc.assert(
      fc.property(definitionArbitrary, fc.array(stepArbitrary, { maxLength: 40 }), (definition, steps) => {
        let { state } = instantiate(definition, {
          flowId: 'f',
          now: T0,
          actorId: 'admin',
          sellerId: null,
          newId: idGenerator('t'),
        });
        let now = T0;
        for (const step of steps) {
          now = new Date(now.getTime() + step.minutes * 60_000);
          const snapshot = structuredClone(state);
          const result = apply(definition, state, commandOf(step, state, now, TASK_STATUSES), {
            actor: ACTORS[step.actor]!,
            now,
          });
          expect(state).toEqual(snapshot);
          if (result.ok) state = result.state;
        }
      }),
      { numRuns: 200 },
    );
  });
});
