// The server the Playwright journeys drive: the production build on a fresh embedded database filled
// by scripts/e2e-setup.ts (fixture accounts, the small 'e2e' dataset and the rows the journeys name).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { buildIfNeeded } from './build-if-needed.mjs';

const dataDir = '.tmp/e2e-data';
rmSync(dataDir, { recursive: true, force: true });
buildIfNeeded();

const env = {
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  LOG_LEVEL: 'warn',
  LOGIN_MAX_ATTEMPTS: '50',
  // The journeys register new accounts on a database that already has some.
  REGISTRATION: 'open',
};
const setup = spawnSync('npx', ['tsx', 'scripts/e2e-setup.ts'], { stdio: 'inherit', env });
if (setup.status !== 0) process.exit(setup.status ?? 1);
Object.assign(process.env, env);
await import('../dist/server/main.js');
