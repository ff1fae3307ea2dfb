// The server the Playwright journeys drive: the production build on a fresh embedded database,
// with the fixture accounts of e2e/fixtures.ts created through the user CLI, then the small 'e2e'
// dataset of scripts/demo-data.ts (projects, brokers, clients, reservations, flows in every state),
// so that the journeys see a living app. The fixture accounts stay exactly as they are.
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
};
const accounts = [
  [
    '--email',
    'admin@inmoflujo.test',
    '--first',
    'Alicia',
    '--last',
    'Administradora',
    '--position',
    'Gerenta Comercial',
    '--type',
    'Administrador',
    '--seller',
  ],
  [
    '--email',
    'kam@inmoflujo.test',
    '--first',
    'Karla',
    '--last',
    'Mendoza',
    '--position',
    'KAM',
    '--type',
    'KAM',
  ],
];
for (const account of accounts) {
  const result = spawnSync(
    'npx',
    ['tsx', 'scripts/create-user.ts', ...account, '--password', 'clave-e2e-segura'],
    {
      stdio: 'inherit',
      env,
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const dataset = spawnSync('npx', ['tsx', 'scripts/generate-data.ts', '--scale', 'e2e', '--quiet'], {
  stdio: 'inherit',
  env,
});
if (dataset.status !== 0) process.exit(dataset.status ?? 1);
Object.assign(process.env, env);
await import('../dist/server/main.js');
