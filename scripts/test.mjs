// `npm test`: every check, in order — typecheck, lint, unit + client + API tests on PGlite, the API
// tests again on PostgreSQL when TEST_DATABASE_URL is set, the production build, the Playwright
// journeys. Every step runs even if an earlier one failed; the last line sums all runners:
// 'N passed, N failed' (plus ', N skipped' when any).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
/** Each stage's wall time, printed as a table at the end (issue 29: measure before speeding up). */
const timings = [];
mkdirSync('.tmp', { recursive: true });

function run(label, command, args, env = {}) {
  console.log(`\n━━ ${label}: ${command} ${args.join(' ')}`);
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push([label, (performance.now() - started) / 1000]);
  return result.status === 0;
}

/** A step that is one check (typecheck, lint, build): counts as one passed or failed. */
function check(label, command, args, env) {
  if (run(label, command, args, env)) totals.passed += 1;
  else {
    totals.failed += 1;
    failures.push(label);
  }
}

function vitest(label, args, env, reportFile) {
  rmSync(reportFile, { force: true });
  const ok = run(
    label,
    'npx',
    ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`],
    env,
  );
  if (!existsSync(reportFile)) {
    totals.failed += 1;
    failures.push(`${label} (no report)`);
    return;
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  // A suite that failed to load (syntax error, failing hook) has no failed test but is a failure.
  const brokenSuites = report.testResults.filter(
    (suite) => suite.status === 'failed' && suite.assertionResults.every((t) => t.status !== 'failed'),
  );
  totals.failed += brokenSuites.length;
  // A run that failed without failing any test (a configuration or unhandled error) is one failure.
  if (!ok && report.numFailedTests === 0 && brokenSuites.length === 0) totals.failed += 1;
  if (!ok || report.numFailedTests > 0 || brokenSuites.length > 0) failures.push(label);
}

function playwright(reportFile) {
  rmSync(reportFile, { force: true });
  const ok = run('Playwright journeys', 'npx', ['playwright', 'test']);
  if (!existsSync(reportFile)) {
    totals.failed += 1;
    failures.push('Playwright journeys (no report)');
    return;
  }
  const { stats } = JSON.parse(readFileSync(reportFile, 'utf8'));
  totals.passed += stats.expected + (stats.flaky ?? 0);
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
  if (!ok && stats.unexpected === 0) totals.failed += 1;
  if (!ok || stats.unexpected > 0) failures.push('Playwright journeys');
}

const { TEST_DATABASE_URL } = process.env;
console.log(`Node ${process.version}`);
// `npm run check` (the inner loop): typecheck, lint, the import boundaries, unit and component tests.
const inner = process.argv[2] === 'check';

check('Typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
check('Lint', 'npx', ['biome', 'check', '--error-on-warnings', '.']);
if (inner) {
  vitest(
    'Unit and component tests',
    ['--project', 'unit', '--project', 'client'],
    {},
    '.tmp/vitest-check.json',
  );
  finish();
}
vitest('Unit, client and API tests (PGlite)', [], { TEST_DATABASE_URL: '' }, '.tmp/vitest-pglite.json');
if (TEST_DATABASE_URL) {
  vitest(
    'API tests (PostgreSQL)',
    ['--project', 'api-postgres'],
    { TEST_DATABASE_URL },
    '.tmp/vitest-postgres.json',
  );
} else {
  console.log('\n(TEST_DATABASE_URL is not set: the API suite ran on PGlite only.)');
}
// Built only when a source changed since the last build (scripts/build-if-needed.mjs).
check('Production build', 'node', [
  '-e',
  "import('./scripts/build-if-needed.mjs').then((m) => m.buildIfNeeded())",
]);
playwright('.tmp/playwright.json');

finish();

function finish() {
  const width = Math.max(...timings.map(([label]) => label.length));
  console.log('\nStage times:');
  for (const [label, seconds] of timings)
    console.log(`  ${label.padEnd(width)}  ${seconds.toFixed(0).padStart(5)} s`);
  const all = timings.reduce((sum, [, seconds]) => sum + seconds, 0);
  console.log(`  ${'Total'.padEnd(width)}  ${all.toFixed(0).padStart(5)} s`);
  if (failures.length > 0) console.log(`\nFailed: ${failures.join('; ')}`);
  const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : '';
  console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
  process.exit(totals.failed > 0 ? 1 : 0);
}
