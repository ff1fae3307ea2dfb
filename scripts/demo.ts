// `npm run demo`: the app on its own data directory (./data-demo) filled with a realistic dataset
// (scripts/demo-data.ts). The first run migrates and generates (a few seconds); later runs reuse it.
// Then it builds if needed and runs the production server in this process, honouring PORT.
// Start afresh with `rm -rf data-demo`.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '../src/server/db/client';
import { buildIfNeeded } from './build-if-needed.mjs';
import { DEMO_EMAIL_DOMAIN, DEMO_PASSWORD, generateDataset, isEmpty } from './demo-data';

const DATA_DIR = './data-demo';
const port = process.env.PORT || '3000';

const database = await openDatabase({ dataDir: DATA_DIR });
let logins: { email: string; user_type: string; name: string }[];
try {
  await database.migrate();
  if (await isEmpty(database.db)) {
    console.log(`Generating the demo dataset in ${DATA_DIR}...`);
    const summary = await generateDataset(database.db, { scale: 'demo', log: console.log });
    console.log(`Done in ${(summary.millis / 1000).toFixed(1)} s: ${JSON.stringify(summary.counts)}`);
  } else {
    console.log(`Using the demo dataset in ${DATA_DIR} (delete the folder to generate it again).`);
  }
  logins = await queryRows(
    database.db,
    sql`select email, user_type, first_name || ' ' || last_name as name from profiles
        where email like ${`%@${DEMO_EMAIL_DOMAIN}`}
        order by case user_type when 'Administrador' then 1 when 'KAM' then 2 when 'Gestor de Pagos' then 3
                 when 'Supervisor' then 4 else 5 end, is_seller, email`,
  );
} finally {
  // The server takes the data-directory lock itself: release it first.
  await database.close();
}

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
