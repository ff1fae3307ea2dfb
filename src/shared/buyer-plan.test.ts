import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMonths,
  allocate,
  buildPlan,
  clpToUf,
  daysLate,
  monthsBetween,
  splitDownPayment,
  sumUf,
} from './buyer-plan';
import { dec } from './domain/decimal';

/** A UF amount of two decimals (the reservation's figures) from hundredths. */
const ufOf = (hundredths: number) => (hundredths / 100).toFixed(2);
const day = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

describe('the pie in cuotas', () => {
  it('splits into four-decimal cuotas, the first ones carrying the remainder', () => {
    expect(splitDownPayment('100.00', 3)).toEqual(['33.3334', '33.3333', '33.3333']);
    expect(splitDownPayment('0.01', 3)).toEqual(['0.0034', '0.0033', '0.0033']);
    expect(splitDownPayment('250.00', 1)).toEqual(['250.0000']);
  });

  it('sums exactly to the pie, no two cuotas more than 0.0001 apart (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000_00 }),
        fc.integer({ min: 1, max: 120 }),
        (cents, count) => {
          const pie = ufOf(cents);
          const cuotas = splitDownPayment(pie, count);
          expect(cuotas).toHaveLength(count);
          expect(sumUf(cuotas)).toBe(dec(pie).toFixed(4));
          const values = cuotas.map((c) => dec(c));
          const max = values.reduce((a, b) => (a.gt(b) ? a : b));
          const min = values.reduce((a, b) => (a.lt(b) ? a : b));
          expect(max.minus(min).lte('0.0001')).toBe(true);
          for (const cuota of cuotas) expect(cuota).toMatch(/^\d+\.\d{4}$/);
        },
      ),
    );
  });
});

describe('due dates', () => {
  it('adds months keeping the day, or the month’s last day', () => {
    expect(addMonths('2027-01-31', 1)).toBe('2027-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2027-11-15', 3)).toBe('2028-02-15');
    expect(addMonths('2027-03-31', 12)).toBe('2028-03-31');
  });

  it('counts the cuotas that fit between the promise and the deed', () => {
    expect(monthsBetween('2027-01-15', '2027-07-15')).toBe(6);
    expect(monthsBetween('2027-01-15', '2027-07-14')).toBe(5);
    expect(monthsBetween('2027-01-15', '2027-01-20')).toBe(0);
  });

  it('builds the plan: reserva, promesa, then monthly cuotas after the promise', () => {
    const lines = buildPlan({
      reservationDate: '2027-01-10',
      reservationUf: '20.00',
      promiseDate: '2027-01-31',
      promiseUf: '100.00',
      downPaymentUf: '300.00',
      installmentCount: 3,
    });
    expect(lines).toEqual([
      { kind: 'reservation', number: 0, dueDate: '2027-01-10', amountUf: '20.0000' },
      { kind: 'promise', number: 0, dueDate: '2027-01-31', amountUf: '100.0000' },
      { kind: 'downPayment', number: 1, dueDate: '2027-02-28', amountUf: '100.0000' },
      { kind: 'downPayment', number: 2, dueDate: '2027-03-31', amountUf: '100.0000' },
      { kind: 'downPayment', number: 3, dueDate: '2027-04-30', amountUf: '100.0000' },
    ]);
  });

  it('due dates are monthly, strictly increasing, after the promise (property)', () => {
    fc.assert(
      fc.property(day, fc.integer({ min: 1, max: 60 }), (promiseDate, count) => {
        const lines = buildPlan({
          reservationDate: promiseDate,
          reservationUf: '0',
          promiseDate,
          promiseUf: '0',
          downPaymentUf: '60.00',
          installmentCount: count,
        });
        expect(lines).toHaveLength(count);
        let previous = promiseDate;
        for (const line of lines) {
          expect(line.dueDate > previous).toBe(true);
          expect(daysLate(previous, line.dueDate)).toBeGreaterThanOrEqual(28);
          expect(daysLate(previous, line.dueDate)).toBeLessThanOrEqual(31);
          previous = line.dueDate;
        }
      }),
    );
  });
});

describe('payments applied oldest first', () => {
  it('fills each line before the next; what is more than the plan stays unapplied', () => {
    const lines = [{ amountUf: '10.0000' }, { amountUf: '5.0000' }, { amountUf: '5.0000' }];
    expect(allocate(lines, '12.5')).toEqual({
      paidUf: ['10.0000', '2.5000', '0.0000'],
      unappliedUf: '0.0000',
    });
    expect(allocate(lines, '0')).toEqual({ paidUf: ['0.0000', '0.0000', '0.0000'], unappliedUf: '0.0000' });
    expect(allocate(lines, '21')).toEqual({ paidUf: ['10.0000', '5.0000', '5.0000'], unappliedUf: '1.0000' });
  });

  it('loses and doubles no UF: applied plus unapplied is what was paid, no line over its amount (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 5_000_000 }), { maxLength: 30 }),
        (lineUnits, paymentUnits) => {
          const lines = lineUnits.map((units) => ({ amountUf: (units / 10_000).toFixed(4) }));
          const paid = sumUf(paymentUnits.map((units) => (units / 10_000).toFixed(4)));
          const { paidUf, unappliedUf } = allocate(lines, paid);
          expect(dec(sumUf(paidUf)).plus(dec(unappliedUf)).toFixed(4)).toBe(paid);
          let seenShort = false;
          paidUf.forEach((applied, index) => {
            const amount = dec(lines[index]!.amountUf);
            expect(dec(applied).gte(0) && dec(applied).lte(amount)).toBe(true);
            // Oldest first: once a line is short, every later line is unpaid.
            if (seenShort) expect(applied).toBe('0.0000');
            if (dec(applied).lt(amount)) seenShort = true;
          });
          if (dec(unappliedUf).gt(0)) expect(seenShort).toBe(false);
        },
      ),
    );
  });

  it('is the same whether payments are applied together or one after another (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 20 }),
        fc.array(fc.integer({ min: 0, max: 500_000 }), { minLength: 1, maxLength: 10 }),
        (lineUnits, paymentUnits) => {
          const lines = lineUnits.map((units) => ({ amountUf: (units / 10_000).toFixed(4) }));
          const payments = paymentUnits.map((units) => (units / 10_000).toFixed(4));
          const together = allocate(lines, sumUf(payments));
          // One at a time: each payment fills what the earlier ones left.
          const remaining = lines.map((line) => ({ amountUf: line.amountUf }));
          const applied = lines.map(() => dec(0));
          let unapplied = dec(0);
          for (const payment of payments) {
            const step = allocate(remaining, payment);
            step.paidUf.forEach((value, index) => {
              applied[index] = applied[index]!.plus(dec(value));
              remaining[index] = { amountUf: dec(remaining[index]!.amountUf).minus(dec(value)).toFixed(4) };
            });
            unapplied = unapplied.plus(dec(step.unappliedUf));
          }
          expect(applied.map((value) => value.toFixed(4))).toEqual(together.paidUf);
          expect(unapplied.toFixed(4)).toBe(together.unappliedUf);
        },
      ),
    );
  });
});

describe('pesos and days', () => {
  it('turns pesos into UF at the day’s value, four decimals half-up', () => {
    expect(clpToUf('3890000', '38900.00')).toBe('100.0000');
    expect(clpToUf('1000', '38900.00')).toBe('0.0257');
  });

  it('counts days late on the calendar', () => {
    expect(daysLate('2027-01-31', '2027-02-01')).toBe(1);
    expect(daysLate('2027-03-01', '2027-03-01')).toBe(0);
    expect(daysLate('2027-03-10', '2027-03-01')).toBe(-9);
    expect(daysLate('2026-12-31', '2027-12-31')).toBe(365);
  });
});
