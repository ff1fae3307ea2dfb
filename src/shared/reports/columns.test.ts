import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, displayCell, neutralizeText } from './columns';

describe('report cells', () => {
  it('shows amounts, dates and months as the screens do', () => {
    expect(displayCell('uf', '1234.5')).toBe('UF 1.234,50');
    expect(displayCell('date', '2027-03-05')).toBe('05/03/2027');
    expect(displayCell('month', '2027-03-01')).toBe('marzo de 2027');
    expect(displayCell('integer', 3)).toBe('3');
    expect(displayCell('uf', null)).toBe('');
  });

  it('writes the CSV cells Chilean Excel reads: decimal comma without grouping, dd/MM/yyyy, MM/yyyy', () => {
    expect(csvCell('uf', '1234567.891')).toBe('1234567,89');
    expect(csvCell('uf', '-0.25')).toBe('-0,25');
    expect(csvCell('date', '2027-03-05')).toBe('05/03/2027');
    expect(csvCell('month', '2027-03-01')).toBe('03/2027');
    expect(csvCell('text', 'José Ñúñez')).toBe('José Ñúñez');
    expect(csvCell('date', null)).toBe('');
  });

  it('neutralises text a spreadsheet would read as a formula, and only that', () => {
    for (const text of ['=1+2', '+56 9', '-3', '@SUM(A1)']) expect(csvCell('text', text)).toBe(`'${text}`);
    // A leading tab or line break is no longer there to neutralise: the CSV writes one line (0058).
    expect(csvCell('text', '\tx')).toBe(' x');
    expect(csvCell('text', '\rx')).toBe(' / x');
    expect(csvCell('text', '\t=1+2')).toBe(' =1+2');
    expect(neutralizeText('Juan = Pedro')).toBe('Juan = Pedro');
    fc.assert(
      fc.property(fc.string(), (text) => {
        const out = neutralizeText(text);
        expect(/^[=+\-@\t\r]/.test(out)).toBe(false);
        expect(out === text || out === `'${text}`).toBe(true);
      }),
    );
  });
});
