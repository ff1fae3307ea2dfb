import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ConsolidatedCommission,
  consolidatedStatus,
  consolidatedTotals,
  paidAmount,
  paymentParts,
} from './broker-consolidated';
import { dec } from './decimal';

const base: ConsolidatedCommission = {
  commissionAmount: '100.00',
  numberOfPayments: 2,
  firstPaymentPercentage: 50,
  payment1Date: null,
  payment2Date: null,
  atRisk: false,
  isRescinded: false,
};

describe('consolidated totals (spec part 2 §9)', () => {
  it('splits a commission into its two payments, the first rounded half-up', () => {
    expect(
      paymentParts({ commissionAmount: '100.01', numberOfPayments: 2, firstPaymentPercentage: 50 }),
    ).toEqual({
      first: '50.01',
      second: '50.00',
    });
    expect(
      paymentParts({ commissionAmount: '10.00', numberOfPayments: 2, firstPaymentPercentage: 25 }),
    ).toEqual({
      first: '2.50',
      second: '7.50',
    });
    expect(
      paymentParts({ commissionAmount: '80.00', numberOfPayments: 1, firstPaymentPercentage: 100 }),
    ).toEqual({
      first: '80.00',
      second: '0.00',
    });
    // One payment pays all of it, whatever percentage an older record kept (as the payment flows do).
    expect(
      paymentParts({ commissionAmount: '80.00', numberOfPayments: 1, firstPaymentPercentage: 50 }),
    ).toEqual({
      first: '80.00',
      second: '0.00',
    });
  });

  it('pays what is dated: the first payment, the second, both', () => {
    expect(paidAmount(base)).toBe('0.00');
    expect(paidAmount({ ...base, payment1Date: '2027-01-10' })).toBe('50.00');
    expect(paidAmount({ ...base, payment2Date: '2027-02-10' })).toBe('50.00');
    expect(paidAmount({ ...base, payment1Date: '2027-01-10', payment2Date: '2027-02-10' })).toBe('100.00');
  });

  it('leaves rescinded and at-risk commissions out of the total; at risk counts their paid parts', () => {
    const totals = consolidatedTotals([
      { ...base, commissionAmount: '100.00', payment1Date: '2027-01-10' },
      {
        ...base,
        commissionAmount: '40.00',
        firstPaymentPercentage: 100,
        payment1Date: '2027-01-10',
        atRisk: true,
      },
      { ...base, commissionAmount: '30.00', payment1Date: '2027-01-10', isRescinded: true },
      { ...base, commissionAmount: '30.00', payment1Date: '2027-01-10', isRescinded: true, atRisk: true },
      { ...base, commissionAmount: '20.00' },
    ]);
    expect(totals).toEqual({
      totalCommission: '120.00',
      totalPaid: '50.00',
      totalAtRisk: '40.00',
      totalPending: '70.00',
    });
  });

  it('says each row standing', () => {
    expect(consolidatedStatus(base)).toBe('Pendiente');
    expect(consolidatedStatus({ ...base, payment1Date: '2027-01-10' })).toBe('Pago parcial');
    expect(consolidatedStatus({ ...base, payment1Date: '2027-01-10', payment2Date: '2027-02-01' })).toBe(
      'Pagada',
    );
    expect(consolidatedStatus({ ...base, firstPaymentPercentage: 100, payment1Date: '2027-01-10' })).toBe(
      'Pagada',
    );
    expect(consolidatedStatus({ ...base, atRisk: true })).toBe('En Riesgo');
    expect(consolidatedStatus({ ...base, atRisk: true, isRescinded: true })).toBe('Resciliada');
  });

  const commission = fc.record({
    commissionAmount: fc.integer({ min: 0, max: 10_000_000 }).map((cents) => (cents / 100).toFixed(2)),
    numberOfPayments: fc.constantFrom(1, 2),
    firstPaymentPercentage: fc.constantFrom(25, 50, 100),
    payment1Date: fc.option(fc.constant('2027-01-10'), { nil: null }),
    payment2Date: fc.option(fc.constant('2027-02-10'), { nil: null }),
    atRisk: fc.boolean(),
    isRescinded: fc.boolean(),
  });

  it('property: the two payments add up to the commission; paid never exceeds it', () => {
    fc.assert(
      fc.property(commission, (c) => {
        const { first, second } = paymentParts(c);
        expect(dec(first).plus(second).eq(dec(c.commissionAmount))).toBe(true);
        expect(dec(second).gte(0)).toBe(true);
        expect(dec(paidAmount(c)).lte(dec(c.commissionAmount))).toBe(true);
      }),
    );
  });

  it('property: pending = total − paid, never negative; totals add over any split of the rows', () => {
    fc.assert(
      fc.property(fc.array(commission, { maxLength: 30 }), fc.nat(), (rows, cut) => {
        const all = consolidatedTotals(rows);
        expect(dec(all.totalPending).eq(dec(all.totalCommission).minus(all.totalPaid))).toBe(true);
        expect(dec(all.totalPending).gte(0)).toBe(true);
        const at = rows.length === 0 ? 0 : cut % (rows.length + 1);
        const left = consolidatedTotals(rows.slice(0, at));
        const right = consolidatedTotals(rows.slice(at));
        for (const key of ['totalCommission', 'totalPaid', 'totalAtRisk', 'totalPending'] as const) {
          expect(dec(left[key]).plus(right[key]).eq(dec(all[key]))).toBe(true);
        }
        // Rescinded rows never count.
        const live = consolidatedTotals(rows.filter((row) => !row.isRescinded));
        expect(live).toEqual(all);
      }),
    );
  });
});
