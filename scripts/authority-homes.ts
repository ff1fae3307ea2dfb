/**
 * Who may do what has one home (issue 56, decision 0060): the catalogue, `src/shared/permissions.ts`.
 * Anywhere else, a comparison of user types (`userType === …`) or a test of `isAdmin` is a second home
 * that a grant in Permisos would not reach. Run by `scripts/authority-homes.test.ts` (so by `npm test`).
 */
import type { SourceFile } from './import-boundaries';
import { projectSources } from './import-boundaries';

export const CATALOGUE = 'src/shared/permissions.ts';

/** `userType ===`/`!==` either way round, `.userType` in a switch, and the word `isAdmin`. */
const SECOND_HOMES: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /\buserType\s*[!=]==|[!=]==\s*[\w.?]*\buserType\b/, what: 'compares user types' },
  { pattern: /\bswitch\s*\(\s*[\w.?]*\buserType\s*\)/, what: 'switches on a user type' },
  { pattern: /\bisAdmin\b/, what: 'tests isAdmin' },
];

/** Sources that decide: everything under src but the catalogue and tests (which build their cases). */
function decides(path: string): boolean {
  return path !== CATALOGUE && !/\.test\.tsx?$/.test(path) && !path.startsWith('src/client/test/');
}

export function authorityHomeViolations(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files.filter((candidate) => decides(candidate.path))) {
    file.text.split('\n').forEach((line, index) => {
      for (const { pattern, what } of SECOND_HOMES)
        if (pattern.test(line))
          violations.push(`${file.path}:${index + 1} ${what}: ask can(user, action) of ${CATALOGUE} instead`);
    });
  }
  return violations;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const violations = authorityHomeViolations(projectSources());
  for (const violation of violations) console.error(violation);
  process.exit(violations.length === 0 ? 0 : 1);
}
