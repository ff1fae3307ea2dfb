import { describe, expect, it } from 'vitest';
import { apply, instantiate } from './engine';
import { ADMIN, ANA, BRUNO, definitionOf, idGenerator, minutes, T0 } from './engine-testing';
import { noticesOf } from './notices';
import type { FlowCommand, FlowState, WorkflowDefinition } from './types';

// A payment-style chain: Solicitud → VB (an approval) → Pago.
const PAYMENT = definitionOf(
  { Aprobación: ['Solicitud', 'VB JI'], Pago: ['Pago'] },
  { opening: 'prerequisites' },
);

function run(definition: WorkflowDefinition, state: FlowState, command: FlowCommand, actor = ADMIN, at = 1) {
  const result = apply(definition, state, command, { actor, now: minutes(at), subjectClosed: false });
  if (!result.ok) throw new Error(result.refusal);
  return { before: state, state: result.state, events: result.events, actorId: actor.id };
}

const notices = (definition: WorkflowDefinition, step: ReturnType<typeof run>) =>
  noticesOf(definition, definition.kind, step.before, step.state, step.events, step.actorId);

function startedPayment() {
  const { state } = instantiate(PAYMENT, {
    flowId: 'p',
    now: T0,
    actorId: 'admin',
    sellerId: null,
    newId: idGenerator('t'),
  });
  const started = run(PAYMENT, state, { type: 'start' });
  return started.state;
}

describe('what a command tells people by e-mail', () => {
  it('tells an assignee of an ordinary task, never the actor of their own assignment', () => {
    const state = startedPayment();
    const solicitud = state.tasks[0]!.id;
    expect(
      notices(PAYMENT, run(PAYMENT, state, { type: 'assign', taskRowId: solicitud, userId: ANA.id })),
    ).toEqual([{ kind: 'assigned', userId: ANA.id, taskRowId: solicitud }]);
    expect(
      notices(PAYMENT, run(PAYMENT, state, { type: 'assign', taskRowId: solicitud, userId: ADMIN.id })),
    ).toEqual([]);
  });

  it('tells the approver once the approval is open and theirs, not while it waits for its request', () => {
    let state = startedPayment();
    const [solicitud, vb] = [state.tasks[0]!.id, state.tasks[1]!.id];
    // Assigned while blocked: an ordinary assignment.
    const early = run(PAYMENT, state, { type: 'assign', taskRowId: vb, userId: BRUNO.id });
    expect(notices(PAYMENT, early)).toEqual([{ kind: 'assigned', userId: BRUNO.id, taskRowId: vb }]);
    state = run(PAYMENT, early.state, { type: 'assign', taskRowId: solicitud, userId: ANA.id }).state;
    // Ana completes the request: the approval opens, waiting for Bruno.
    const requested = run(
      PAYMENT,
      state,
      { type: 'setStatus', taskRowId: solicitud, status: 'completed' },
      ANA,
    );
    expect(notices(PAYMENT, requested)).toEqual([{ kind: 'approval', userId: BRUNO.id, taskRowId: vb }]);
    // Bruno rejects it: Ana, who requested it, hears why; Bruno nothing.
    const rejected = run(
      PAYMENT,
      requested.state,
      { type: 'reject', taskRowId: vb, reason: 'Falta la factura' },
      BRUNO,
    );
    expect(notices(PAYMENT, rejected)).toEqual([
      { kind: 'rejected', userId: ANA.id, taskRowId: vb, reason: 'Falta la factura', by: BRUNO.id },
    ]);
  });

  it('tells the KAM once, when the payment flow becomes completed', () => {
    let state = startedPayment();
    for (const task of state.tasks.slice(0, 2)) {
      state = run(PAYMENT, state, { type: 'setStatus', taskRowId: task.id, status: 'completed' }).state;
    }
    const last = run(PAYMENT, state, {
      type: 'setStatus',
      taskRowId: state.tasks[2]!.id,
      status: 'completed',
    });
    expect(notices(PAYMENT, last)).toEqual([{ kind: 'paymentCompleted', flowId: 'p' }]);
    // A date corrected on the completed flow raises flowCompleted again: no second notice.
    const corrected = run(PAYMENT, last.state, { type: 'editFlowDates', completedAt: minutes(5) });
    expect(corrected.events.some((event) => event.type === 'flowCompleted')).toBe(true);
    expect(notices(PAYMENT, corrected)).toEqual([]);
  });
});
