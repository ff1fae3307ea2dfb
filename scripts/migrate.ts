// `npm run db:migrate`: applies the committed migrations to DATABASE_URL or the embedded database.
import { openDatabase } from '../src/server/db/client';
import { loadEnv } from '../src/server/env';

const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  await database.migrate();
  console.log(`Migrations applied (${database.kind === 'pglite' ? env.DATA_DIR : 'PostgreSQL'}).`);
} finally {
  await database.close();
}
