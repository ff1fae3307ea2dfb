import { describe, expect, it } from 'vitest';
import {
  canCreateSecondPayment,
  firstPaymentStanding,
  type PaymentSubject,
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
