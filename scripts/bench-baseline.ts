// The bench remembers (issue 61): a committed baseline of every endpoint's p50 and p99 per engine,
// each with the commit that set it. Every run prints its p50's ratio to the baseline and flags the
// endpoints whose p50 grew more than 1.5×; the baseline changes only when a run is asked to write it
// (`npm run bench -- --update-baseline`), and then only for the endpoints that run measured.

/** A p50 more than this many times the baseline's is flagged... */
export const REGRESSION_RATIO = 1.5;
/**
 * ...when it also grew by at least this many ms: autocannon's latencies are whole milliseconds, so a
 * 1 ms endpoint read once at 2 ms is the clock's step, not a regression.
 */
export const REGRESSION_MIN_GROWTH_MS = 2;

export interface BaselineEntry {
  label: string;
  p50: number;
  p99: number;
  /** The commit measured (short hash, '+' when the worktree had uncommitted changes). */
  commit: string;
  measuredAt: string;
  /** The machine's one-minute load average when the run began: a busy machine's figures read high. */
  loadAverage?: number;
}

export interface Baseline {
  /** Engine ('pglite', 'postgres') → endpoint key → its figures. */
  engines: Record<string, Record<string, BaselineEntry>>;
}

/** One measured endpoint, as the bench reports it (only what the baseline needs). */
export interface MeasuredFigures {
  key: string;
  label: string;
  status: string;
  p50?: number;
  p99?: number;
}

export interface BaselineComparison {
  /** p50 / the baseline's p50; undefined when the baseline has no figure for the endpoint. */
  ratio?: number;
  baseline?: BaselineEntry;
  regressed: boolean;
}

export function emptyBaseline(): Baseline {
  return { engines: {} };
}

/** Reads a baseline file's text; anything but the expected shape is refused with its reason. */
export function parseBaseline(text: string): Baseline {
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== 'object' || parsed === null || !('engines' in parsed))
    throw new Error('the baseline file has no "engines"');
  const { engines } = parsed as { engines: unknown };
  if (typeof engines !== 'object' || engines === null) throw new Error('"engines" is not an object');
  for (const [engine, entries] of Object.entries(engines)) {
    for (const [key, entry] of Object.entries(entries as Record<string, unknown>)) {
      const { p50, p99, commit } = (entry ?? {}) as Partial<BaselineEntry>;
      if (typeof p50 !== 'number' || typeof p99 !== 'number' || typeof commit !== 'string')
        throw new Error(`the baseline's ${engine}/${key} needs p50, p99 and commit`);
    }
  }
  return parsed as Baseline;
}

/** The baseline's text: engines and keys sorted, so an update's diff shows only what changed. */
export function formatBaseline(baseline: Baseline): string {
  const engines: Baseline['engines'] = {};
  for (const engine of Object.keys(baseline.engines).sort()) {
    const entries = baseline.engines[engine]!;
    engines[engine] = Object.fromEntries(
      Object.keys(entries)
        .sort()
        .map((key) => [key, entries[key]!]),
    );
  }
  return `${JSON.stringify({ engines }, null, 2)}\n`;
}

export function compareToBaseline(
  baseline: Baseline,
  engine: string,
  measured: MeasuredFigures,
): BaselineComparison {
  const entry = baseline.engines[engine]?.[measured.key];
  if (!entry || measured.status !== 'ok' || measured.p50 === undefined) return { regressed: false };
  // A 0 ms baseline (a sub-millisecond endpoint) compares as 1 ms: no division by zero.
  const ratio = measured.p50 / Math.max(entry.p50, 1);
  const regressed = ratio > REGRESSION_RATIO && measured.p50 - entry.p50 >= REGRESSION_MIN_GROWTH_MS;
  return { ratio, baseline: entry, regressed };
}

/** '1.04×', '2.31× SLOWER' (flagged), '—' (nothing to compare with). */
export function formatComparison(comparison: BaselineComparison): string {
  if (comparison.ratio === undefined) return '—';
  return `${comparison.ratio.toFixed(2)}×${comparison.regressed ? ' SLOWER' : ''}`;
}

/**
 * The baseline with this run's figures for one engine: the endpoints measured (status 'ok') replace
 * theirs, every other endpoint keeps the figures and the commit that set it.
 */
export function updatedBaseline(
  baseline: Baseline,
  engine: string,
  results: MeasuredFigures[],
  commit: string,
  measuredAt: string,
  loadAverage?: number,
): Baseline {
  const entries = { ...(baseline.engines[engine] ?? {}) };
  for (const result of results) {
    if (result.status !== 'ok' || result.p50 === undefined || result.p99 === undefined) continue;
    entries[result.key] = {
      label: result.label,
      p50: result.p50,
      p99: result.p99,
      commit,
      measuredAt,
      ...(loadAverage === undefined ? {} : { loadAverage: Math.round(loadAverage * 10) / 10 }),
    };
  }
  return { engines: { ...baseline.engines, [engine]: entries } };
}

/** A number for a table's cell, or '—' when the row has none (a one-off row's req/s). */
export function cell(value: number | undefined): string {
  return value === undefined ? '—' : String(value);
}
