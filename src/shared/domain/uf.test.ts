import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Big } from './decimal';
import { clpFigureOf, csvRows, parseEsClDecimal, readUfTable, ufJumps, ufRefusals, ufToClp } from './uf';

describe('ufToClp', () => {
  it('rounds half-up to whole pesos', () => {
    // 10 UF × 36.789,36 = 367.893,6 → 367.894
    expect(ufToClp('10', '36789.36')).toBe('367894');
    // 0,5 peso exactly goes up; 0,49 down
    expect(ufToClp('0.01', '50.00')).toBe('1');
    expect(ufToClp('0.01', '49.00')).toBe('0');
    expect(ufToClp('1.5', '1.00')).toBe('2');
    expect(ufToClp('0', '36789.36')).toBe('0');
    expect(ufToClp('135.50', '40000.00')).toBe('5420000');
  });

  it('is the exact product rounded half-up, never through floats (property)', () => {
    const uf = fc.integer({ min: 0, max: 99_999_999 }).map((cents) => new Big(cents).div(100).toFixed(2));
    const value = fc
      .integer({ min: 1_000_000, max: 9_999_999 })
      .map((cents) => new Big(cents).div(100).toFixed(2));
    fc.assert(
      fc.property(uf, value, (amount, ufValue) => {
        const clp = new Big(ufToClp(amount, ufValue));
        const exact = new Big(amount).times(ufValue);
        // Within half a peso, and a half goes up.
        expect(clp.minus(exact).abs().lte('0.5')).toBe(true);
        if (exact.minus(exact.round(0, Big.roundDown)).eq('0.5')) expect(clp.gt(exact)).toBe(true);
        expect(clp.eq(clp.round(0))).toBe(true);
      }),
    );
  });

  it('rounds at the half peso upward for any whole amount plus one half (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (pesos) => {
        expect(ufToClp(`${pesos}.5`, '1.00')).toBe(String(pesos + 1));
        expect(ufToClp(`${pesos}.49`, '1.00')).toBe(String(pesos));
      }),
    );
  });
});

describe('clpFigureOf', () => {
  const base = { amountUf: '10', today: '2026-11-26' };
  it('is frozen once paid, estimated while unpaid, missing without a value', () => {
    expect(
      clpFigureOf({
        ...base,
        paymentDate: '2026-11-20',
        frozenClp: '400000',
        frozenUfValue: '40000.00',
        todayUfValue: '41000.00',
      }),
    ).toEqual({ state: 'frozen', clp: '400000', ufValue: '40000.00', date: '2026-11-20' });
    expect(
      clpFigureOf({
        ...base,
        paymentDate: null,
        frozenClp: null,
        frozenUfValue: null,
        todayUfValue: '40000.05',
      }),
    ).toEqual({ state: 'estimated', clp: '400001', ufValue: '40000.05', date: '2026-11-26' });
    expect(
      clpFigureOf({ ...base, paymentDate: null, frozenClp: null, frozenUfValue: null, todayUfValue: null }),
    ).toEqual({ state: 'missing', date: '2026-11-26' });
    expect(
      clpFigureOf({
        ...base,
        paymentDate: '2026-11-20',
        frozenClp: null,
        frozenUfValue: null,
        todayUfValue: '1.00',
      }),
    ).toEqual({ state: 'missing', date: '2026-11-20' });
  });
});

describe('reading published values', () => {
  it('reads es-CL decimals', () => {
    expect(parseEsClDecimal('36.789,36')).toBe('36789.36');
    expect(parseEsClDecimal('36789,36')).toBe('36789.36');
    expect(parseEsClDecimal('36789.36')).toBe('36789.36');
    expect(parseEsClDecimal('$ 36.789')).toBe('36789');
    expect(parseEsClDecimal('36,789,36')).toBeNull();
    expect(parseEsClDecimal('abc')).toBeNull();
  });

  it("reads the SII's yearly table: days down, months across, empty cells missing", () => {
    const rows = csvRows(
      [
        'UF 2026',
        'Día;Ene;Feb;Mar',
        '1;"39.000,01";"39.100,02";',
        '2;39.001,02;;',
        '30;39.050,00;;39.200,00',
        '',
      ].join('\r\n'),
    );
    const reading = readUfTable(rows);
    expect(reading.problems).toEqual([]);
    expect(reading.entries).toEqual([
      { date: '2026-01-01', value: '39000.01' },
      { date: '2026-02-01', value: '39100.02' },
      { date: '2026-01-02', value: '39001.02' },
      { date: '2026-01-30', value: '39050.00' },
      { date: '2026-03-30', value: '39200.00' },
    ]);
  });

  it('takes the year from the file name when the table does not say it, and names a day that does not exist', () => {
    const reading = readUfTable(csvRows('Día;Enero;Febrero\n30;39.050,00;39.100,00\n'), 2026);
    expect(reading.entries).toEqual([{ date: '2026-01-30', value: '39050.00' }]);
    expect(reading.problems).toEqual([{ row: 2, message: 'Fila 2: el 30 de febrero no existe' }]);
    expect(readUfTable(csvRows('Día;Enero;Febrero\n1;1;2\n')).problems[0]?.message).toMatch(/año/);
  });

  it('reads a simple list of date and value, with or without a header', () => {
    const reading = readUfTable(csvRows('Fecha;Valor\n01/11/2026;40.000,00\n2026-11-02;40.001,10\n'));
    expect(reading.entries).toEqual([
      { date: '2026-11-01', value: '40000.00' },
      { date: '2026-11-02', value: '40001.10' },
    ]);
    expect(readUfTable(csvRows('31/02/2026;1,00')).problems).toHaveLength(1);
  });
});

describe('refusals and jumps', () => {
  it('refuses a day twice, a value not positive, a date outside 1977–2100', () => {
    expect(
      ufRefusals([
        { date: '2026-11-01', value: '40000.00' },
        { date: '2026-11-01', value: '40000.00' },
        { date: '2026-11-02', value: '0' },
        { date: '1976-12-31', value: '100.00' },
        { date: '2101-01-01', value: '100.00' },
        { date: '2026-11-03', value: '1.005' },
      ]),
    ).toEqual([
      'El día 01/11/2026 aparece más de una vez',
      'El valor del 02/11/2026 debe ser mayor que cero',
      'La fecha 31/12/1976 está fuera del rango permitido (1977 a 2100)',
      'La fecha 01/01/2101 está fuera del rango permitido (1977 a 2100)',
      'El valor del 03/11/2026 tiene más de dos decimales',
    ]);
    expect(ufRefusals([{ date: '2026-11-01', value: '40000.00' }])).toEqual([]);
  });

  it('asks about a value more than 1 % away from its neighbours, new or stored', () => {
    const stored = [
      { date: '2026-11-01', value: '40000.00' },
      { date: '2026-11-03', value: '40010.00' },
    ];
    expect(ufJumps([{ date: '2026-11-02', value: '40005.00' }], stored)).toEqual([]);
    expect(ufJumps([{ date: '2026-11-02', value: '40500.00' }], stored)).toEqual([
      'El valor del 02/11/2026 difiere en 1,25 % del día anterior',
      'El valor del 02/11/2026 difiere en 1,21 % del día siguiente',
    ]);
    expect(
      ufJumps([{ date: '2026-11-02', value: '39600.00' }], [{ date: '2026-11-03', value: '40010.00' }]),
    ).toEqual(['El valor del 02/11/2026 difiere en 1,04 % del día siguiente']);
  });
});
