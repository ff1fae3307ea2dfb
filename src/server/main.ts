import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app';
import { openDatabase } from './db/client';
import { DataDirLockedError } from './db/data-dir-lock';
import { startEmbeddedMaintenance } from './db/maintenance';
import { loadEnv } from './env';
import { type EventBus, inProcessEventBus } from './events/event-bus';
import { postgresEventBus } from './events/postgres-event-bus';
import { EXCELJS_PRELOAD_DELAY_MS, loadExcelJs } from './exports/exceljs';
import {
  backupBeforeMigrating,
  listenForBackupRequests,
  scheduleNightlyBackups,
} from './features/backups/backup-schedule';
import { backupSettingsOf, EmbeddedBackups } from './features/backups/backups.service';
import * as dataRequests from './features/data-requests/data-requests.service';
import { recoverAbandonedRuns } from './features/imports/imports.service';
import { startMailJobs } from './features/mail/mail-jobs';
import { ufFetchSettings } from './features/uf-values/uf-source';
import { startUfFetchJob } from './features/uf-values/uf-values.service';

/**
 * Said to the supervisor (`npm start`, scripts/supervise.mjs, the same words) before an exit that a
 * restart would not mend (the data directory is another server's): it then stops instead.
 */
const DO_NOT_RESTART = 'inmoflujo:do-not-restart';

function exitForGood(code: number): Promise<never> {
  return new Promise(() => {
    if (process.send) process.send(DO_NOT_RESTART, () => process.exit(code));
    else process.exit(code);
  });
}

let fatalLog: Pick<FastifyBaseLogger, 'fatal'> | undefined;

// A fatal error is logged with its cause, then the process ends: under `npm start` the supervisor
// starts it again (decision 0051). Going on after an uncaught error would serve from a broken state.
process.on('uncaughtException', (error, origin) => {
  if (fatalLog) fatalLog.fatal({ err: error, origin }, 'fatal error: the server stops');
  else console.error('Fatal error: the server stops.', origin, error);
  process.exit(1);
});

/** How often an instance on PostgreSQL looks for imports another instance left half-applied. */
const IMPORT_RECOVERY_INTERVAL_MS = 60_000;

/** env -> database -> migrate -> listen; closes everything cleanly on SIGINT/SIGTERM. */
async function main() {
  const env = loadEnv();
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(`\n${error.message}\n`);
      await exitForGood(1);
    }
    throw error;
  }
  let log: FastifyBaseLogger | undefined;
  // The embedded database's backups (decision 0031); an existing database is backed up before a
  // migration changes it, and is not migrated when that backup fails.
  const backupLog = {
    info: (object: object, message: string) =>
      log ? log.info(object, message) : console.log(message, object),
    error: (object: object, message: string) =>
      log ? log.error(object, message) : console.error(message, object),
  };
  const backups = database.pglite
    ? new EmbeddedBackups(database.pglite, backupSettingsOf(env), backupLog)
    : undefined;
  if (backups && database.pglite) {
    try {
      await backupBeforeMigrating(backups, database.pglite, new Date());
    } catch (error) {
      console.error(
        `\nNo se pudo respaldar la base de datos antes de migrarla; no se migró ni se cambió nada. / The ` +
          `database could not be backed up before its migration; nothing was changed.\n${(error as Error).message}\n`,
      );
      await database.close();
      await exitForGood(1);
    }
  }
  await database.migrate();
  // Live events: in-process on the embedded database (locked to this process: the only writer); on
  // PostgreSQL, where several instances may serve one database, through LISTEN/NOTIFY.
  const { db } = database;
  const events: EventBus =
    database.kind === 'postgres' && env.DATABASE_URL
      ? await postgresEventBus({
          connectionString: env.DATABASE_URL,
          notify: async (channel, payload) => {
            await db.execute(sql`select pg_notify(${channel}, ${payload})`);
          },
          log: {
            warn: (object, message) => log?.warn(object, message),
            info: (object, message) => log?.info(object, message),
          },
        })
      : inProcessEventBus();
  const app = await buildApp({ db, env, events, backups });
  log = app.log;
  fatalLog = app.log;
  // Nightly at 03:00 in Santiago, and on request of `npm run backup` while the server runs.
  const stopNightlyBackups = backups ? scheduleNightlyBackups(backups, app.log) : () => {};
  const stopBackupRequests = backups ? await listenForBackupRequests(backups) : () => {};
  // An import a stopped server left 'Aplicando' is rolled back now, not left blocking the next one.
  const interrupted = await recoverAbandonedRuns(db);
  if (interrupted.length > 0) app.log.warn({ runs: interrupted }, 'interrupted imports rolled back');
  // On PostgreSQL another instance may die mid-import (kill -9): its lease goes with its connection, and
  // this instance rolls the run back within a minute instead of at its own restart (issue 57).
  const recoveryTimer =
    database.kind === 'postgres'
      ? setInterval(() => {
          recoverAbandonedRuns(db).then(
            (runs) => {
              if (runs.length > 0)
                app.log.warn({ runs }, 'imports interrupted on another instance rolled back');
            },
            (error) => app.log.error({ err: error }, 'recovery of interrupted imports failed'),
          );
        }, IMPORT_RECOVERY_INTERVAL_MS)
      : undefined;
  recoveryTimer?.unref();
  // The embedded database's vacuum and statistics (it has no autovacuum): now, then nightly.
  // Not at a restart after a crash (the supervisor says so, decision 0051): serving again comes first.
  // First, any suppression's old values scrubbed from the files (decision 0054).
  const stopMaintenance = await startEmbeddedMaintenance(db, database.kind, app.log, {
    atStart: process.env.INMOFLUJO_RESTART !== '1',
    scrub: async () => {
      // What is kept for a limited time goes first (decision 0055): old import files and .eml copies.
      const retention = await dataRequests.applyFileRetention(db, {
        mailDir: join(env.DATA_DIR, 'mail'),
        now: new Date(),
      });
      if (retention.importFiles + retention.mailCopies > 0)
        app.log.info(retention, 'old import files and mail copies removed');
      const scrub = await dataRequests.scrubPending(db, {
        dataDir: join(env.DATA_DIR, 'db'),
        now: new Date(),
      });
      if (scrub)
        app.log.info(
          { requests: scrub.requests.length, tables: scrub.tables, millis: Math.round(scrub.millis) },
          'suppressed values scrubbed from the files',
        );
    },
  });
  // The daily UF fetch, when an API key is set (decision 0034).
  const stopUfFetch = startUfFetchJob({ db, settings: ufFetchSettings(env), log: app.log });
  // E-mail notices: the sender and the daily digest, never inside a request (decision 0035).
  const stopMail = startMailJobs({ db, sender: app.mail, log: app.log });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    stopMaintenance();
    stopNightlyBackups();
    clearInterval(recoveryTimer);
    stopBackupRequests();
    try {
      stopUfFetch();
      await stopMail();
      await app.close();
      await events.close?.();
    } finally {
      await database.close();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ host: env.HOST, port: env.PORT });
  } catch (error) {
    app.log.error(error);
    await database.close();
    process.exit(1);
  }
  // Loaded once listening rather than before (a faster start) or at the first workbook (an import's
  // upload then held every other request ~0.2 s while its modules compiled).
  setTimeout(() => void loadExcelJs(), EXCELJS_PRELOAD_DELAY_MS).unref();
  const where = database.kind === 'pglite' ? `embedded database in ${env.DATA_DIR}` : 'PostgreSQL';
  app.log.info(
    `Inmoflujo listening on http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT} (${where})`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
