// `npm test`: every check — typecheck, lint, unit + client + API tests on PGlite, the API tests again
// on PostgreSQL when TEST_DATABASE_URL is set, the production build, the Playwright journeys.
// The stages run in two lanes side by side (issue 29): the checks and the Vitest suite on PGlite in
// one; the build, the initial-JS budget (from the build's file sizes), the journeys and the API suite
// on PostgreSQL in the other — a journey spends much of its time waiting on the browser and the
// server, time the other lane uses. With four cores or more the PostgreSQL suite has a third lane.
// The journeys start only when Chromium and pdftoppm are there (installed as root with apt, else
// one line names the command: scripts/journey-prerequisites.mjs). Each stage writes to
// its own log, printed whole when it ends, so the lanes never interleave. Every stage runs even if an
// earlier one failed; the last line sums all runners: 'N passed, N failed' (plus ', N skipped').
//
// `npm run check` (the inner loop): typecheck and lint beside the unit and component tests.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { ensureJourneyPrerequisites } from './journey-prerequisites.mjs';

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
/** The failed and skipped tests by name, repeated at the very end: CI keeps only the output's tail. */
const failedTests = [];
/** Skipped tests: { key: file › full name, name }. A test of one engine (src/server/test/engine.ts) is
 * skipped in one Vitest run and passes in the other: only one skipped in every run counts. */
const skippedTests = [];
const passedKeys = new Set();
/** Each stage's wall time and lane, printed as a table at the end (issue 29: measure first). */
const timings = [];
/** Each Vitest file's wall time, from the JSON reports: the slowest are printed at the end. */
const fileTimes = [];
const started = performance.now();
mkdirSync('.tmp/test-logs', { recursive: true });

/** Runs one command with its output in a log file; prints the log when it ends. True when it passed. */
async function run(lane, label, command, args, env = {}) {
  const logPath = `.tmp/test-logs/${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.log`;
  const log = createWriteStream(logPath);
  const begin = performance.now();
  console.log(`▶ ${label} (${lane}): ${command} ${args.join(' ')}`);
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Colours as in a terminal when the runner has one; the logs are read there.
    env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0', ...env },
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const [code] = await once(child, 'close');
  log.end();
  await once(log, 'close');
  const seconds = (performance.now() - begin) / 1000;
  timings.push([label, lane, seconds]);
  console.log(`\n━━ ${label} (${lane}, ${seconds.toFixed(0)} s): ${command} ${args.join(' ')}`);
  process.stdout.write(readFileSync(logPath));
  return code === 0;
}

/** A step that is one check (typecheck, lint, build): counts as one passed or failed. */
async function check(lane, label, command, args, env) {
  if (await run(lane, label, command, args, env)) totals.passed += 1;
  else {
    totals.failed += 1;
    failures.push(label);
  }
}

async function vitest(lane, label, args, env, reportFile) {
  rmSync(reportFile, { force: true });
  const ok = await run(
    lane,
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
  // A suite that failed to load (syntax error, failing hook) has no failed test but is a failure.
  const brokenSuites = report.testResults.filter(
    (suite) => suite.status === 'failed' && suite.assertionResults.every((t) => t.status !== 'failed'),
  );
  totals.failed += brokenSuites.length;
  for (const suite of report.testResults) {
    const file = suite.name.replace(`${process.cwd()}/`, '');
    fileTimes.push([label, file, (suite.endTime - suite.startTime) / 1000]);
    if (brokenSuites.includes(suite))
      failedTests.push(`${label}: ${file} (did not load: ${firstLine(suite.message)})`);
    for (const test of suite.assertionResults) {
      const key = `${file} › ${test.fullName}`;
      const name = `${label}: ${key}`;
      if (test.status === 'failed') failedTests.push(`${name} (${firstLine(test.failureMessages?.[0])})`);
      else if (test.status === 'passed') passedKeys.add(key);
      else if (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo')
        skippedTests.push({ key, name });
    }
  }
  // A run that failed without failing any test (a configuration or unhandled error) is one failure.
  if (!ok && report.numFailedTests === 0 && brokenSuites.length === 0) totals.failed += 1;
  if (!ok || report.numFailedTests > 0 || brokenSuites.length > 0) failures.push(label);
}

async function playwright(lane, reportFile) {
  rmSync(reportFile, { force: true });
  // Chromium and pdftoppm first (installed here as root with apt, as .ci/run does): without them one
  // line says what to run, instead of every journey failing to launch.
  const missing = ensureJourneyPrerequisites();
  if (missing) {
    console.log(`\n━━ Playwright journeys (${lane}): ${missing}`);
    timings.push(['Playwright journeys', lane, 0]);
    totals.failed += 1;
    failures.push('Playwright journeys (not run)');
    failedTests.push(`Playwright journeys: ${missing}`);
    return;
  }
  const ok = await run(lane, 'Playwright journeys', 'npx', ['playwright', 'test']);
  if (!existsSync(reportFile)) {
    totals.failed += 1;
    failures.push('Playwright journeys (no report)');
    return;
  }
  const { stats, suites } = JSON.parse(readFileSync(reportFile, 'utf8'));
  for (const { spec, test, titles } of playwrightTests(suites)) {
    const name = `Playwright: ${spec.file} › ${titles.join(' › ')}`;
    const last = test.results.at(-1);
    if (test.status === 'unexpected') failedTests.push(`${name} (${firstLine(last?.error?.message)})`);
    else if (test.status === 'skipped') skippedTests.push({ key: name, name });
  }
  totals.passed += stats.expected + (stats.flaky ?? 0);
  totals.failed += stats.unexpected;
  if (!ok && stats.unexpected === 0) totals.failed += 1;
  if (!ok || stats.unexpected > 0) failures.push('Playwright journeys');
}

/** Every test of a Playwright JSON report, with the titles of the describes around it. */
function* playwrightTests(suites, titles = []) {
  for (const suite of suites ?? []) {
    const inner = suite.title && !suite.title.endsWith('.ts') ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests) yield { spec, test, titles: [...inner, spec.title] };
    yield* playwrightTests(suite.suites, inner);
  }
}

/** The first line of an error message, without terminal colours, for the closing summary. */
function firstLine(message) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the escape codes of coloured output
  const plain = String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  return (
    plain
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim()
      .slice(0, 300) ?? 'no message'
  );
}

const { TEST_DATABASE_URL } = process.env;
/** Room for a third lane: the PostgreSQL API suite from the start, beside the other two. */
const postgresLane = Boolean(TEST_DATABASE_URL) && availableParallelism() >= 4;
const postgresSuite = (lane) =>
  vitest(
    lane,
    'API tests (PostgreSQL)',
    ['--project', 'api-postgres'],
    { TEST_DATABASE_URL },
    '.tmp/vitest-postgres.json',
  );
console.log(`Node ${process.version}`);
const inner = process.argv[2] === 'check';

const typecheck = (lane) => check(lane, 'Typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
const lint = (lane) => check(lane, 'Lint', 'npx', ['biome', 'check', '--error-on-warnings', '.']);

if (inner) {
  await Promise.all([
    (async () => {
      await typecheck('checks');
      await lint('checks');
    })(),
    vitest(
      'tests',
      'Unit and component tests',
      ['--project', 'unit', '--project', 'client'],
      {},
      '.tmp/vitest-check.json',
    ),
  ]);
  finish();
}

await Promise.all([
  (async () => {
    await typecheck('vitest lane');
    await lint('vitest lane');
    await vitest(
      'vitest lane',
      'Unit, client and API tests (PGlite)',
      [],
      { TEST_DATABASE_URL: '' },
      '.tmp/vitest-pglite.json',
    );
  })(),
  (async () => {
    // Built only when a source changed since the last build (scripts/build-if-needed.mjs).
    await check('journeys lane', 'Production build', 'node', [
      '-e',
      "import('./scripts/build-if-needed.mjs').then((m) => m.buildIfNeeded())",
    ]);
    // The initial JavaScript's budget (DESIGN §6), from the build's file sizes: a size, not a time.
    await check('journeys lane', 'Initial JavaScript budget', 'node', [
      '-e',
      "import('./scripts/initial-js.mjs').then((m) => process.exit(m.checkInitialJavaScript() ? 0 : 1))",
    ]);
    await playwright('journeys lane', '.tmp/playwright.json');
    // On two cores the journeys end before the PGlite suite (measured): the PostgreSQL run follows
    // them here, beside the PGlite suite's last files. With four cores or more it has a lane of its own.
    if (TEST_DATABASE_URL && !postgresLane) await postgresSuite('journeys lane');
  })(),
  postgresLane ? postgresSuite('postgres lane') : null,
]);
if (!TEST_DATABASE_URL)
  console.log(
    '\n(TEST_DATABASE_URL is not set: the API suite ran on PGlite only; its PostgreSQL-only tests are skipped.)',
  );

finish();

function finish() {
  const width = Math.max(...timings.map(([label]) => label.length));
  console.log('\nStage times (the lanes run side by side):');
  for (const [label, lane, seconds] of timings)
    console.log(`  ${label.padEnd(width)}  ${seconds.toFixed(0).padStart(5)} s  ${lane}`);
  const wall = (performance.now() - started) / 1000;
  console.log(`  ${'Wall time'.padEnd(width)}  ${wall.toFixed(0).padStart(5)} s`);
  if (fileTimes.length > 0) {
    console.log('\nSlowest Vitest files (wall, beside everything else):');
    for (const [label, file, seconds] of [...fileTimes].sort((a, b) => b[2] - a[2]).slice(0, 10))
      console.log(`  ${seconds.toFixed(0).padStart(5)} s  ${file} (${label})`);
  }
  const skipped = skippedTests.filter(({ key }) => !passedKeys.has(key)).map(({ name }) => name);
  const elsewhere = skippedTests.length - skipped.length;
  if (elsewhere > 0)
    console.log(`\n(${elsewhere} tests of one engine skipped in one run passed in the other.)`);
  totals.skipped = skipped.length;
  if (skipped.length > 0) console.log(`\nSkipped:\n${skipped.map((t) => `  - ${t}`).join('\n')}`);
  if (failedTests.length > 0)
    console.log(`\nFailed tests:\n${failedTests.map((t) => `  - ${t}`).join('\n')}`);
  if (failures.length > 0) console.log(`\nFailed: ${failures.join('; ')}`);
  const skippedNote = totals.skipped > 0 ? `, ${totals.skipped} skipped` : '';
  console.log(`${totals.passed} passed, ${totals.failed} failed${skippedNote}`);
  process.exit(totals.failed > 0 ? 1 : 0);
}
