// Issue 30: a backup of the bench's embedded database taken through the running server ('Crear
// respaldo ahora') while /api/health is polled (its longest wait is the longest time a request waited:
// the event loop's longest stall or the database held for the snapshot's last pass), then its restore
// into a scratch directory (checksum, unpack, recovery, migrations, counts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadEnv } from '../src/server/env';
import { backupSettingsOf } from '../src/server/features/backups/backups.service';
import { restoreBackup } from '../src/server/features/backups/restore';

export interface BackupMeasurement {
  httpStatus: number;
  totalMs: number;
  bytes: number;
  sourceBytes: number | null;
  longestHealthMs: number;
  healthPolls: number;
  restoreMs: number | null;
  restored: { clients: number; reservations: number; flows: number } | null;
}

/** Backs the server's database up and restores the file; null when the server has no backups (404). */
export async function measureBackup(
  origin: string,
  cookie: string,
  dataDir: string,
): Promise<BackupMeasurement | null> {
  let running = true;
  let longest = 0;
  let polls = 0;
  const poller = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${origin}/api/health`);
      await response.arrayBuffer();
      longest = Math.max(longest, performance.now() - started);
      polls += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${origin}/api/backups`, { method: 'POST', headers: { cookie, origin } });
  const body = (await response.json()) as { backup?: { name: string; bytes: number } };
  const totalMs = performance.now() - started;
  running = false;
  await poller;
  if (response.status === 404) return null;
  const measurement: BackupMeasurement = {
    httpStatus: response.status,
    totalMs: Math.round(totalMs),
    bytes: body.backup?.bytes ?? 0,
    sourceBytes: null,
    longestHealthMs: Math.round(longest),
    healthPolls: polls,
    restoreMs: null,
    restored: null,
  };
  if (!body.backup) return measurement;
  const settings = backupSettingsOf({ ...loadEnv(), DATA_DIR: dataDir });
  const target = mkdtempSync(join(tmpdir(), 'inmoflujo-bench-restore-'));
  try {
    const restoreStarted = performance.now();
    const restored = await restoreBackup({
      file: resolve(settings.backupDir, body.backup.name),
      dataDir: target,
      passphrase: settings.passphrase,
    });
    measurement.restoreMs = Math.round(performance.now() - restoreStarted);
    measurement.restored = restored.counts;
    measurement.sourceBytes = restored.header.sourceBytes;
  } finally {
    rmSync(target, { recursive: true, force: true });
  }
  return measurement;
}
