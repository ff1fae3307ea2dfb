import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BANK_FILE_FIELD_KEYS,
  type BankFileLayoutSpec,
  type BankFileLine,
  bankField,
  bankFileText,
  GENERIC_BANK_LAYOUT,
  separatorOf,
} from './bank-file';

/** Every way a reader might end a line: what must never appear inside a record. */
const ANY_LINE_END = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

const line = (values: Partial<BankFileLine> = {}): BankFileLine => ({
  holderRut: '76543210-3',
  holderName: 'Inversiones Andinas SpA',
  bankName: 'Banco de Chile',
  bankAccountType: 'Cuenta Corriente',
  bankAccountNumber: '001234567',
  amountClp: '3998363',
  reference: 'Comision reserva R-1 pago 1',
  email: null,
  brokerRut: '76543210-3',
  brokerName: 'Propiedades Andinas',
  reservationNumber: 'R-1',
  paymentNumber: 1,
  ...values,
});

/** Text of any kind: control characters, separators, quotes, line separators, astral characters. */
const hostileText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '\r',
      '\n',
      '\r\n',
      '\t',
      ';',
      ',',
      '|',
      '"',
      '\u0085',
      '\u2028',
      '\u2029',
      '\u202e',
      '\v',
    ),
    fc.string({ unit: 'grapheme', maxLength: 3 }),
    fc.string({ unit: 'binary', maxLength: 3 }),
  ),
  maxLength: 40,
});

const layoutArbitrary: fc.Arbitrary<BankFileLayoutSpec> = fc.record({
  name: fc.constant('Banco de prueba'),
  columns: fc.array(fc.record({ field: fc.constantFrom(...BANK_FILE_FIELD_KEYS), header: hostileText }), {
    minLength: 1,
    maxLength: 12,
  }),
  separator: fc.constantFrom(';' as const, ',' as const, '|' as const, 'tab' as const),
  hasHeader: fc.boolean(),
  encoding: fc.constantFrom('utf-8' as const, 'windows-1252' as const),
  maxRecords: fc.integer({ min: 1, max: 1000 }),
});

const lineArbitrary: fc.Arbitrary<BankFileLine> = fc.record(
  Object.fromEntries(BANK_FILE_FIELD_KEYS.map((key) => [key, fc.option(hostileText)])) as Record<
    keyof BankFileLine,
    fc.Arbitrary<string | null>
  >,
);

describe('the bank file', () => {
  it('writes the generic layout: a header, one record per payment, CRLF after each', () => {
    expect(bankFileText(GENERIC_BANK_LAYOUT, [line()])).toBe(
      'RUT Beneficiario;Nombre Beneficiario;Banco;Tipo de Cuenta;Número de Cuenta;Monto;Referencia;Correo Electrónico\r\n' +
        '76543210-3;Inversiones Andinas SpA;Banco de Chile;Cuenta Corriente;001234567;3998363;Comision reserva R-1 pago 1;\r\n',
    );
  });

  it("keeps a line break in 'Banco' from making a second record", () => {
    const text = bankFileText(GENERIC_BANK_LAYOUT, [
      line({ bankName: 'Banco de Chile\r\n99;X;Y;Z;1;9999999;ref;a@b.cl' }),
    ]);
    expect(text.split('\r\n')).toHaveLength(3);
    expect(text.split('\r\n')[1]!.split(';')).toHaveLength(8);
    expect(bankField('a\u2028b\tc;d', ';')).toBe('a b c d');
  });

  it('keeps one record per line and its columns for any text in any field, for any layout (property)', () => {
    fc.assert(
      fc.property(layoutArbitrary, fc.array(lineArbitrary, { maxLength: 8 }), (layout, lines) => {
        const text = bankFileText(layout, lines);
        const records = text.split('\r\n');
        // The text ends with CRLF: the last piece is empty; the rest are the records.
        expect(records.pop()).toBe('');
        expect(records).toHaveLength(lines.length + (layout.hasHeader ? 1 : 0));
        for (const record of records) {
          expect(ANY_LINE_END.test(record)).toBe(false);
          expect(record.split(separatorOf(layout))).toHaveLength(layout.columns.length);
        }
      }),
      { numRuns: 500 },
    );
  });
});
