// `npm run demo`: the app on its own data directory (./data-demo) filled with a realistic dataset
// (scripts/demo-data.ts). The first run migrates and generates (a few seconds); later runs reuse it.
// Then it builds if needed and runs the production server in this process, honouring PORT.
// Start afresh with `rm -rf data-demo`.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';
import { DEMO_PASSWORD } from './demo-data';
import { prepareDemoDataset } from './demo-dataset';

const DATA_DIR = './data-demo';
const port = process.env.PORT || '3000';

const logins = await prepareDemoDataset(DATA_DIR);

buildIfNeeded();

const width = Math.max(...logins.map((login) => login.email.length));
console.log(`\nInmoflujo demo on http://localhost:${port}  (password for every user: ${DEMO_PASSWORD})\n`);
for (const login of logins)
  console.log(`  ${login.email.padEnd(width)}  ${login.user_type.padEnd(16)}  ${login.name}`);
console.log('');

Object.assign(process.env, { DATA_DIR, DATABASE_URL: '', PORT: port });
const serverEntry = resolve('dist/server/main.js');
if (!existsSync(serverEntry)) throw new Error('The build did not produce dist/server/main.js');
await import(pathToFileURL(serverEntry).href);
