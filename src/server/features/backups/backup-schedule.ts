/**
 * When backups are taken without anyone asking (issue 30): every night at 03:00 in Santiago, and at
 * start before migrations that would change an existing database. Also the server's control socket,
 * through which `npm run backup` asks a running server for a backup (the CLI cannot open a database
 * the server holds).
 */
import { rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { relative, resolve } from 'node:path';
import { millisUntilSantiagoHour } from '../../db/maintenance';
import { BackupError } from './backup-file';
import {
  appliedMigrations,
  type BackupEntry,
  type BackupLog,
  type EmbeddedBackups,
  NIGHTLY_HOUR,
  pendingMigrations,
} from './backups.service';

export { NIGHTLY_HOUR };

/** Backs up an existing database before it is migrated; null when there is nothing to protect. */
export async function backupBeforeMigrating(
  backups: EmbeddedBackups,
  client: Parameters<typeof pendingMigrations>[0],
  now: Date,
): Promise<BackupEntry | null> {
  if ((await appliedMigrations(client)) === 0) return null;
  if ((await pendingMigrations(client)) === 0) return null;
  return backups.create('pre-migration', now);
}

/** Nightly backups at 03:00 Santiago time; returns what stops them. */
export function scheduleNightlyBackups(
  backups: EmbeddedBackups,
  log: BackupLog,
  now: () => Date = () => new Date(),
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = () => {
    timer = setTimeout(
      async () => {
        try {
          await backups.create('nightly', now());
        } catch (error) {
          log.error({ err: error }, 'nightly backup failed');
        }
        if (!stopped) schedule();
      },
      millisUntilSantiagoHour(now(), NIGHTLY_HOUR),
    );
    timer.unref();
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

function controlPath(dataDir: string): string {
  const absolute = resolve(dataDir, 'inmoflujo.backup.sock');
  const fromHere = relative(process.cwd(), absolute);
  return fromHere.length < absolute.length ? fromHere : absolute;
}

/**
 * Listens on `<dataDir>/inmoflujo.backup.sock` (only this server holds the data directory's lock,
 * so a socket file already there is a dead server's and is replaced). A client writes "backup\n" and
 * reads one JSON line: the backup made, or the refusal's message.
 */
export async function listenForBackupRequests(
  backups: EmbeddedBackups,
  now: () => Date = () => new Date(),
): Promise<() => void> {
  const path = controlPath(backups.settings.dataDir);
  rmSync(path, { force: true });
  const server: Server = createServer((socket) => {
    let request = '';
    socket.on('data', async (chunk) => {
      request += chunk;
      if (!request.includes('\n')) return;
      if (request.trim() !== 'backup')
        return socket.end(`${JSON.stringify({ ok: false, message: 'unknown request' })}\n`);
      try {
        const entry = await backups.create('manual', now());
        socket.end(
          `${JSON.stringify({ ok: true, entry, path: resolve(backups.settings.backupDir, entry.name) })}\n`,
        );
      } catch (error) {
        socket.end(`${JSON.stringify({ ok: false, message: (error as Error).message })}\n`);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(path, () => done());
  });
  server.unref();
  return () => server.close();
}

/** Asks the server running on `dataDir` for a backup; null when no server listens there. */
export function requestBackupFromServer(
  dataDir: string,
): Promise<{ ok: true; entry: BackupEntry; path: string } | { ok: false; message: string } | null> {
  return new Promise((done, fail) => {
    const socket = connect(controlPath(dataDir));
    let answer = '';
    socket.on('connect', () => socket.write('backup\n'));
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('end', () => {
      try {
        done(JSON.parse(answer));
      } catch (error) {
        fail(
          new BackupError('BACKUP_WRITE_FAILED', `Unexpected answer from the server: ${answer}`, {
            cause: error,
          }),
        );
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? done(null) : fail(error),
    );
  });
}
