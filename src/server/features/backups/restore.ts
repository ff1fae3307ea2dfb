/**
 * Restoring a backup into a data directory (issue 30): check the file (header, size, SHA-256, key),
 * unpack into a staging directory, open it (PostgreSQL's recovery runs), migrate it forward, count,
 * and only then put it in place. A refusal at any step changes nothing; with --force the database
 * that was there is kept beside it as `db.before-restore-<time>`, never deleted.
 */
import { existsSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createPglite, drizzleFor, migratePglite } from '../../db/client';
import { lockDataDir } from '../../db/data-dir-lock';
import * as dataRequests from '../data-requests/data-requests.service';
import {
  BackupError,
  type BackupHeader,
  extractBackup,
  readBackupHeader,
  unlockBackup,
  verifyChecksum,
} from './backup-file';
import { appliedMigrations } from './backups.service';

export interface RestoreCounts {
  clients: number;
  reservations: number;
  flows: number;
}

export interface RestoreResult {
  header: BackupHeader;
  dbDir: string;
  /** Where the database that was there went (with --force), if there was one. */
  previous: string | null;
  migrationsBefore: number;
  migrationsAfter: number;
  counts: RestoreCounts;
  /** The ledger read (null: restored without one, by the operator's choice). */
  ledger: string | null;
  /** The suppressions carried out again (decision 0054). */
  replayed: dataRequests.ReplayedSuppression[];
}

async function holdsData(directory: string): Promise<boolean> {
  const entries = await readdir(directory).catch(() => [] as string[]);
  return entries.length > 0;
}

/** Checks a backup file completely without restoring it (header, size, checksum, key). */
export async function checkBackup(file: string, passphrase: string | undefined) {
  const { header } = await readBackupHeader(file);
  await verifyChecksum(file, header);
  const key = await unlockBackup(header, passphrase);
  return { header, key };
}

export async function restoreBackup(options: {
  file: string;
  dataDir: string;
  passphrase?: string;
  force?: boolean;
  now?: Date;
  /** The ledger of suppressions; `suppressions.ledger.json` beside the backup by default. */
  ledger?: string;
  /** Restore without a ledger: the operator's explicit choice (`--without-ledger`). */
  withoutLedger?: boolean;
}): Promise<RestoreResult> {
  const file = resolve(options.file);
  const dataDir = resolve(options.dataDir);
  const { header, key } = await checkBackup(file, options.passphrase);
  // The ledger first: a restore that cannot replay the suppressions made since changes nothing.
  const ledgerPath = resolve(options.ledger ?? join(dirname(file), dataRequests.LEDGER_FILE));
  let ledger: dataRequests.LedgerEntry[] | null = null;
  if (!options.withoutLedger) {
    try {
      ledger = await dataRequests.readLedgerFile(ledgerPath);
    } catch (error) {
      throw new BackupError(
        'BACKUP_LEDGER_MISSING',
        `${(error as Error).message} Sin él, las supresiones de datos personales hechas después de este ` +
          'respaldo no se repetirían y esas personas volverían a aparecer: no se restauró nada. Indique el ' +
          'registro con --ledger ARCHIVO, o restaure sin él con --without-ledger si sabe que no hubo ' +
          'supresiones después del respaldo.',
      );
    }
  }
  const dbDir = join(dataDir, 'db');
  if (!options.force && (await holdsData(dbDir))) {
    throw new BackupError(
      'BACKUP_TARGET_NOT_EMPTY',
      `${dbDir} ya tiene una base de datos: no se tocó. Para reemplazarla (se conservará al lado como ` +
        `db.before-restore-…) repita con --force. / ${dbDir} already holds a database and was left ` +
        'untouched; add --force to replace it (it is kept aside, not deleted).',
    );
  }
  // No server may run on the directory while its database is replaced.
  const lock = await lockDataDir(dataDir);
  const stamp = (options.now ?? new Date()).toISOString().replace(/[-:.]/g, '');
  const staging = join(dataDir, `db.restoring-${stamp}`);
  try {
    await rm(staging, { recursive: true, force: true });
    await extractBackup(file, header, key, staging);
    const client = await createPglite({ dataDir: staging });
    let migrationsBefore: number;
    let migrationsAfter: number;
    let counts: RestoreCounts;
    let replayed: dataRequests.ReplayedSuppression[];
    try {
      migrationsBefore = await appliedMigrations(client);
      await migratePglite(client);
      migrationsAfter = await appliedMigrations(client);
      // Before anything serves it: every suppression the backup predates, carried out again.
      replayed = ledger
        ? await dataRequests.replaySuppressions(drizzleFor(client), ledger, options.now ?? new Date())
        : [];
      if (replayed.some((entry) => entry.outcome === 'suppressed')) {
        await dataRequests.scrubPending(drizzleFor(client), {
          dataDir: staging,
          now: options.now ?? new Date(),
        });
      }
      const result = await client.query<RestoreCounts>(
        `select (select count(*) from clients)::int as clients,
                (select count(*) from reservations)::int as reservations,
                (select count(*) from flows)::int as flows`,
      );
      counts = result.rows[0] as RestoreCounts;
    } finally {
      await client.close();
    }
    let previous: string | null = null;
    if (existsSync(dbDir)) {
      if (await holdsData(dbDir)) {
        previous = join(dataDir, `db.before-restore-${stamp}`);
        await rename(dbDir, previous);
      } else {
        await rm(dbDir, { recursive: true, force: true });
      }
    }
    await rename(staging, dbDir);
    return {
      header,
      dbDir,
      previous,
      migrationsBefore,
      migrationsAfter,
      counts,
      ledger: ledger === null ? null : ledgerPath,
      replayed,
    };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  } finally {
    lock.release();
  }
}
