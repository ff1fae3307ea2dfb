// `npm run restore -- <file> [--data-dir DIR] [--force] [--ledger FILE | --without-ledger]`: checks a
// backup (checksum, key), restores it into DIR (DATA_DIR by default), migrates it forward, carries out
// again every suppression of personal data its ledger records after the backup (decision 0054: the
// ledger is `suppressions.ledger.json` beside the backup unless --ledger says where; without one the
// restore is refused unless --without-ledger), and says what it restored and re-applied (decision 0031).
// The server must be stopped; a directory that holds a database is replaced only with --force, and
// then kept beside the new one (db.before-restore-…).
import { parseArgs } from 'node:util';
import { DataDirLockedError } from '../src/server/db/data-dir-lock';
import { NoDatabaseError, requireDataDirectory } from '../src/server/db/existing-database';
import { loadEnv } from '../src/server/env';
import { BackupError } from '../src/server/features/backups/backup-file';
import { type RestoreResult, restoreBackup } from '../src/server/features/backups/restore';
import { formatDateTime, formatInteger } from '../src/shared/format';

const KINDS = { nightly: 'nocturno', manual: 'manual', 'pre-migration': 'antes de migración' } as const;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'data-dir': { type: 'string' },
    force: { type: 'boolean', default: false },
    ledger: { type: 'string' },
    'without-ledger': { type: 'boolean', default: false },
  },
});
const [file] = positionals;
if (!file || positionals.length > 1) {
  console.error(
    'Uso / usage: npm run restore -- <archivo.backup> [--data-dir DIR] [--force] [--ledger ARCHIVO | --without-ledger]',
  );
  process.exit(2);
}
const env = loadEnv();
const dataDir = values['data-dir'] ?? env.DATA_DIR;

function replayLines(replayed: RestoreResult['replayed']): string[] {
  if (replayed.length === 0) return ['Supresiones repetidas: ninguna (el respaldo ya las tenía todas).'];
  return [
    `Supresiones repetidas (${replayed.length}), posteriores al respaldo:`,
    ...replayed.map(
      (entry) =>
        `  · solicitud ${entry.requestId} del ${formatDateTime(entry.suppressedAt)}: ${REPLAY_OUTCOMES[entry.outcome]}`,
    ),
  ];
}

const REPLAY_OUTCOMES = {
  suppressed: 'datos personales suprimidos de nuevo',
  'already-suppressed': 'ya estaban suprimidos',
  'no-holder': 'el respaldo no tiene a ese titular (nada que suprimir)',
} as const;

try {
  requireDataDirectory(dataDir);
  console.log(`Comprobando ${file}…`);
  const result = await restoreBackup({
    file,
    dataDir,
    passphrase: env.BACKUP_KEY,
    force: values.force,
    ledger: values.ledger,
    withoutLedger: values['without-ledger'],
  });
  const { header, counts } = result;
  console.log(
    [
      `Respaldo ${KINDS[header.kind]} del ${formatDateTime(header.createdAt)} restaurado en ${result.dbDir}.`,
      result.migrationsAfter > result.migrationsBefore
        ? `Migrado: ${result.migrationsBefore} → ${result.migrationsAfter} migraciones.`
        : `Esquema al día (${result.migrationsAfter} migraciones).`,
      `Clientes: ${formatInteger(counts.clients)} · Reservas: ${formatInteger(counts.reservations)} · Flujos: ${formatInteger(counts.flows)}`,
      result.previous ? `La base de datos anterior quedó en ${result.previous}.` : '',
      result.ledger === null
        ? 'Restaurado SIN registro de supresiones (--without-ledger): no se repitió ninguna supresión.'
        : `Registro de supresiones: ${result.ledger}.`,
      ...replayLines(result.replayed),
      `Restored: ${counts.clients} clients, ${counts.reservations} reservations, ${counts.flows} flows.`,
    ]
      .filter(Boolean)
      .join('\n'),
  );
} catch (error) {
  if (
    error instanceof BackupError ||
    error instanceof DataDirLockedError ||
    error instanceof NoDatabaseError
  ) {
    console.error(`\n${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
