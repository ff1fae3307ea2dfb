import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from './decimal';
import { commissionFigures } from './pricing';
import { isCommissionPaid, isRescissionConfirmed, type PenaltyInput, rescissionPenalty } from './rescission';

const commission = (overrides: Partial<PenaltyInput> = {}): PenaltyInput => ({
  commissionAmount: '150.00',
  numberOfPayments: 2,
  firstPaymentPercentage: 50,
  payment1Date: null,
  payment2Date: null,
  ...overrides,
});

describe('the rescission penalty (workflows.md §5)', () => {
  it('is the share of each dated payment', () => {
    expect(rescissionPenalty(commission())).toBe('0.00');
    expect(rescissionPenalty(commission({ payment1Date: '2026-01-10' }))).toBe('75.00');
    expect(rescissionPenalty(commission({ payment1Date: '2026-01-10', payment2Date: '2026-03-01' }))).toBe(
      '150.00',
    );
    expect(rescissionPenalty(commission({ firstPaymentPercentage: 25, payment1Date: '2026-01-10' }))).toBe(
      '37.50',
    );
    expect(rescissionPenalty(commission({ firstPaymentPercentage: 25, payment2Date: '2026-03-01' }))).toBe(
      '112.50',
    );
    // One payment: its first payment is the whole commission, whatever percentage was stored.
    expect(
      rescissionPenalty(
        commission({ numberOfPayments: 1, firstPaymentPercentage: 50, payment1Date: '2026-01-10' }),
      ),
    ).toBe('150.00');
  });

  it('rounds each share as the commission screens do (half up, to the cent)', () => {
    expect(rescissionPenalty(commission({ commissionAmount: '100.01', payment1Date: '2026-01-10' }))).toBe(
      '50.01',
    );
    expect(
      rescissionPenalty(
        commission({ commissionAmount: '100.01', firstPaymentPercentage: 25, payment1Date: 'x' }),
      ),
    ).toBe('25.00');
  });

  const amounts = fc.integer({ min: 0, max: 100_000_000 }).map((cents) => (cents / 100).toFixed(2));
  const penaltyInputs = fc.record({
    commissionAmount: amounts,
    numberOfPayments: fc.constantFrom(1 as const, 2 as const),
    firstPaymentPercentage: fc.constantFrom(25 as const, 50 as const, 100 as const),
    payment1Date: fc.option(fc.constant('2026-01-10'), { nil: null }),
    payment2Date: fc.option(fc.constant('2026-03-01'), { nil: null }),
  });

  it('is never negative nor above the commission, and is the whole commission once both payments are dated', () => {
    fc.assert(
      fc.property(penaltyInputs, (input) => {
        const penalty = dec(rescissionPenalty(input));
        expect(penalty.gte(0)).toBe(true);
        expect(penalty.lte(dec(input.commissionAmount))).toBe(true);
        const fullyPaid =
          input.payment1Date !== null && (input.numberOfPayments === 1 || input.payment2Date !== null);
        if (fullyPaid) expect(penalty.eq(dec(input.commissionAmount))).toBe(true);
        if (!isCommissionPaid(input)) expect(penalty.eq(0)).toBe(true);
      }),
    );
  });

  it('equals the first and second payment amounts the commission screens show for the dated payments', () => {
    fc.assert(
      fc.property(penaltyInputs, (input) => {
        const figures = commissionFigures(
          { ...input, commissionIncludesTax: true, paysSecondary: false },
          { minimumPrice: '3000', recoveryPayment: '3000', parkingPrice: '0', storagePrice: '0' },
        );
        const expected = dec(input.payment1Date ? figures.firstPaymentAmount : 0).plus(
          input.numberOfPayments === 2 && input.payment2Date ? figures.secondPaymentAmount : 0,
        );
        expect(rescissionPenalty(input)).toBe(expected.toFixed(2));
      }),
    );
  });
});

describe('the rescission confirmation', () => {
  it('is exactly CONFIRMAR or CONFIRMACIÓN', () => {
    expect(isRescissionConfirmed('CONFIRMAR')).toBe(true);
    expect(isRescissionConfirmed('CONFIRMACIÓN')).toBe(true);
    for (const text of ['confirmar', 'CONFIRMACION', ' CONFIRMAR', 'CONFIRMAR.', '']) {
      expect(isRescissionConfirmed(text)).toBe(false);
    }
  });
});
