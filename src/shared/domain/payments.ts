import type { FlowStatus } from './workflow/statuses';

/**
 * How a commission's payments stand (spec part 2 'Pagos', §4 'Commission flow'), for the list's
 * badges and the 'Crear Segundo Pago' button, on the server and in any export alike.
 */

/** A payment stands as its flow does ('Pendiente' without one). */
export type PaymentStanding = FlowStatus;

export interface PaymentSubject {
  isRescinded: boolean;
  commission: { numberOfPayments: 1 | 2; payment2Date: string | null } | null;
  firstFlow: { status: FlowStatus } | null;
  secondFlow: { status: FlowStatus } | null;
}

/** A flow's badge: no flow yet, or one not started, is 'Pendiente'. */
function standingOf(flow: { status: FlowStatus } | null): PaymentStanding {
  return flow ? flow.status : 'pending';
}

export function firstPaymentStanding(subject: PaymentSubject): PaymentStanding {
  return standingOf(subject.firstFlow);
}

/** Null without a second payment; completed when its flow is, or once payment 2 is dated. */
export function secondPaymentStanding(subject: PaymentSubject): PaymentStanding | null {
  if (subject.commission?.numberOfPayments !== 2) return null;
  if (subject.commission.payment2Date !== null) return 'completed';
  return standingOf(subject.secondFlow);
}

/**
 * 'Crear Segundo Pago' is offered when the commission has two payments, its first flow is completed
 * and no second flow exists (a rescinded reservation gets no new flow).
 */
export function canCreateSecondPayment(subject: PaymentSubject): boolean {
  return (
    !subject.isRescinded &&
    subject.commission?.numberOfPayments === 2 &&
    subject.firstFlow?.status === 'completed' &&
    subject.secondFlow === null
  );
}

/**
 * Why 'Marcar En Riesgo' / 'Editar Riesgo' is refused, or null: one rule for the payment flow and the
 * consolidated view. The commission must exist and the reservation must not be rescinded; from a
 * payment flow (`flowStatus` given), the flow must also be in progress. The service checks it under
 * the reservation's lock (commissions.setRiskOfReservationIn); the screens render the same answer.
 */
export function riskRefusal(subject: {
  hasCommission: boolean;
  isRescinded: boolean;
  flowStatus?: FlowStatus | undefined;
}): 'COMMISSION_NOT_CONFIGURED' | 'RISK_ON_RESCINDED' | 'RISK_ONLY_IN_PROGRESS' | null {
  if (!subject.hasCommission) return 'COMMISSION_NOT_CONFIGURED';
  if (subject.isRescinded) return 'RISK_ON_RESCINDED';
  if (subject.flowStatus !== undefined && subject.flowStatus !== 'in_progress')
    return 'RISK_ONLY_IN_PROGRESS';
  return null;
}
