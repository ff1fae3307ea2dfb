import { describe, expect, it } from 'vitest';
import { unitSearchOf } from './global-search';
import { isTaken, policyBreaches, UNIT_STATUSES, unitName } from './stock';

const NONE = {
  reservationAmount: null,
  maxColumnDiscount: null,
  maxAdditionalDiscount: null,
  maxOtherDiscount: null,
  maxSubsidyFraction: null,
};
const TERMS = {
  reservationPayment: '20',
  columnDiscount: '0.05',
  additionalDiscount: '0',
  otherDiscount: '0',
  subsidyPayment: '300',
  totalPrice: '3000',
};

describe('the commercial policy', () => {
  it('limits nothing without limits, and exactly at a limit', () => {
    expect(policyBreaches(NONE, TERMS)).toEqual([]);
    expect(
      policyBreaches(
        { ...NONE, reservationAmount: '20', maxColumnDiscount: '0.05', maxSubsidyFraction: '0.1' },
        TERMS,
      ),
    ).toEqual([]);
  });

  it('names every limit exceeded, in Spanish', () => {
    expect(
      policyBreaches(
        {
          reservationAmount: '25',
          maxColumnDiscount: '0.04',
          maxAdditionalDiscount: '0',
          maxOtherDiscount: null,
          maxSubsidyFraction: '0.09',
        },
        { ...TERMS, additionalDiscount: '0.01' },
      ),
    ).toEqual([
      'el pago de reserva es menor que el monto de reserva (UF 25,00)',
      'el descuento columna supera el máximo (4,00 %)',
      'el descuento adicional supera el máximo (0,00 %)',
      'el bono pie supera el máximo (9,00 % del precio lista, UF 270,00)',
    ]);
  });
});

describe('units', () => {
  it('are taken in the three statuses a sale gives them', () => {
    expect(UNIT_STATUSES.filter(isTaken)).toEqual(['Reservada', 'Promesada', 'Escriturada']);
    expect(unitName({ kind: 'parking', number: 'E-12' })).toBe('Estacionamiento E-12');
  });

  it('are searched by number, kind word and project words', () => {
    expect(unitSearchOf(['depto', '1203', 'parque'])).toEqual({
      kind: 'apartment',
      number: '1203',
      projectWords: ['parque'],
    });
    expect(unitSearchOf(['bod', 'b-7'])).toEqual({ kind: 'storage', number: 'b-7', projectWords: [] });
    expect(unitSearchOf(['parque', 'nunoa'])).toBeNull();
  });
});
