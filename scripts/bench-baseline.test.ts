import { describe, expect, it } from 'vitest';
import {
  type Baseline,
  cell,
  compareToBaseline,
  formatBaseline,
  formatComparison,
  parseBaseline,
  updatedBaseline,
} from './bench-baseline';

const entry = (p50: number, p99: number, commit = 'aaaaaaa') => ({
  label: 'x',
  p50,
  p99,
  commit,
  measuredAt: '2026-12-07T23:00:00.000Z',
});

const baseline: Baseline = {
  engines: {
    pglite: { reportBrokers: entry(40, 48), clientSearch: entry(5, 8), health: entry(0, 1) },
    postgres: { reportBrokers: entry(50, 60) },
  },
};

const ok = (key: string, p50: number, p99 = p50) => ({ key, label: key, status: 'ok', p50, p99 });

describe("the bench's baseline", () => {
  it('flags a p50 more than 1.5× its baseline, per engine', () => {
    const slower = compareToBaseline(baseline, 'pglite', ok('reportBrokers', 231, 2190));
    expect(slower.regressed).toBe(true);
    expect(slower.ratio).toBeCloseTo(5.775);
    expect(formatComparison(slower)).toBe('5.78× SLOWER');
    // The same figure is within 1.5× of PostgreSQL's own baseline? No: 231/50 is flagged too, while
    // 70/50 is not.
    expect(compareToBaseline(baseline, 'postgres', ok('reportBrokers', 70)).regressed).toBe(false);
    expect(formatComparison(compareToBaseline(baseline, 'postgres', ok('reportBrokers', 70)))).toBe('1.40×');
  });

  it('does not flag exactly 1.5×, nor a growth of one clock step on a fast endpoint', () => {
    expect(compareToBaseline(baseline, 'pglite', ok('reportBrokers', 60)).regressed).toBe(false);
    expect(compareToBaseline(baseline, 'pglite', ok('reportBrokers', 61)).regressed).toBe(true);
    // 0 → 1 ms (no division by zero) and 5 → 6 ms are within the clock's step.
    expect(compareToBaseline(baseline, 'pglite', ok('health', 1)).regressed).toBe(false);
    expect(compareToBaseline(baseline, 'pglite', ok('health', 1)).ratio).toBe(1);
    expect(compareToBaseline(baseline, 'pglite', ok('clientSearch', 6)).regressed).toBe(false);
    expect(compareToBaseline(baseline, 'pglite', ok('clientSearch', 24)).regressed).toBe(true);
  });

  it('prints — when there is nothing to compare with', () => {
    expect(formatComparison(compareToBaseline(baseline, 'pglite', ok('newEndpoint', 10)))).toBe('—');
    expect(formatComparison(compareToBaseline(baseline, 'other', ok('reportBrokers', 10)))).toBe('—');
    const failed = { key: 'reportBrokers', label: 'x', status: 'error' };
    expect(compareToBaseline(baseline, 'pglite', failed)).toEqual({ regressed: false });
    expect(cell(undefined)).toBe('—');
    expect(cell(12.5)).toBe('12.5');
    expect(cell(0)).toBe('0');
  });

  it('is updated only for what a run measured, each figure with its commit', () => {
    const next = updatedBaseline(
      baseline,
      'pglite',
      [ok('reportBrokers', 42, 50), { key: 'clientSearch', label: 'x', status: 'error' }, ok('fresh', 3, 4)],
      'bbbbbbb',
      '2026-12-08T00:00:00.000Z',
      3.14,
    );
    expect(next.engines.pglite!.reportBrokers).toMatchObject({
      p50: 42,
      p99: 50,
      commit: 'bbbbbbb',
      loadAverage: 3.1,
    });
    // Not measured (an error) or not run: the earlier figures and their commit stay.
    expect(next.engines.pglite!.clientSearch).toEqual(baseline.engines.pglite!.clientSearch);
    expect(next.engines.pglite!.fresh).toMatchObject({ p50: 3, p99: 4, commit: 'bbbbbbb' });
    expect(next.engines.postgres).toEqual(baseline.engines.postgres);
    // The input is left as it was.
    expect(baseline.engines.pglite!.reportBrokers!.p50).toBe(40);
  });

  it('is written sorted and read back as it was; a malformed file is refused', () => {
    const text = formatBaseline(baseline);
    expect(parseBaseline(text)).toEqual(baseline);
    expect(text.indexOf('"clientSearch"')).toBeLessThan(text.indexOf('"health"'));
    expect(text.indexOf('"pglite"')).toBeLessThan(text.indexOf('"postgres"'));
    expect(() => parseBaseline('{}')).toThrow(/engines/);
    expect(() => parseBaseline('{"engines":{"pglite":{"a":{"p50":1}}}}')).toThrow(/pglite\/a/);
  });
});
