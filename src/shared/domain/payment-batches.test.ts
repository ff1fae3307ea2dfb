import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountToPay,
  bankDataProblem,
  batchTotal,
  isAccountNumber,
  lastFour,
  normaliseAccountNumber,
  notPayableReasons,
  paymentReference,
} from './payment-batches';

const BANK = {
  bankName: 'Banco de Chile',
  bankAccountType: 'Cuenta Corriente',
  bankAccountNumber: '00123456',
};

describe('payment batches', () => {
  it('reads an account number as its digits, 4 to 20 of them', () => {
    expect(normaliseAccountNumber('0-000-71-23456-8')).toBe('000071234568');
    expect(normaliseAccountNumber(' 12.345 678 ')).toBe('12345678');
    expect(isAccountNumber('123')).toBe(false);
    expect(isAccountNumber('1234')).toBe(true);
    expect(isAccountNumber('1'.repeat(21))).toBe(false);
    expect(isAccountNumber('12a45')).toBe(false);
  });

  it('says which bank data is missing', () => {
    expect(bankDataProblem(BANK)).toBeNull();
    expect(bankDataProblem({ bankName: null, bankAccountType: null, bankAccountNumber: null })).toBe(
      'El broker no tiene datos bancarios',
    );
    expect(bankDataProblem({ ...BANK, bankAccountNumber: null })).toBe(
      'Faltan datos bancarios del broker: número de cuenta',
    );
  });

  it("pays a factura's total and a boleta's net to pay", () => {
    expect(amountToPay({ kind: 'taxed', totalAmount: '4000000', payableAmount: null })).toBe('4000000');
    expect(amountToPay({ kind: 'exempt', totalAmount: '3000000', payableAmount: null })).toBe('3000000');
    expect(amountToPay({ kind: 'fees', totalAmount: null, payableAmount: '3390000' })).toBe('3390000');
  });

  it('adds whole pesos exactly, whatever the count', () => {
    expect(batchTotal([])).toBe('0');
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 999_999_999 }), { maxLength: 1000 }), (amounts) => {
        const total = batchTotal(amounts.map(String));
        expect(BigInt(total)).toBe(amounts.reduce((sum, amount) => sum + BigInt(amount), 0n));
      }),
    );
  });

  it('names the transfer by reservation and payment, within 60 characters and without accents', () => {
    expect(paymentReference('R-1042', false)).toBe('Comision reserva R-1042 pago 1');
    expect(paymentReference('R-1042', true)).toBe('Comision reserva R-1042 pago 2');
    expect(paymentReference('X'.repeat(80), false)).toHaveLength(60);
  });

  it('gives every reason a payment cannot go into a batch at once: open batch, bank data, verification, invoice', () => {
    const ready = { state: 'ready' as const, folio: '77', amountToPay: '4000000' };
    const verified = { ...BANK, openBatchNumber: null, isBankVerified: true };
    expect(notPayableReasons(verified, ready)).toEqual([]);
    expect(notPayableReasons({ ...verified, openBatchNumber: 3 }, ready)).toEqual([
      'Ya está en la nómina abierta N° 3',
    ]);
    expect(
      notPayableReasons(
        {
          bankName: null,
          bankAccountType: null,
          bankAccountNumber: null,
          openBatchNumber: null,
          isBankVerified: false,
        },
        { state: 'missing' },
      ),
    ).toEqual(['El broker no tiene datos bancarios', 'Falta registrar la factura del broker']);
    expect(
      notPayableReasons(
        { ...verified, isBankVerified: false, openBatchNumber: 2 },
        { state: 'mismatch', folio: '77' },
      ),
    ).toEqual([
      'Ya está en la nómina abierta N° 2',
      'Cuenta por verificar: otra persona de pagos debe verificar el cambio de cuenta del broker',
      'La factura folio 77 no cuadra con el pago y un administrador no ha aceptado la diferencia',
    ]);
    expect(notPayableReasons(verified, { state: 'ready', folio: '8', amountToPay: null })).toEqual([
      'La factura no indica el monto a pagar',
    ]);
  });

  it('shows no more of an account than its last four digits', () => {
    expect(lastFour('00123456789')).toBe('···· 6789');
  });
});
