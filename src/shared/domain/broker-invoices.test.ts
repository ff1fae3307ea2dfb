import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkInvoice,
  claimCountdown,
  explainPaidAmount,
  type InvoiceFigures,
  netOfGross,
  type PaymentExpectation,
  percentOf,
  roundingTolerance,
  taxedInvoiceOfPayment,
  vatOf,
  withholdingRateOf,
} from './broker-invoices';
import { Big } from './decimal';

const RATES = [
  { year: 2025, rate: '14.50' },
  { year: 2026, rate: '15.25' },
  { year: 2027, rate: '16.00' },
  { year: 2028, rate: '17.00' },
];

const payment = (overrides: Partial<PaymentExpectation> = {}): PaymentExpectation => ({
  brokerRut: '76543210-3',
  clp: '1000000',
  includesVat: false,
  withholdingRate: null,
  ...overrides,
});

const taxed = (net: string, vat: string, total: string): InvoiceFigures => ({
  kind: 'taxed',
  issuerRut: '76.543.210-3',
  issueDate: '2026-11-16',
  netAmount: net,
  vatAmount: vat,
  totalAmount: total,
  grossAmount: null,
  withholdingAmount: null,
  payableAmount: null,
});

const fees = (
  gross: string,
  withholding: string,
  payable: string,
  issueDate = '2026-11-16',
): InvoiceFigures => ({
  kind: 'fees',
  issuerRut: '76543210-3',
  issueDate,
  netAmount: null,
  vatAmount: null,
  totalAmount: null,
  grossAmount: gross,
  withholdingAmount: withholding,
  payableAmount: payable,
});

const line = (check: ReturnType<typeof checkInvoice>, key: string) => check.lines.find((l) => l.key === key)!;

describe('vatOf', () => {
  it('rounds 19 % half-up at the half peso', () => {
    // 50 × 0,19 = 9,5 → 10; 150 × 0,19 = 28,5 → 29; 49 × 0,19 = 9,31 → 9
    expect(vatOf('50')).toBe('10');
    expect(vatOf('150')).toBe('29');
    expect(vatOf('49')).toBe('9');
    expect(vatOf('3361345')).toBe('638656');
  });

  it('is 19 % of the net within half a peso, a half going up (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (net) => {
        const exact = new Big(net).times('0.19');
        const vat = new Big(vatOf(String(net)));
        expect(vat.minus(exact).abs().lte('0.5')).toBe(true);
        if (exact.minus(exact.round(0, Big.roundDown)).eq('0.5')) expect(vat.gt(exact)).toBe(true);
      }),
    );
  });
});

describe('withholding by year', () => {
  it('takes the year of the table, the last one after it, none before it', () => {
    expect(withholdingRateOf(RATES, 2025)).toBe('14.50');
    expect(withholdingRateOf(RATES, 2026)).toBe('15.25');
    expect(withholdingRateOf(RATES, 2027)).toBe('16.00');
    expect(withholdingRateOf(RATES, 2028)).toBe('17.00');
    expect(withholdingRateOf(RATES, 2031)).toBe('17.00');
    expect(withholdingRateOf(RATES, 2024)).toBeNull();
  });

  it('withholds the rate of the gross, half-up', () => {
    // 1.000.000 × 15,25 % = 152.500; 10 × 14,5 % = 1,45 → 1; 30 × 14,5 % = 4,35 → 4; 100 × 14,5 % = 14,5 → 15
    expect(percentOf('1000000', '15.25')).toBe('152500');
    expect(percentOf('10', '14.50')).toBe('1');
    expect(percentOf('100', '14.50')).toBe('15');
    expect(percentOf('1000000', '17.00')).toBe('170000');
  });
});

describe('checkInvoice: factura afecta', () => {
  it('matches net = the payment, IVA 19 % of the net, total = net + IVA', () => {
    const check = checkInvoice(taxed('1000000', '190000', '1190000'), payment());
    expect(check.matches).toBe(true);
    expect(check.lines.map((l) => [l.key, l.expected, l.received, l.matches])).toEqual([
      ['issuerRut', '76543210-3', '76543210-3', true],
      ['net', '1000000', '1000000', true],
      ['vat', '190000', '190000', true],
      ['total', '1190000', '1190000', true],
    ]);
  });

  it('takes a peso either way as rounding, not two', () => {
    expect(checkInvoice(taxed('1000001', '190000', '1190001'), payment()).matches).toBe(true);
    expect(checkInvoice(taxed('999999', '190001', '1190000'), payment()).matches).toBe(true);
    const off = checkInvoice(taxed('1000002', '190000', '1190002'), payment());
    expect(off.matches).toBe(false);
    expect(line(off, 'net')).toMatchObject({ expected: '1000000', received: '1000002', matches: false });
  });

  it('holds the IVA at the half peso: 50 → 10 (9 is a peso off, 8 is not within)', () => {
    const at = (vat: string) =>
      checkInvoice(taxed('50', vat, String(50 + Number(vat))), payment({ clp: '50' }));
    expect(at('10').matches).toBe(true);
    expect(at('9').matches).toBe(true);
    expect(at('8').matches).toBe(false);
    expect(line(at('8'), 'vat')).toMatchObject({ expected: '10', received: '8' });
  });

  it('with a commission that includes IVA, the payment is the total and the net its 100/119', () => {
    // The fixture's invoice: 4.000.000 with IVA → net 3.361.345, IVA 638.656, total 4.000.001.
    expect(netOfGross('4000000')).toBe('3361345');
    const check = checkInvoice(
      taxed('3361345', '638656', '4000001'),
      payment({ clp: '4000000', includesVat: true }),
    );
    expect(check.matches).toBe(true);
    const short = checkInvoice(
      taxed('3300000', '627000', '3927000'),
      payment({ clp: '4000000', includesVat: true }),
    );
    // Its IVA is 19 % of its own (wrong) net: checked against the expected net, it does not match (issue 53).
    expect(short.lines.filter((l) => !l.matches).map((l) => l.key)).toEqual(['net', 'vat', 'total']);
    expect(line(short, 'vat')).toMatchObject({ expected: '638656', received: '627000' });
  });

  it('refuses another issuer and says when the UF value is missing', () => {
    const other = checkInvoice(
      { ...taxed('1000000', '190000', '1190000'), issuerRut: '77889900-0' },
      payment(),
    );
    expect(line(other, 'issuerRut')).toMatchObject({
      expected: '76543210-3',
      received: '77889900-0',
      matches: false,
    });
    const missing = checkInvoice(taxed('1000000', '190000', '1190000'), payment({ clp: null }));
    expect(missing.matches).toBe(false);
    expect(line(missing, 'net')).toMatchObject({ expected: null, note: 'Valor UF no disponible' });
  });

  it('matches exactly the invoices built from the payment by the SII rule (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.boolean(), (pesos, includesVat) => {
        const clp = String(pesos);
        const net = includesVat ? netOfGross(clp) : clp;
        const vat = vatOf(net);
        const total = new Big(net).plus(vat).toFixed(0);
        expect(checkInvoice(taxed(net, vat, total), payment({ clp, includesVat })).matches).toBe(true);
        // Two pesos more on the net is never the payment.
        const more = new Big(net).plus(2).toFixed(0);
        expect(
          checkInvoice(
            taxed(more, vatOf(more), new Big(more).plus(vatOf(more)).toFixed(0)),
            payment({ clp, includesVat }),
          ).matches,
        ).toBe(false);
      }),
    );
  });
});

describe('taxedInvoiceOfPayment (an imported invoice number, decision 0063)', () => {
  it('gives the figures the check expects, to the peso, with IVA included or on top', () => {
    expect(taxedInvoiceOfPayment('3998363', true)).toEqual({
      netAmount: '3359969',
      vatAmount: '638394',
      totalAmount: '3998363',
    });
    expect(taxedInvoiceOfPayment('1000000', false)).toEqual({
      netAmount: '1000000',
      vatAmount: '190000',
      totalAmount: '1190000',
    });
  });

  it('always passes the check of the payment it was derived from, every line exactly (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000_000_000 }), fc.boolean(), (pesos, includesVat) => {
        const figures = taxedInvoiceOfPayment(String(pesos), includesVat);
        const check = checkInvoice(
          taxed(figures.netAmount, figures.vatAmount, figures.totalAmount),
          payment({ clp: String(pesos), includesVat, tolerance: '0' }),
        );
        expect(check.lines.every((l) => l.expected === null || l.expected === l.received)).toBe(true);
        expect(check.matches).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('checkInvoice: factura exenta', () => {
  const exempt = (total: string, vat = '0'): InvoiceFigures => ({
    ...taxed(total, vat, total),
    kind: 'exempt',
  });

  it('matches a total equal to the payment and no IVA', () => {
    expect(checkInvoice(exempt('1000000'), payment()).matches).toBe(true);
    expect(checkInvoice(exempt('1000001'), payment()).matches).toBe(true);
    const withVat = checkInvoice(exempt('1000000', '1'), payment());
    expect(line(withVat, 'vat')).toMatchObject({ expected: '0', received: '1', matches: false });
    expect(checkInvoice(exempt('1000002'), payment()).matches).toBe(false);
  });
});

describe('checkInvoice: boleta de honorarios', () => {
  it('matches gross = the payment, withholding at the year rate, net to pay = gross − withholding', () => {
    const check = checkInvoice(fees('1000000', '152500', '847500'), payment({ withholdingRate: '15.25' }));
    expect(check.matches).toBe(true);
    expect(line(check, 'withholding').label).toBe('Retención (15,25 %)');
  });

  it('checks each year with its own rate', () => {
    const of = (year: number) => {
      const rate = withholdingRateOf(RATES, year)!;
      const withholding = percentOf('1000000', rate);
      return checkInvoice(
        fees('1000000', withholding, String(1000000 - Number(withholding)), `${year}-06-01`),
        payment({ withholdingRate: rate }),
      );
    };
    expect(line(of(2025), 'withholding').expected).toBe('145000');
    expect(line(of(2026), 'withholding').expected).toBe('152500');
    expect(line(of(2027), 'withholding').expected).toBe('160000');
    expect(line(of(2028), 'withholding').expected).toBe('170000');
    for (const year of [2025, 2026, 2027, 2028]) expect(of(year).matches).toBe(true);
    // Last year's rate on this year's boleta is a mismatch.
    const stale = checkInvoice(fees('1000000', '145000', '855000'), payment({ withholdingRate: '15.25' }));
    expect(line(stale, 'withholding')).toMatchObject({
      expected: '152500',
      received: '145000',
      matches: false,
    });
  });

  it('says when the year has no rate', () => {
    const check = checkInvoice(fees('1000000', '0', '1000000', '2024-05-01'), payment());
    expect(line(check, 'withholding')).toMatchObject({
      expected: null,
      matches: false,
      note: 'Tasa de retención no disponible para 2024',
    });
  });

  it('matches every boleta built by the rule, for any year of the table (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000_000 }),
        fc.integer({ min: 2025, max: 2040 }),
        (pesos, year) => {
          const rate = withholdingRateOf(RATES, year)!;
          const withholding = percentOf(String(pesos), rate);
          const payable = new Big(pesos).minus(withholding).toFixed(0);
          const check = checkInvoice(
            fees(String(pesos), withholding, payable, `${year}-01-15`),
            payment({ clp: String(pesos), withholdingRate: rate }),
          );
          expect(check.matches).toBe(true);
          expect(new Big(withholding).lte(pesos)).toBe(true);
        },
      ),
    );
  });
});

describe('claimCountdown (Ley 19.983)', () => {
  it('counts 8 calendar days from reception, then says the term is over', () => {
    expect(claimCountdown('2026-11-10', '2026-11-10')).toMatchObject({
      deadline: '2026-11-18',
      daysLeft: 8,
      isExpired: false,
      label: 'Quedan 8 días para reclamar la factura',
    });
    expect(claimCountdown('2026-11-10', '2026-11-17').label).toBe('Queda 1 día para reclamar la factura');
    expect(claimCountdown('2026-11-10', '2026-11-18').label).toBe(
      'Hoy vence el plazo para reclamar la factura',
    );
    expect(claimCountdown('2026-11-10', '2026-11-19')).toMatchObject({
      isExpired: true,
      label: 'Plazo de reclamo vencido',
    });
    // Across a month's and a year's end.
    expect(claimCountdown('2026-12-28', '2026-12-30')).toMatchObject({ deadline: '2027-01-05', daysLeft: 6 });
  });
});

describe('one amount paid, explained (issue 53)', () => {
  it('allows $ 1 per UF of rounding, never less than a peso', () => {
    expect(roundingTolerance('100.00', '1')).toBe('100');
    expect(roundingTolerance('0.40', '1')).toBe('1');
    expect(roundingTolerance('50.00', '2.5')).toBe('125');
  });

  it('names the cause of the difference between the invoice and UF × the day', () => {
    const base = { includesVat: true, withholding: null, tolerance: '100', acceptanceReason: null };
    expect(explainPaidAmount({ ...base, kind: 'taxed', amountToPay: '4000000', ufClp: '4000000' })).toEqual({
      amountToPay: '4000000',
      ufClp: '4000000',
      difference: '0',
      cause: null,
    });
    expect(
      explainPaidAmount({ ...base, kind: 'taxed', amountToPay: '3998363', ufClp: '3998300' }).cause,
    ).toBe('Redondeo de $ 63 (dentro de la tolerancia de $ 100)');
    expect(
      explainPaidAmount({
        ...base,
        kind: 'taxed',
        amountToPay: '3998363',
        ufClp: '3978363',
        acceptanceReason: 'UF del día de emisión',
      }),
    ).toMatchObject({
      difference: '20000',
      cause: 'Diferencia de $ 20.000 aceptada por un administrador: «UF del día de emisión»',
    });
    expect(
      explainPaidAmount({
        ...base,
        kind: 'taxed',
        includesVat: false,
        amountToPay: '4760000',
        ufClp: '4000000',
      }).cause,
    ).toBe('IVA (19 %) de la factura: $ 760.000');
    expect(
      explainPaidAmount({
        ...base,
        kind: 'fees',
        withholding: '610000',
        amountToPay: '3390000',
        ufClp: '4000000',
      }).cause,
    ).toBe('Retención de la boleta: −$ 610.000');
  });
});
