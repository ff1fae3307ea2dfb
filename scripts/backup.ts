// `npm run backup`: a backup of the embedded database now, into BACKUP_DIR (decision 0031). With the
// server running it asks the server (which holds the database); otherwise it opens the database
// itself. PostgreSQL is backed up with pg_dump or the provider's point-in-time recovery (README).
import { openDatabase } from '../src/server/db/client';
import { DataDirLockedError } from '../src/server/db/data-dir-lock';
import { NoDatabaseError, requireEmbeddedDatabase } from '../src/server/db/existing-database';
import { loadEnv } from '../src/server/env';
import { BackupError } from '../src/server/features/backups/backup-file';
import { requestBackupFromServer } from '../src/server/features/backups/backup-schedule';
import {
  type BackupEntry,
  backupSettingsOf,
  EmbeddedBackups,
} from '../src/server/features/backups/backups.service';
import { formatBytes } from '../src/shared/format';

const env = loadEnv();
if (env.DATABASE_URL) {
  console.error(
    'DATABASE_URL apunta a PostgreSQL: Inmoflujo no respalda PostgreSQL. Use pg_dump o la recuperación a un ' +
      'instante del proveedor (README, Operación). / Inmoflujo does not back up PostgreSQL: use pg_dump or ' +
      "your provider's point-in-time recovery.",
  );
  process.exit(1);
}
const settings = backupSettingsOf(env);

function done(entry: BackupEntry, path: string): never {
  console.log(
    `Respaldo creado / backup written: ${path} (${formatBytes(entry.bytes)}${entry.encrypted ? ', cifrado' : ''})`,
  );
  process.exit(0);
}

try {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  requireEmbeddedDatabase(env.DATA_DIR);
  try {
    database = await openDatabase({ dataDir: env.DATA_DIR });
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const answer = await requestBackupFromServer(env.DATA_DIR);
    if (!answer) throw error;
    if (!answer.ok) throw new Error(answer.message);
    done(answer.entry, answer.path);
  }
  try {
    if (!database.pglite) throw new Error('Not an embedded database');
    const backups = new EmbeddedBackups(database.pglite, settings);
    const entry = await backups.create('manual', new Date());
    done(entry, `${settings.backupDir}/${entry.name}`);
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(
    `\n${
      error instanceof BackupError || error instanceof DataDirLockedError || error instanceof NoDatabaseError
        ? error.message
        : error
    }\n`,
  );
  process.exit(1);
}
