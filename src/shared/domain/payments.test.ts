import { describe, expect, it } from 'vitest';
import {
  canCreateSecondPayment,
  firstPaymentStanding,
  type PaymentSubject,
  riskRefusal,
  secondPaymentStanding,
} from './payments';

const subject = (overrides: Partial<PaymentSubject> = {}): PaymentSubject => ({
  isRescinded: false,
  commission: { numberOfPayments: 2, payment2Date: null },
  firstFlow: null,
  secondFlow: null,
  ...overrides,
});

describe('how a commission’s payments stand (spec part 2 §4)', () => {
  it('shows Pago 1 as its flow’s status, Pendiente without one', () => {
    expect(firstPaymentStanding(subject())).toBe('pending');
    expect(firstPaymentStanding(subject({ firstFlow: { status: 'in_progress' } }))).toBe('in_progress');
    expect(firstPaymentStanding(subject({ firstFlow: { status: 'completed' } }))).toBe('completed');
  });

  it('shows Pago 2 only for two payments, completed when its flow is or payment 2 is dated', () => {
    expect(
      secondPaymentStanding(subject({ commission: { numberOfPayments: 1, payment2Date: null } })),
    ).toBeNull();
    expect(secondPaymentStanding(subject({ commission: null }))).toBeNull();
    expect(secondPaymentStanding(subject())).toBe('pending');
    expect(secondPaymentStanding(subject({ secondFlow: { status: 'completed' } }))).toBe('completed');
    expect(
      secondPaymentStanding(subject({ commission: { numberOfPayments: 2, payment2Date: '2026-01-01' } })),
    ).toBe('completed');
  });

  it('offers the second payment after a completed first flow, once, never on a rescinded reservation', () => {
    const ready = subject({ firstFlow: { status: 'completed' } });
    expect(canCreateSecondPayment(ready)).toBe(true);
    expect(canCreateSecondPayment({ ...ready, secondFlow: { status: 'pending' } })).toBe(false);
    expect(canCreateSecondPayment({ ...ready, isRescinded: true })).toBe(false);
    expect(
      canCreateSecondPayment({ ...ready, commission: { numberOfPayments: 1, payment2Date: null } }),
    ).toBe(false);
    expect(canCreateSecondPayment(subject({ firstFlow: { status: 'in_progress' } }))).toBe(false);
  });
});

describe("'Marcar En Riesgo': one rule for the payment flow and the consolidated view", () => {
  it('needs a commission and a live reservation from both; from a payment flow, the flow in progress', () => {
    const live = { hasCommission: true, isRescinded: false };
    expect(riskRefusal(live)).toBeNull();
    expect(riskRefusal({ ...live, flowStatus: 'in_progress' })).toBeNull();
    expect(riskRefusal({ ...live, hasCommission: false })).toBe('COMMISSION_NOT_CONFIGURED');
    for (const flowStatus of [undefined, 'in_progress'] as const) {
      expect(riskRefusal({ ...live, isRescinded: true, flowStatus })).toBe('RISK_ON_RESCINDED');
    }
    for (const flowStatus of ['pending', 'completed', 'cancelled'] as const) {
      expect(riskRefusal({ ...live, flowStatus })).toBe('RISK_ONLY_IN_PROGRESS');
    }
  });
});
