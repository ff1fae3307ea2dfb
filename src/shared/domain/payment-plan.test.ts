import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from './decimal';
import { paymentPlan, paymentPlanInClp, reservationPaymentsOf, splitInstallments } from './payment-plan';
import { reservationFigures } from './pricing';

const base = {
  apartmentPrice: '3000',
  parkingPrice: '150',
  storagePrice: '50',
  columnDiscount: '0.05',
  additionalDiscount: '0.02',
  otherDiscount: '0.01',
  reservationAmount: '20',
  downPaymentFraction: '0.2',
  installments: 12,
  subsidyAmount: '100',
};

const sum = (parts: string[]) => parts.reduce((total, part) => total.plus(dec(part)), dec(0));

describe('splitInstallments', () => {
  it('splits 100 UF in 3 cuotas of four decimals adding up exactly', () => {
    expect(splitInstallments('100', 3)).toEqual(['33.3334', '33.3333', '33.3333']);
  });

  it('gives the ten-thousandths left over to the first cuotas', () => {
    expect(splitInstallments('0.0005', 3)).toEqual(['0.0002', '0.0002', '0.0001']);
    expect(splitInstallments('573.01', 1)).toEqual(['573.0100']);
  });

  it('refuses a count below one and a total with more than four decimals', () => {
    expect(() => splitInstallments('10', 0)).toThrow(RangeError);
    expect(() => splitInstallments('0.00001', 2)).toThrow(RangeError);
  });

  it('always adds up exactly, with parts that differ by at most 0.0001 (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000_000 }),
        fc.integer({ min: 1, max: 120 }),
        (units, count) => {
          const total = dec(units).div(10_000).toFixed(4);
          const parts = splitInstallments(total, count);
          expect(parts).toHaveLength(count);
          expect(sum(parts).eq(dec(total))).toBe(true);
          const values = parts.map((part) => dec(part));
          const high = values.reduce((a, b) => (a.gt(b) ? a : b));
          const low = values.reduce((a, b) => (a.lt(b) ? a : b));
          expect(high.minus(low).lte(dec('0.0001'))).toBe(true);
          for (const part of parts) expect(part).toMatch(/^\d+\.\d{4}$/);
        },
      ),
    );
  });
});

describe('paymentPlan', () => {
  it('prices like a reservation and splits the pie: reserva, cuotas, crédito, subsidio', () => {
    const { plan, refusal } = paymentPlan(base);
    expect(refusal).toBeNull();
    // 3000 × 0.95 × 0.98 × 0.99 = 2765.07; + 150 + 50 = 2965.07 (the reservation's minimum price)
    expect(plan).toMatchObject({
      listPrice: '3200.00',
      finalPrice: '2965.07',
      discountAmount: '234.93',
      reservation: '20.00',
      // 20 % of 2965.07 = 593.014 → 593.01
      downPayment: '593.01',
      downPaymentBalance: '573.01',
      subsidy: '100.00',
      credit: '2272.06',
    });
    expect(plan!.installments).toHaveLength(12);
    // 573.01 / 12 = 47.750833…: twelve of 47.7508 leave 0.0004, one ten-thousandth to each of the first four.
    expect(plan!.installments.slice(0, 5)).toEqual(['47.7509', '47.7509', '47.7509', '47.7509', '47.7508']);
    expect(sum(plan!.installments).toFixed(4)).toBe('573.0100');
  });

  it('refuses a reserva larger than the pie, and a pie and subsidio beyond the price', () => {
    expect(paymentPlan({ ...base, downPaymentFraction: '0.005' }).refusal).toBe(
      'RESERVATION_OVER_DOWN_PAYMENT',
    );
    expect(paymentPlan({ ...base, subsidyAmount: '2500' }).refusal).toBe('PLAN_OVER_PRICE');
  });

  it('gives pesos line by line at the UF value, half-up to whole pesos', () => {
    const { plan } = paymentPlan(base);
    const clp = paymentPlanInClp(plan!, '39000.50');
    // 2965.07 × 39000.50 = 115639212.535 → 115639213 (half-up)
    expect(clp.finalPrice).toBe('115639213');
    expect(clp.reservation).toBe('780010');
  });

  it('always adds up: reserva + cuotas + crédito + subsidio = final price = the reservation it becomes (property)', () => {
    const uf = fc.integer({ min: 0, max: 2_000_000 }).map((cents) => dec(cents).div(100).toFixed(2));
    const fraction = fc
      .integer({ min: 0, max: 300 })
      .map((thousandths) => dec(thousandths).div(1000).toFixed(3));
    fc.assert(
      fc.property(
        uf,
        uf,
        uf,
        fraction,
        fraction,
        fc.integer({ min: 0, max: 1000 }).map((thousandths) => dec(thousandths).div(1000).toFixed(3)),
        fc.integer({ min: 0, max: 5000 }).map((cents) => dec(cents).div(100).toFixed(2)),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 0, max: 50_000 }).map((cents) => dec(cents).div(100).toFixed(2)),
        (apartment, parking, storage, column, additional, pieFraction, reserva, installments, subsidy) => {
          const input = {
            ...base,
            apartmentPrice: apartment,
            parkingPrice: parking,
            storagePrice: storage,
            columnDiscount: column,
            additionalDiscount: additional,
            otherDiscount: '0',
            downPaymentFraction: pieFraction,
            reservationAmount: reserva,
            installments,
            subsidyAmount: subsidy,
          };
          const { plan, refusal } = paymentPlan(input);
          if (!plan) {
            expect(refusal).not.toBeNull();
            return;
          }
          const paid = dec(plan.reservation)
            .plus(sum(plan.installments))
            .plus(plan.credit)
            .plus(plan.subsidy);
          expect(paid.eq(dec(plan.finalPrice))).toBe(true);
          expect(sum(plan.installments).eq(dec(plan.downPaymentBalance))).toBe(true);
          expect(dec(plan.credit).gte(0)).toBe(true);
          const reservation = reservationFigures({ ...input, ...reservationPaymentsOf(plan) });
          expect(reservation.minimumPrice).toBe(plan.finalPrice);
          expect(reservation.totalPayment).toBe(plan.finalPrice);
        },
      ),
    );
  });
});
