import { defineConfig, devices } from '@playwright/test';
import { chromiumExecutable } from './scripts/journey-prerequisites.mjs';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${E2E_PORT}`;

// The machine cannot download browsers: the system Chromium is driven instead — Debian's headless
// shell when installed (what Playwright itself runs headless: the same Blink, without the desktop
// browser's compositor and UI, about a quarter less CPU per journey on this machine), else chromium
// (scripts/journey-prerequisites.mjs, which `npm test` asks first).
const chromium = {
  executablePath: chromiumExecutable(),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // The pages' JavaScript runs at most on V8's baseline compiler: a journey's page lives seconds,
    // too short for the optimizing compilers to pay back their work. Measured on two sets of
    // journeys (issue 29): the browsers' CPU 7 % less, each journey's wall time the same.
    '--js-flags=--max-opt=1',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  outputDir: '.tmp/playwright-results',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  // A lazy screen's first arrival on a busy 2-core machine (a build or a second suite beside it) can
  // take over 10 s; nothing here waits on a timer, so a longer ceiling costs nothing when all is well.
  expect: { timeout: 20_000 },
  reporter: [['list'], ['json', { outputFile: '.tmp/playwright.json' }]],
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL,
    // A click, a fill, a wait for a download or a navigation waits at most this long (Playwright's
    // default is no limit but the test's): a step that can never happen fails in half a minute, naming
    // its locator, instead of waiting out a long journey's whole timeout (the settings journey's
    // 4-minute wait of 2026-12-08). Ceilings above `expect`'s (an export's first byte on a busy
    // machine), not measures.
    actionTimeout: 30_000,
    navigationTimeout: 45_000,
    // Signed in as the administrator (saved by e2e/global-setup.ts) unless a file says otherwise.
    storageState: '.tmp/e2e-admin-state.json',
    locale: 'es-CL',
    timezoneId: 'America/Santiago',
    // As users who ask their system for less motion: no animation repaints the page while a journey
    // waits (a third of the browsers' CPU), and nothing is clicked mid-transition.
    reducedMotion: 'reduce',
    // No trace: recording one for every journey, to keep only the failed ones', cost a quarter of the
    // browsers' CPU (issue 29). The failure's screenshot and error stay; to see a failure's trace, run
    // that journey again with `--trace on`.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: chromium,
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: /settings\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], launchOptions: chromium },
    },
    // Configuración changes what the other journeys read (the default seller, default assignees):
    // it runs once they are done, and puts back what it changed.
    {
      name: 'settings',
      testMatch: /settings\.spec\.ts/,
      dependencies: ['chromium'],
      // Once (2026-12-08), after the 194 other journeys, 'un administrador deja lista una instalación'
      // waited out its 4 minutes on a step no trace recorded; alone and after the Permisos journey it
      // passes in 12–21 s. A click, fill or navigation had no timeout of its own then: with
      // `actionTimeout` such a step now fails in 30 s naming its locator, and the retry starts 3.5
      // minutes sooner. One retry, reported as flaky, until a failure shows the step.
      retries: 1,
      use: { ...devices['Desktop Chrome'], launchOptions: chromium },
    },
  ],
  webServer: {
    // The built production server on a fresh embedded database (scripts/e2e-server.mjs), with the
    // Node options `npm start` gives it (SERVER_NODE_OPTIONS, scripts/server-process.ts).
    command: `node --max-old-space-size=1536 scripts/e2e-server.mjs`,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(E2E_PORT) },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
