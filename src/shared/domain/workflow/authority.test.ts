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
  allowedCommands,
  apply,
  type FlowCommand,
  type FlowState,
  flowViolations,
  instantiate,
  mayChangeCompletedTasks,
  TASK_STATUSES,
  type TaskStatus,
  type WorkflowDefinition,
} from './index';

// The main payment flow's first stages, 'VB Jefe Inversiones' assigned to Rodrigo by default.
const PAYMENT = definitionOf(
  {
    'Solicitud Liquidación': ['Solicitud Liquidación'],
    'Aprobación Jefe Inversiones': ['Solicitud a Jefe Inversiones', 'VB Jefe Inversiones'],
    Pago: ['Fecha de Pago'],
  },
  {
    opening: 'prerequisites',
    defaults: { 'VB Jefe Inversiones': ['rodrigo'], 'Fecha de Pago': ['javiera'] },
  },
);
const RODRIGO: Actor = { id: 'rodrigo', administersFlows: false, startsPayments: false };

function step(definition: WorkflowDefinition, state: FlowState, command: FlowCommand, actor: Actor = ADMIN) {
  const result = apply(definition, state, command, { actor, now: minutes(10) });
  if (!result.ok) throw new Error(`refused: ${result.refusal}`);
  expect(flowViolations(definition, result.state)).toEqual([]);
  return result;
}

const rowOf = (state: FlowState, name: string) => state.tasks.find((task) => task.taskId === name)!;

/** A started payment flow with the VB open and assigned to Rodrigo. */
function atApproval() {
  let { state } = instantiate(PAYMENT, {
    flowId: 'p',
    now: T0,
    actorId: 'admin',
    sellerId: null,
    newId: idGenerator('t'),
  });
  state = step(PAYMENT, state, { type: 'start' }).state;
  for (const name of ['Solicitud Liquidación', 'Solicitud a Jefe Inversiones'])
    state = step(
      PAYMENT,
      state,
      { type: 'setStatus', taskRowId: rowOf(state, name).id, status: 'completed' },
      ANA,
    ).state;
  return state;
}

describe('who may decide an approval (workflows.md §4, issue 26)', () => {
  it('lets only its assignee or an administrator complete it, whatever command is used', () => {
    const state = atApproval();
    const vb = rowOf(state, 'VB Jefe Inversiones');
    expect(vb.assignees.map((a) => a.userId)).toEqual(['rodrigo']);
    for (const command of [
      { type: 'setStatus', taskRowId: vb.id, status: 'completed' },
      { type: 'setStatus', taskRowId: vb.id, status: 'in_progress' },
      { type: 'approve', taskRowId: vb.id },
      { type: 'reject', taskRowId: vb.id, reason: 'Falta la OC' },
    ] satisfies FlowCommand[]) {
      expect(apply(PAYMENT, state, command, { actor: ANA, now: minutes(10) })).toEqual({
        ok: false,
        refusal: 'APPROVAL_NOT_ASSIGNED',
      });
    }
    expect(step(PAYMENT, state, { type: 'approve', taskRowId: vb.id }, RODRIGO).state.tasks).toContainEqual(
      expect.objectContaining({ id: vb.id, status: 'completed', completedBy: 'rodrigo' }),
    );
    expect(
      rowOf(step(PAYMENT, state, { type: 'approve', taskRowId: vb.id }).state, 'VB Jefe Inversiones').status,
    ).toBe('completed');
  });

  it('refuses taking an approval from its assignee, but lets the assignee hand it on', () => {
    const state = atApproval();
    const vb = rowOf(state, 'VB Jefe Inversiones');
    expect(
      apply(PAYMENT, state, { type: 'assign', taskRowId: vb.id, userId: 'ana' }, { actor: ANA, now: T0 }),
    ).toEqual({
      ok: false,
      refusal: 'APPROVAL_NOT_ASSIGNED',
    });
    expect(
      apply(
        PAYMENT,
        state,
        { type: 'unassign', taskRowId: vb.id, userId: 'rodrigo' },
        { actor: ANA, now: T0 },
      ),
    ).toEqual({ ok: false, refusal: 'APPROVAL_NOT_ASSIGNED' });
    const handed = step(PAYMENT, state, { type: 'assign', taskRowId: vb.id, userId: 'bruno' }, RODRIGO).state;
    expect(rowOf(handed, 'VB Jefe Inversiones').assignees.map((a) => a.userId)).toEqual(['bruno']);
  });

  it('blocks an approval only as a rejection with its reason, recorded as an event', () => {
    const state = atApproval();
    const vb = rowOf(state, 'VB Jefe Inversiones');
    expect(
      apply(
        PAYMENT,
        state,
        { type: 'setStatus', taskRowId: vb.id, status: 'blocked' },
        { actor: ADMIN, now: T0 },
      ),
    ).toEqual({ ok: false, refusal: 'APPROVAL_REJECT_NEEDS_REASON' });
    const rejected = step(
      PAYMENT,
      state,
      { type: 'reject', taskRowId: vb.id, reason: '  Monto no cuadra ' },
      RODRIGO,
    );
    expect(rowOf(rejected.state, 'VB Jefe Inversiones').status).toBe('blocked');
    expect(rejected.events).toContainEqual({
      type: 'taskRejected',
      taskRowId: vb.id,
      by: 'rodrigo',
      at: minutes(10),
      reason: 'Monto no cuadra',
    });
    // Rejected: nobody but an administrator moves it, and not by approving it as it stands.
    const again = { type: 'approve', taskRowId: vb.id } as const;
    expect(apply(PAYMENT, rejected.state, again, { actor: RODRIGO, now: T0 })).toEqual({
      ok: false,
      refusal: 'APPROVAL_NOT_OPEN',
    });
    const reopened = step(PAYMENT, rejected.state, {
      type: 'setStatus',
      taskRowId: vb.id,
      status: 'pending',
    });
    expect(rowOf(reopened.state, 'VB Jefe Inversiones').assignees.map((a) => a.userId)).toEqual(['rodrigo']);
  });

  it('refuses everyone, administrators included, a blocked task whose prerequisites are not completed', () => {
    let { state } = instantiate(PAYMENT, {
      flowId: 'p',
      now: T0,
      actorId: 'admin',
      sellerId: null,
      newId: idGenerator('t'),
    });
    state = step(PAYMENT, state, { type: 'start' }).state;
    const vb = rowOf(state, 'VB Jefe Inversiones');
    for (const status of ['completed', 'pending', 'in_progress'] as const) {
      expect(
        apply(PAYMENT, state, { type: 'setStatus', taskRowId: vb.id, status }, { actor: ADMIN, now: T0 }),
      ).toEqual({
        ok: false,
        refusal: 'TASK_BLOCKED',
      });
    }
    expect(allowedCommands(PAYMENT, state, { actor: ADMIN }).tasks.get(vb.id)!.statuses.completed).toBe(
      'TASK_BLOCKED',
    );
  });

  it('gives a reopened task its default assignee, so an inbox shows it', () => {
    let state = atApproval();
    state = step(
      PAYMENT,
      state,
      { type: 'approve', taskRowId: rowOf(state, 'VB Jefe Inversiones').id },
      RODRIGO,
    ).state;
    const last = rowOf(state, 'Fecha de Pago');
    state = step(PAYMENT, state, { type: 'setStatus', taskRowId: last.id, status: 'completed' }, ANA).state;
    expect(state.status).toBe('completed');
    const reopened = step(PAYMENT, state, { type: 'reopen', taskRowId: last.id });
    expect(reopened.state.status).toBe('in_progress');
    expect(reopened.events).toContainEqual({ type: 'flowReopened' });
    expect(rowOf(reopened.state, 'Fecha de Pago').assignees.map((a) => a.userId)).toEqual(['javiera']);
  });

  it('closes a completed flow of a rescinded reservation to every change but comments', () => {
    let state = atApproval();
    state = step(PAYMENT, state, {
      type: 'approve',
      taskRowId: rowOf(state, 'VB Jefe Inversiones').id,
    }).state;
    state = step(PAYMENT, state, {
      type: 'setStatus',
      taskRowId: rowOf(state, 'Fecha de Pago').id,
      status: 'completed',
    }).state;
    const options = { actor: ADMIN, now: T0, subjectClosed: true };
    const last = rowOf(state, 'Fecha de Pago').id;
    expect(apply(PAYMENT, state, { type: 'reopen', taskRowId: last }, options)).toEqual({
      ok: false,
      refusal: 'FLOW_CANCELLED',
    });
    expect(apply(PAYMENT, state, { type: 'editFlowDates', completedAt: T0 }, options)).toEqual({
      ok: false,
      refusal: 'FLOW_CANCELLED',
    });
    expect(apply(PAYMENT, state, { type: 'comment', taskRowId: last }, options).ok).toBe(true);
  });
});

/** Every command one actor could give on one task, with arguments that are valid whatever the state. */
function candidateCommands(state: FlowState, taskRowId: string, actor: Actor) {
  const task = state.tasks.find((candidate) => candidate.id === taskRowId)!;
  return [
    ...TASK_STATUSES.filter((status) => status !== task.status).map(
      (status) => ['statuses', status, { type: 'setStatus', taskRowId, status }] as const,
    ),
    ['assign', null, { type: 'assign', taskRowId, userId: actor.id }] as const,
    ['editDates', null, { type: 'editTaskDates', taskRowId }] as const,
    ['comment', null, { type: 'comment', taskRowId }] as const,
    ['reject', null, { type: 'reject', taskRowId, reason: 'motivo' }] as const,
    // Approving an approved task is a no-op anyone's click may send; it is not offered.
    ...(task.status === 'completed' ? [] : ([['approve', null, { type: 'approve', taskRowId }]] as const)),
  ];
}

describe('allowedCommands against the engine', () => {
  it('offers exactly what the engine accepts: whatever it allows is applied, whatever it refuses is refused', () => {
    fc.assert(
      fc.property(
        definitionArbitrary,
        fc.array(stepArbitrary, { maxLength: 40 }),
        fc.boolean(),
        (definition, steps, subjectClosed) => {
          let { state } = instantiate(definition, {
            flowId: 'f',
            now: T0,
            actorId: 'admin',
            sellerId: 'ana',
            newId: idGenerator('t'),
          });
          let now = T0;
          for (const [index, next] of steps.entries()) {
            now = new Date(now.getTime() + next.minutes * 60_000);
            // Every reachable state is judged, for every actor, task and command.
            for (const actor of ACTORS) {
              const options = { actor, now, subjectClosed: subjectClosed && index % 2 === 1 };
              const allowed = allowedCommands(definition, state, options);
              expect(allowed.start === null).toBe(apply(definition, state, { type: 'start' }, options).ok);
              expect(allowed.editDates === null).toBe(
                apply(definition, state, { type: 'editFlowDates' }, options).ok,
              );
              for (const task of state.tasks) {
                const offered = allowed.tasks.get(task.id)!;
                for (const [key, status, command] of candidateCommands(state, task.id, actor)) {
                  const refusal =
                    status === null
                      ? offered[key as Exclude<typeof key, 'statuses'>]
                      : offered.statuses[status];
                  const result = apply(definition, state, command as FlowCommand, options);
                  expect(result.ok ? null : result.refusal, `${actor.id} ${JSON.stringify(command)}`).toBe(
                    refusal,
                  );
                }
              }
            }
            const result = apply(definition, state, commandOf(next, state, now, TASK_STATUSES), {
              actor: ACTORS[next.actor]!,
              now,
            });
            if (result.ok) state = result.state;
          }
        },
      ),
      { numRuns: 150 },
    );
    // Every state × actor × task × command: seconds of work, more on a busy machine.
  }, 60_000);

  it('never lets a non-administrator who is not the assignee change an approval task', () => {
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
        for (const next of steps) {
          now = new Date(now.getTime() + next.minutes * 60_000);
          const actor = ACTORS[next.actor]!;
          const command = commandOf(next, state, now, TASK_STATUSES);
          const result = apply(definition, state, command, { actor, now });
          if (!result.ok) continue;
          // The task the command names (approving another task may open this one: that is the flow's doing).
          const targetId = 'taskRowId' in command ? command.taskRowId : null;
          for (const task of state.tasks.filter((candidate) => candidate.id === targetId)) {
            const isApproval = definition.tasks.find((candidate) => candidate.id === task.taskId)!.isApproval;
            const wasAssignee = task.assignees.some((assignee) => assignee.userId === actor.id);
            if (!isApproval || actor.administersFlows || wasAssignee) continue;
            const after = result.state.tasks.find((candidate) => candidate.id === task.id)!;
            expect(after.status).toBe(task.status);
            expect(after.assignees.map((a) => a.userId)).toEqual(task.assignees.map((a) => a.userId));
          }
          state = result.state;
        }
      }),
      { numRuns: 300 },
    );
  });
});

// The sale flow's first stage: every task pending from the start, several responsibles.
const SALE = definitionOf({ Promesa: ['Promesa generada', 'Promesa firmada'], Escritura: ['Escritura'] });

function startedSale() {
  return instantiate(SALE, {
    flowId: 's',
    now: T0,
    actorId: 'admin',
    sellerId: 'ana',
    newId: idGenerator('t'),
  }).state;
}

/**
 * Whether the engine lets the actor bring the task back to `target` from `state`, by one command or
 * several of their own (the select's, 'Rechazar', 'Aprobar'): a search over the states reached.
 */
function engineCanTakeBack(
  definition: WorkflowDefinition,
  state: FlowState,
  taskRowId: string,
  target: TaskStatus,
  options: { actor: Actor; now: Date; subjectClosed?: boolean },
): boolean {
  const statusIn = (flow: FlowState) => flow.tasks.find((task) => task.id === taskRowId)!.status;
  const reached = new Set<TaskStatus>([statusIn(state)]);
  const queue = [state];
  for (let current = queue.shift(); current; current = queue.shift()) {
    for (const status of TASK_STATUSES.filter((candidate) => !reached.has(candidate))) {
      const commands: FlowCommand[] = [
        { type: 'setStatus', taskRowId, status },
        ...(status === 'blocked' ? [{ type: 'reject', taskRowId, reason: 'otra vez' } as const] : []),
        ...(status === 'completed' ? [{ type: 'approve', taskRowId } as const] : []),
      ];
      for (const command of commands) {
        const result = apply(definition, current, command, options);
        // Allowed, yet refused for its dates: the way exists.
        if (!result.ok && result.refusal !== 'INVALID_TASK_DATES') continue;
        if (status === target) return true;
        if (result.ok) {
          reached.add(status);
          queue.push(result.state);
        }
        break;
      }
    }
  }
  return false;
}

describe('which changes the user could not take back (issue 28 §5)', () => {
  it('marks completing a sale task irreversible for everyone but administrators', () => {
    const state = startedSale();
    const task = rowOf(state, 'Promesa generada');
    const kam = allowedCommands(SALE, state, { actor: ANA }).tasks.get(task.id)!;
    expect(TASK_STATUSES.filter((status) => kam.statuses[status] === null)).toEqual([
      'pending',
      'in_progress',
      'completed',
      'blocked',
    ]);
    expect(kam.irreversible).toEqual(['completed']);
    expect(allowedCommands(SALE, state, { actor: ADMIN }).tasks.get(task.id)!.irreversible).toEqual([]);
  });

  it('marks completing and blocking a payment task irreversible for a non-administrator', () => {
    const state = atApproval();
    const vb = allowedCommands(PAYMENT, state, { actor: RODRIGO }).tasks.get(
      rowOf(state, 'VB Jefe Inversiones').id,
    )!;
    // 'Bloqueada' is not offered as a status on an approval (a rejection takes its reason): approving
    // completes it and 'Rechazar' blocks it, and only an administrator could take either back.
    expect(vb.approve).toBeNull();
    expect(vb.reject).toBeNull();
    expect(vb.statuses.blocked).toBe('APPROVAL_REJECT_NEEDS_REASON');
    expect(vb.irreversible).toEqual(['completed', 'blocked']);
    expect(
      allowedCommands(PAYMENT, state, { actor: ADMIN }).tasks.get(rowOf(state, 'VB Jefe Inversiones').id)!
        .irreversible,
    ).toEqual([]);
    // Someone else's approval: nothing offered, so nothing to ask about.
    expect(
      allowedCommands(PAYMENT, state, { actor: BRUNO }).tasks.get(rowOf(state, 'VB Jefe Inversiones').id)!
        .irreversible,
    ).toEqual([]);

    // Once approved, the payment's date is open: a non-administrator who completes or blocks it is stuck.
    const paying = step(PAYMENT, state, {
      type: 'approve',
      taskRowId: rowOf(state, 'VB Jefe Inversiones').id,
    }).state;
    const last = allowedCommands(PAYMENT, paying, { actor: ANA }).tasks.get(
      rowOf(paying, 'Fecha de Pago').id,
    )!;
    expect(last.irreversible).toEqual(['completed', 'blocked']);
  });

  it('asks nothing of an administrator reopening a rejected approval: rejecting again takes it back', () => {
    const state = atApproval();
    const vb = rowOf(state, 'VB Jefe Inversiones').id;
    const rejected = step(
      PAYMENT,
      state,
      { type: 'reject', taskRowId: vb, reason: 'Falta la OC' },
      RODRIGO,
    ).state;
    const admin = allowedCommands(PAYMENT, rejected, { actor: ADMIN }).tasks.get(vb)!;
    expect(admin.statuses.pending).toBeNull();
    expect(admin.irreversible).toEqual([]);
  });

  it('asks nothing on a completed task an administrator reopens, nor on a closed flow', () => {
    let state = startedSale();
    const task = rowOf(state, 'Promesa generada');
    state = step(SALE, state, { type: 'setStatus', taskRowId: task.id, status: 'completed' }).state;
    expect(allowedCommands(SALE, state, { actor: ADMIN }).tasks.get(task.id)!.irreversible).toEqual([]);
    expect(allowedCommands(SALE, state, { actor: ANA }).tasks.get(task.id)!.irreversible).toEqual([]);
    const closed = allowedCommands(SALE, startedSale(), { actor: ANA, subjectClosed: true });
    expect([...closed.tasks.values()].every((task) => task.irreversible.length === 0)).toBe(true);
  });

  it('says of every change offered exactly whether the engine would let the user take it back', () => {
    fc.assert(
      fc.property(
        definitionArbitrary,
        fc.array(stepArbitrary, { maxLength: 40 }),
        fc.boolean(),
        (definition, steps, subjectClosed) => {
          let { state } = instantiate(definition, {
            flowId: 'f',
            now: T0,
            actorId: 'admin',
            sellerId: 'ana',
            newId: idGenerator('t'),
          });
          let now = T0;
          for (const [index, next] of steps.entries()) {
            now = new Date(now.getTime() + next.minutes * 60_000);
            for (const actor of ACTORS) {
              const options = { actor, now, subjectClosed: subjectClosed && index % 2 === 1 };
              const allowed = allowedCommands(definition, state, options);
              for (const task of state.tasks) {
                const offered = allowed.tasks.get(task.id)!;
                const isApproval = definition.tasks.find(
                  (candidate) => candidate.id === task.taskId,
                )!.isApproval;
                for (const status of TASK_STATUSES.filter((candidate) => candidate !== task.status)) {
                  const byStatus = offered.statuses[status] === null;
                  const byApproving = status === 'completed' && offered.approve === null;
                  const byRejecting = status === 'blocked' && offered.reject === null;
                  if (!byStatus && !byApproving && !byRejecting) {
                    expect(offered.irreversible).not.toContain(status);
                    continue;
                  }
                  const command: FlowCommand = byStatus
                    ? { type: 'setStatus', taskRowId: task.id, status }
                    : byApproving
                      ? { type: 'approve', taskRowId: task.id }
                      : { type: 'reject', taskRowId: task.id, reason: 'motivo' };
                  const result = apply(definition, state, command, options);
                  // Allowed, yet refused for its arguments: completing before the task's (edited) start.
                  if (!result.ok && result.refusal === 'INVALID_TASK_DATES') continue;
                  expect(result.ok, `${actor.id} ${JSON.stringify(command)}`).toBe(true);
                  if (!result.ok) continue;
                  const later = { ...options, now: new Date(now.getTime() + 60_000) };
                  const takenBack = engineCanTakeBack(definition, result.state, task.id, task.status, later);
                  expect(offered.irreversible.includes(status), `${actor.id} ${status} back`).toBe(
                    !takenBack,
                  );
                  // What the approvals list says without the flow's state agrees.
                  if (isApproval && byApproving) {
                    expect(offered.irreversible.includes('completed')).toBe(!mayChangeCompletedTasks(actor));
                  }
                }
              }
            }
            const result = apply(definition, state, commandOf(next, state, now, TASK_STATUSES), {
              actor: ACTORS[next.actor]!,
              now,
            });
            if (result.ok) state = result.state;
          }
        },
      ),
      { numRuns: 150 },
    );
    // Every state × actor × task × command: seconds of work, more on a busy machine.
  }, 60_000);
});
