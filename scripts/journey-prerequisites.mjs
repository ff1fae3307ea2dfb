// What the Playwright journeys need from the machine: Debian's Chromium (or its headless shell, which
// playwright.config.ts prefers) and poppler-utils' pdftoppm (a documents journey looks at a receipt
// PDF as a picture). The machine cannot download Playwright's own browsers.
//
// `npm test` (scripts/test.mjs) and CI (.ci/run) ask `ensureJourneyPrerequisites()` before the
// journeys: as root with apt-get it installs what is missing, as .ci/run always did; otherwise it
// answers one line naming the command to run, and the journeys do not start (a missing browser was
// 181 launch errors). Alone: `node scripts/journey-prerequisites.mjs` (exit 1 when still missing).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM = '/usr/bin/chromium';
const PACKAGES = ['chromium', 'chromium-headless-shell', 'poppler-utils'];
const INSTALL = `apt-get install -y ${PACKAGES.join(' ')}`;

/** The browser the journeys drive: CHROMIUM_PATH, else Debian's headless shell, else chromium. */
export function chromiumExecutable() {
  return process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM);
}

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}

/** What is missing, by the Debian package that brings it. */
export function missingForJourneys() {
  const missing = [];
  if (!existsSync(chromiumExecutable())) missing.push('chromium');
  if (!onPath('pdftoppm')) missing.push('poppler-utils');
  return missing;
}

/**
 * Installs what the journeys miss when this process may (root, with apt-get), the output in `logPath`.
 * Returns null when all is there, else the one line to print: what is missing and the command to run.
 */
export function ensureJourneyPrerequisites(
  logPath = '.tmp/test-logs/journey-packages.log',
  { mayInstall = process.getuid?.() === 0 && onPath('apt-get') } = {},
) {
  let missing = missingForJourneys();
  if (missing.length === 0) return null;
  if (mayInstall) {
    console.log(`Installing ${PACKAGES.join(', ')} for the Playwright journeys (log: ${logPath})...`);
    const script = `apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${INSTALL} -qq > ${logPath} 2>&1`;
    spawnSync('sh', ['-c', script], { stdio: 'ignore' });
    missing = missingForJourneys();
    if (missing.length === 0) return null;
    return `Journeys not run: ${missing.join(', ')} could not be installed (see ${logPath}); run: ${INSTALL}`;
  }
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  return `Journeys not run: ${missing.join(' and ')} missing; run: ${sudo}${INSTALL}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const line = ensureJourneyPrerequisites('/tmp/journey-packages.log');
  if (line) console.log(line);
  process.exit(line ? 1 : 0);
}
