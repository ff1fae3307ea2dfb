// `npm run restore -- <file> [--data-dir DIR] [--force]`: checks a backup (checksum, key), restores
// it into DIR (DATA_DIR by default), migrates it forward and says what it restored (decision 0031).
// The server must be stopped; a directory that holds a database is replaced only with --force, and
// then kept beside the new one (db.before-restore-…).
import { parseArgs } from 'node:util';
import { DataDirLockedError } from '../src/server/db/data-dir-lock';
import { loadEnv } from '../src/server/env';
import { BackupError } from '../src/server/features/backups/backup-file';
import { restoreBackup } from '../src/server/features/backups/restore';
import { formatDateTime, formatInteger } from '../src/shared/format';

const KINDS = { nightly: 'nocturno', manual: 'manual', 'pre-migration': 'antes de migración' } as const;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'data-dir': { type: 'string' }, force: { type: 'boolean', default: false } },
});
const [file] = positionals;
if (!file || positionals.length > 1) {
  console.error('Uso / usage: npm run restore -- <archivo.backup> [--data-dir DIR] [--force]');
  process.exit(2);
}
const env = loadEnv();
const dataDir = values['data-dir'] ?? env.DATA_DIR;

try {
  console.log(`Comprobando ${file}…`);
  const result = await restoreBackup({ file, dataDir, passphrase: env.BACKUP_KEY, force: values.force });
  const { header, counts } = result;
  console.log(
    [
      `Respaldo ${KINDS[header.kind]} del ${formatDateTime(header.createdAt)} restaurado en ${result.dbDir}.`,
      result.migrationsAfter > result.migrationsBefore
        ? `Migrado: ${result.migrationsBefore} → ${result.migrationsAfter} migraciones.`
        : `Esquema al día (${result.migrationsAfter} migraciones).`,
      `Clientes: ${formatInteger(counts.clients)} · Reservas: ${formatInteger(counts.reservations)} · Flujos: ${formatInteger(counts.flows)}`,
      result.previous ? `La base de datos anterior quedó en ${result.previous}.` : '',
      `Restored: ${counts.clients} clients, ${counts.reservations} reservations, ${counts.flows} flows.`,
    ]
      .filter(Boolean)
      .join('\n'),
  );
} catch (error) {
  if (error instanceof BackupError || error instanceof DataDirLockedError) {
    console.error(`\n${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
