import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Big } from './decimal';
import { commissionFigures, fractionToPercent, percentToFraction, reservationFigures } from './pricing';

const zeroPayments = {
  reservationPayment: '0',
  promisePayment: '0',
  downPayment: '0',
  creditPayment: '0',
  subsidyPayment: '0',
};

describe('reservation figures', () => {
  it('applies the three discounts one after the other, then adds parking and storage', () => {
    // 3000 × 0.95 × 0.98 × 0.99 = 2765.07; + 150 + 50
    const figures = reservationFigures({
      apartmentPrice: '3000',
      parkingPrice: '150',
      storagePrice: '50',
      columnDiscount: '0.05',
      additionalDiscount: '0.02',
      otherDiscount: '0.01',
      ...zeroPayments,
    });
    expect(figures.minimumPrice).toBe('2965.07');
    expect(figures.totalPrice).toBe('3200.00');
  });

  it('rounds the minimum price half-up to two decimals', () => {
    // 1000.05 × 0.95 = 950.0475 -> 950.05
    const figures = reservationFigures({
      apartmentPrice: '1000.05',
      parkingPrice: '0',
      storagePrice: '0',
      columnDiscount: '0.05',
      additionalDiscount: '0',
      otherDiscount: '0',
      ...zeroPayments,
    });
    expect(figures.minimumPrice).toBe('950.05');
  });

  it('leaves the price whole with no discount and keeps only parking and storage with 100 %', () => {
    const base = { apartmentPrice: '2500.50', parkingPrice: '120', storagePrice: '30.25', ...zeroPayments };
    expect(
      reservationFigures({ ...base, columnDiscount: '0', additionalDiscount: '0', otherDiscount: '0' })
        .minimumPrice,
    ).toBe('2650.75');
    expect(
      reservationFigures({ ...base, columnDiscount: '1', additionalDiscount: '0', otherDiscount: '0.5' })
        .minimumPrice,
    ).toBe('150.25');
  });

  it('sums the five payments and subtracts the subsidy (Bono Pie) from the recovery', () => {
    const figures = reservationFigures({
      apartmentPrice: '0',
      parkingPrice: '0',
      storagePrice: '0',
      columnDiscount: '0',
      additionalDiscount: '0',
      otherDiscount: '0',
      reservationPayment: '10.5',
      promisePayment: '100',
      downPayment: '200.25',
      creditPayment: '2500',
      subsidyPayment: '150',
    });
    expect(figures.totalPayment).toBe('2960.75');
    expect(figures.recoveryPayment).toBe('2810.75');
  });

  it('never exceeds the list price and never goes below parking plus storage (property)', () => {
    const amount = fc
      .integer({ min: 0, max: 100_000_000 })
      .map((cents) => new Big(cents).div(100).toFixed(2));
    const fraction = fc
      .integer({ min: 0, max: 1_000_000 })
      .map((millionths) => new Big(millionths).div(1_000_000).toFixed(6));
    fc.assert(
      fc.property(
        amount,
        amount,
        amount,
        fraction,
        fraction,
        fraction,
        (apartment, parking, storage, d1, d2, d3) => {
          const figures = reservationFigures({
            apartmentPrice: apartment,
            parkingPrice: parking,
            storagePrice: storage,
            columnDiscount: d1,
            additionalDiscount: d2,
            otherDiscount: d3,
            ...zeroPayments,
          });
          const minimum = new Big(figures.minimumPrice);
          expect(minimum.lte(figures.totalPrice)).toBe(true);
          expect(minimum.gte(new Big(parking).plus(storage))).toBe(true);
          expect(figures.minimumPrice).toMatch(/^\d+\.\d{2}$/);
        },
      ),
    );
  });

  it('is independent of the order of the discounts up to rounding (property)', () => {
    const fraction = fc.integer({ min: 0, max: 100_000 }).map((n) => new Big(n).div(100_000).toFixed(6));
    fc.assert(
      fc.property(fraction, fraction, fraction, (d1, d2, d3) => {
        const at = (a: string, b: string, c: string) =>
          reservationFigures({
            apartmentPrice: '5000',
            parkingPrice: '0',
            storagePrice: '0',
            columnDiscount: a,
            additionalDiscount: b,
            otherDiscount: c,
            ...zeroPayments,
          }).minimumPrice;
        expect(at(d1, d2, d3)).toBe(at(d3, d1, d2));
      }),
    );
  });
});

describe('commission figures', () => {
  const reservation = {
    minimumPrice: '3000.00',
    recoveryPayment: '3100.00',
    parkingPrice: '150',
    storagePrice: '50',
  };

  it('nets out the 19 % tax when the commission includes it', () => {
    const withTax = commissionFigures(
      {
        commissionAmount: '119',
        commissionIncludesTax: true,
        paysSecondary: false,
        numberOfPayments: 1,
        firstPaymentPercentage: 100,
      },
      reservation,
    );
    expect(withTax.netCommission).toBe('100.00');
    const withoutTax = commissionFigures(
      {
        commissionAmount: '119',
        commissionIncludesTax: false,
        paysSecondary: false,
        numberOfPayments: 1,
        firstPaymentPercentage: 100,
      },
      reservation,
    );
    expect(withoutTax.netCommission).toBe('119.00');
    // 100 / 1.19 = 84.0336... -> 84.03
    expect(
      commissionFigures(
        {
          commissionAmount: '100',
          commissionIncludesTax: true,
          paysSecondary: false,
          numberOfPayments: 1,
          firstPaymentPercentage: 100,
        },
        reservation,
      ).netCommission,
    ).toBe('84.03');
  });

  it('takes parking and storage out of the base unless pays_secondary', () => {
    const common = {
      commissionAmount: '56',
      commissionIncludesTax: true,
      numberOfPayments: 1 as const,
      firstPaymentPercentage: 100 as const,
    };
    const apartmentOnly = commissionFigures({ ...common, paysSecondary: false }, reservation);
    expect(apartmentOnly.commissionBase).toBe('2800.00');
    expect(apartmentOnly.commissionPercentage).toBe('2.00');
    const whole = commissionFigures({ ...common, paysSecondary: true }, reservation);
    expect(whole.commissionBase).toBe('3000.00');
    expect(whole.commissionPercentage).toBe('1.87');
  });

  it('splits the commission into a first payment and the remainder', () => {
    const one = commissionFigures(
      {
        commissionAmount: '90.01',
        commissionIncludesTax: true,
        paysSecondary: false,
        numberOfPayments: 1,
        firstPaymentPercentage: 100,
      },
      reservation,
    );
    expect([
      one.firstPaymentAmount,
      one.firstPaymentPercentage,
      one.secondPaymentAmount,
      one.secondPaymentPercentage,
    ]).toEqual(['90.01', '100', '0.00', '0']);
    const quarter = commissionFigures(
      {
        commissionAmount: '90.01',
        commissionIncludesTax: true,
        paysSecondary: false,
        numberOfPayments: 2,
        firstPaymentPercentage: 25,
      },
      reservation,
    );
    // 90.01 × 25 % = 22.5025 -> 22.50; the remainder keeps every cent.
    expect([
      quarter.firstPaymentAmount,
      quarter.secondPaymentAmount,
      quarter.secondPaymentPercentage,
    ]).toEqual(['22.50', '67.51', '75']);
    const half = commissionFigures(
      {
        commissionAmount: '100',
        commissionIncludesTax: true,
        paysSecondary: false,
        numberOfPayments: 2,
        firstPaymentPercentage: 50,
      },
      reservation,
    );
    expect([half.firstPaymentAmount, half.secondPaymentAmount]).toEqual(['50.00', '50.00']);
  });

  it('computes the difference as recovery minus minimum price minus commission (may be negative)', () => {
    const figures = commissionFigures(
      {
        commissionAmount: '150',
        commissionIncludesTax: true,
        paysSecondary: false,
        numberOfPayments: 1,
        firstPaymentPercentage: 100,
      },
      reservation,
    );
    expect(figures.difference).toBe('-50.00');
  });

  it('gives 0 % when the base is 0', () => {
    const figures = commissionFigures(
      {
        commissionAmount: '10',
        commissionIncludesTax: false,
        paysSecondary: false,
        numberOfPayments: 1,
        firstPaymentPercentage: 100,
      },
      { minimumPrice: '200', recoveryPayment: '0', parkingPrice: '150', storagePrice: '50' },
    );
    expect(figures.commissionPercentage).toBe('0.00');
  });

  it('always pays exactly the commission across both payments (property)', () => {
    const cents = fc.integer({ min: 0, max: 10_000_000 });
    fc.assert(
      fc.property(
        cents,
        fc.constantFrom(25 as const, 50 as const, 100 as const),
        fc.constantFrom(1 as const, 2 as const),
        (amount, pct, payments) => {
          const gross = new Big(amount).div(100).toFixed(2);
          const figures = commissionFigures(
            {
              commissionAmount: gross,
              commissionIncludesTax: true,
              paysSecondary: false,
              numberOfPayments: payments,
              firstPaymentPercentage: pct,
            },
            reservation,
          );
          expect(new Big(figures.firstPaymentAmount).plus(figures.secondPaymentAmount).toFixed(2)).toBe(
            gross,
          );
          expect(Number(figures.firstPaymentPercentage) + Number(figures.secondPaymentPercentage)).toBe(100);
          expect(new Big(figures.netCommission).lte(gross)).toBe(true);
        },
      ),
    );
  });
});

describe('discount percent <-> fraction', () => {
  it('stores a percent as a fraction with six decimals, never clamped (the schema refuses what is out of range)', () => {
    expect(percentToFraction(12.5)).toBe('0.125000');
    expect(percentToFraction('0.001')).toBe('0.000010');
    expect(percentToFraction(150)).toBe('1.500000');
    expect(percentToFraction(-3)).toBe('-0.030000');
    expect(fractionToPercent('0.125000')).toBe(12.5);
    expect(fractionToPercent('0.000010')).toBe(0.001);
  });
});
