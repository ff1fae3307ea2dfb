// `npm run db:migrate`: applies the committed migrations to DATABASE_URL or the embedded database
// (which it backs up first when it holds data and migrations are pending: decision 0031).
import { openDatabase } from '../src/server/db/client';
import { loadEnv } from '../src/server/env';
import { backupBeforeMigrating } from '../src/server/features/backups/backup-schedule';
import { backupSettingsOf, EmbeddedBackups } from '../src/server/features/backups/backups.service';

const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  if (database.pglite) {
    const backups = new EmbeddedBackups(database.pglite, backupSettingsOf(env));
    const backup = await backupBeforeMigrating(backups, database.pglite, new Date());
    if (backup) console.log(`Respaldo antes de migrar / backup before migrating: ${backup.name}`);
  }
  await database.migrate();
  console.log(`Migrations applied (${database.kind === 'pglite' ? env.DATA_DIR : 'PostgreSQL'}).`);
} finally {
  await database.close();
}
