import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that start server processes or take and restore whole backups run for minutes beside
 * the journeys. Vitest runs the largest files first when it has no timings (a clean clone, CI), and
 * these are small: they started last, and the other worker waited for them (40 s at the end of a
 * run). They go first; everything else keeps Vitest's order (its project groups, then its timings).
 */
const STARTED_FIRST = ['src/server/features/backups/backups.test.ts', 'src/server/main.test.ts'];

function rank(spec: TestSpecification): number {
  const index = STARTED_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
  return index === -1 ? STARTED_FIRST.length : index;
}

export class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const groupOf = (spec: TestSpecification) => spec.project.config.sequence.groupOrder ?? 0;
    // Array.prototype.sort is stable: within a group, the rest keep the order Vitest gave them.
    return sorted.sort((a, b) => groupOf(a) - groupOf(b) || rank(a) - rank(b));
  }
}
