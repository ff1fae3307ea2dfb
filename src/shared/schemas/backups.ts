import { z } from 'zod';
import { line } from './common';

export const BACKUP_KIND_LABELS = {
  nightly: 'Nocturno',
  manual: 'Manual',
  'pre-migration': 'Antes de migración',
} as const;
export type BackupKind = keyof typeof BACKUP_KIND_LABELS;

/** Backups older than this leave a warning on the administrators' dashboard (issue 30). */
export const BACKUP_STALE_HOURS = 26;

export const backupRow = z.object({
  name: z.string(),
  createdAt: z.string(),
  kind: z.enum(['nightly', 'manual', 'pre-migration']),
  bytes: z.number().int(),
  encrypted: z.boolean(),
  /** The retention policy deletes it after the next nightly backup (issue 57: said on screen). */
  removedAtNextNightly: z.boolean(),
});
export type BackupRow = z.infer<typeof backupRow>;

/** Configuración → Respaldos. On PostgreSQL only `engine` matters: the product does not back it up. */
export const backupsResponse = z.object({
  engine: z.enum(['pglite', 'postgres']),
  backups: z.array(backupRow),
  backupDir: z.string().nullable(),
  /** The backups are on the data directory's disk: one failure loses both. */
  isOnDataDisk: z.boolean(),
  isEncrypted: z.boolean(),
  retention: z.object({ daily: z.number(), weekly: z.number(), monthly: z.number() }),
  isInProgress: z.boolean(),
  /**
   * Suppressions whose old values are still in the database's files (decision 0054): scrubbed before
   * every backup and in the nightly maintenance; when the last scrub ran.
   */
  scrub: z.object({
    pending: z.number().int(),
    oldestPendingAt: z.string().nullable(),
    lastScrubbedAt: z.string().nullable(),
  }),
});
export type BackupsResponse = z.infer<typeof backupsResponse>;

export const backupResponse = z.object({ backup: backupRow });

/** The dashboard's warning: null when the embedded database is not backed up by the product. */
export const backupStatusResponse = z.object({
  status: z
    .object({
      lastGoodAt: z.string().nullable(),
      isStale: z.boolean(),
    })
    .nullable(),
});
export type BackupStatusResponse = z.infer<typeof backupStatusResponse>;

export const backupNameParams = z.object({ name: line().max(100) });
