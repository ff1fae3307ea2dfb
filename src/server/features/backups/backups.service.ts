/**
 * Backups of the embedded database (issue 30, decision 0031): taken while the server runs, nightly
 * at 03:00 in Santiago, before migrations and on demand; kept by a retention policy in BACKUP_DIR.
 * There is no table: the list is the backup directory's files and their headers, so it survives a
 * restore and shows what is really on disk. Nothing here runs on PostgreSQL (decision 0031: its
 * backups are pg_dump's and the provider's point-in-time recovery).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { can } from '../../../shared/permissions';
import { pick } from '../../../shared/pick';
import {
  BACKUP_STALE_HOURS,
  type BackupRow,
  type BackupStatusResponse,
  type BackupsResponse,
} from '../../../shared/schemas/backups';
import type { ServiceContext } from '../../context';
import { drizzleFor } from '../../db/client';
import { millisUntilSantiagoHour } from '../../db/maintenance';
import { AppError } from '../../http/app-error';
import { migrationsFolder } from '../../paths';
import * as audit from '../audit/audit.service';
import * as dataRequests from '../data-requests/data-requests.service';
import {
  BACKUP_KINDS,
  BackupError,
  type BackupHeader,
  type BackupKind,
  type OutputFactory,
  readBackupHeader,
  writeBackupFile,
} from './backup-file';
import { backupsToPrune, type RetentionPolicy } from './retention';
import { snapshotPglite } from './snapshot';

export interface BackupSettings {
  /** The server's DATA_DIR; the database is in `<dataDir>/db`. */
  dataDir: string;
  backupDir: string;
  passphrase?: string;
  retention: RetentionPolicy;
}

/** The settings from the environment (see env.ts: BACKUP_DIR, BACKUP_KEY, BACKUP_KEEP_*). */
export function backupSettingsOf(env: {
  DATA_DIR: string;
  BACKUP_DIR?: string;
  BACKUP_KEY?: string;
  BACKUP_KEEP_DAILY: number;
  BACKUP_KEEP_WEEKLY: number;
  BACKUP_KEEP_MONTHLY: number;
}): BackupSettings {
  return {
    dataDir: resolve(env.DATA_DIR),
    backupDir: resolve(env.BACKUP_DIR ?? join(env.DATA_DIR, 'backups')),
    passphrase: env.BACKUP_KEY || undefined,
    retention: {
      daily: env.BACKUP_KEEP_DAILY,
      weekly: env.BACKUP_KEEP_WEEKLY,
      monthly: env.BACKUP_KEEP_MONTHLY,
    },
  };
}

export interface BackupEntry {
  name: string;
  createdAt: string;
  kind: BackupKind;
  /** Bytes of the file. */
  bytes: number;
  encrypted: boolean;
  schema: BackupHeader['schema'];
}

const NAME = new RegExp(`^inmoflujo-(\\d{8}T\\d{9}Z)-(${BACKUP_KINDS.join('|')})\\.backup$`);

export function backupFileName(at: Date, kind: BackupKind): string {
  const stamp = at.toISOString().replace(/[-:.]/g, '');
  return `inmoflujo-${stamp}-${kind}.backup`;
}

/** Refuses any name that is not one of ours (no path may leave the backup directory). */
export function isBackupName(name: string): boolean {
  return NAME.test(name);
}

interface Journal {
  entries: { idx: number; tag: string }[];
}

function journal(): Journal {
  return JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as Journal;
}

/** How many of the committed migrations the database has applied (0 for an empty database). */
export async function appliedMigrations(client: PGlite): Promise<number> {
  const table = await client.query<{ exists: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as exists",
  );
  if (!table.rows[0]?.exists) return 0;
  const count = await client.query<{ count: number }>(
    'select count(*)::int as count from drizzle.__drizzle_migrations',
  );
  return count.rows[0]?.count ?? 0;
}

export function schemaVersionOf(migrations: number): BackupHeader['schema'] {
  return { migrations, last: journal().entries[migrations - 1]?.tag ?? null };
}

/** Migrations committed in ./drizzle that the database has not applied yet. */
export async function pendingMigrations(client: PGlite): Promise<number> {
  return Math.max(0, journal().entries.length - (await appliedMigrations(client)));
}

export interface BackupLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

const silentLog: BackupLog = { info() {}, error() {} };

/** Backups of one running embedded database. One backup at a time. */
export class EmbeddedBackups {
  private running: Promise<BackupEntry> | null = null;

  constructor(
    private readonly client: PGlite,
    readonly settings: BackupSettings,
    private readonly log: BackupLog = silentLog,
    /** Where the archive's bytes go (tests inject a full disk). */
    private readonly output?: OutputFactory,
  ) {}

  get inProgress(): boolean {
    return this.running !== null;
  }

  /** Takes a backup now; refuses while another is being taken. */
  create(kind: BackupKind, at: Date): Promise<BackupEntry> {
    if (this.running) {
      return Promise.reject(
        new BackupError(
          'BACKUP_IN_PROGRESS',
          'Ya se está creando un respaldo. / A backup is already in progress.',
        ),
      );
    }
    this.running = this.take(kind, at).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async take(kind: BackupKind, at: Date): Promise<BackupEntry> {
    const began = performance.now();
    const { backupDir, dataDir } = this.settings;
    await mkdir(backupDir, { recursive: true });
    await this.removeLeftovers();
    // The copy is staged next to the database (the same disk: a reflink or a fast copy), archived
    // from there into BACKUP_DIR, then removed.
    const staging = join(dataDir, `.backup-staging-${process.pid}-${at.getTime()}`);
    let name = backupFileName(at, kind);
    for (let n = 1; existsSync(join(backupDir, name)); n++) {
      name = backupFileName(new Date(at.getTime() + n), kind);
    }
    try {
      const schema = schemaVersionOf(await appliedMigrations(this.client));
      // A suppression's old values are scrubbed from the files before they are copied (decision 0054).
      const db = drizzleFor(this.client);
      const scrub = await dataRequests.scrubPending(db, { dataDir: join(dataDir, 'db'), now: at });
      if (scrub)
        this.log.info(
          {
            requests: scrub.requests.length,
            tables: scrub.tables,
            walSegments: scrub.walSegments,
            millis: Math.round(scrub.millis),
          },
          'suppressed values scrubbed from the files',
        );
      const snapshot = await snapshotPglite(this.client, join(dataDir, 'db'), staging);
      const header = await writeBackupFile({
        source: staging,
        target: join(backupDir, name),
        kind,
        createdAt: at,
        schema,
        passphrase: this.settings.passphrase,
        output: this.output,
      });
      // The ledger beside the backups: a restore of this one replays what comes after (decision 0054).
      await dataRequests.writeLedgerBeside(db, backupDir, at);
      const entry = entryOf(name, header, header.payload.bytes + 4096);
      this.log.info(
        {
          backup: name,
          kind,
          bytes: entry.bytes,
          sourceBytes: header.sourceBytes,
          heldMs: Math.round(snapshot.heldMs),
          millis: Math.round(performance.now() - began),
        },
        'backup created',
      );
      await this.prune();
      return entry;
    } catch (error) {
      this.log.error({ err: error, kind }, 'backup failed');
      throw error;
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }

  /** A staging copy or a partial file left by a process killed mid-backup. */
  private async removeLeftovers(): Promise<void> {
    const { backupDir, dataDir } = this.settings;
    for (const name of await readdir(dataDir).catch(() => [])) {
      if (name.startsWith('.backup-staging-'))
        await rm(join(dataDir, name), { recursive: true, force: true });
    }
    for (const name of await readdir(backupDir).catch(() => [])) {
      if (name.startsWith('.inmoflujo-') && name.endsWith('.partial'))
        await rm(join(backupDir, name), { force: true });
    }
  }

  /** Deletes the backups the retention policy no longer keeps; returns their names. */
  async prune(): Promise<string[]> {
    const doomed = backupsToPrune(await this.list(), this.settings.retention);
    for (const backup of doomed) await rm(join(this.settings.backupDir, backup.name), { force: true });
    if (doomed.length) this.log.info({ removed: doomed.map((backup) => backup.name) }, 'old backups removed');
    return doomed.map((backup) => backup.name);
  }

  list(): Promise<BackupEntry[]> {
    return listBackups(this.settings.backupDir);
  }

  /** The path of one listed backup, or a BACKUP_NOT_FOUND refusal. */
  async pathOf(name: string): Promise<string> {
    if (!isBackupName(name)) throw new BackupError('BACKUP_NOT_FOUND', 'No existe ese respaldo.');
    const path = join(this.settings.backupDir, name);
    await readBackupHeader(path);
    return path;
  }
}

function entryOf(name: string, header: BackupHeader, bytes: number): BackupEntry {
  return {
    name,
    createdAt: header.createdAt,
    kind: header.kind,
    bytes,
    encrypted: header.payload.encryption !== null,
    schema: header.schema,
  };
}

/** The complete backups in `backupDir`, newest first (a file whose header does not read is left out). */
export async function listBackups(backupDir: string): Promise<BackupEntry[]> {
  const names = (await readdir(backupDir).catch(() => [] as string[])).filter(isBackupName);
  const entries: BackupEntry[] = [];
  for (const name of names) {
    try {
      const { header, fileBytes } = await readBackupHeader(join(backupDir, name));
      entries.push(entryOf(name, header, fileBytes));
    } catch {
      // Not a complete backup: never listed as one.
    }
  }
  return entries.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Whether two paths are on the same device (a backup there dies with the data). */
export async function sameDisk(a: string, b: string): Promise<boolean> {
  const [first, second] = await Promise.all([stat(a).catch(() => null), stat(b).catch(() => null)]);
  return first !== null && second !== null && first.dev === second.dev;
}

// --- What the API offers administrators -----------------------------------------------------------

function requireAdmin(ctx: ServiceContext): void {
  if (!can(ctx.user, 'backups.manage')) throw new AppError('FORBIDDEN');
}

function requireEmbedded(backups: EmbeddedBackups | null): EmbeddedBackups {
  if (!backups) throw new AppError('BACKUPS_NOT_EMBEDDED');
  return backups;
}

function rowOf(entry: BackupEntry, removedAtNextNightly = false): BackupRow {
  return { ...pick(entry, ['name', 'createdAt', 'kind', 'bytes', 'encrypted']), removedAtNextNightly };
}

/** The hour of the nightly backup, Santiago time (an hour before the maintenance's VACUUM). */
export const NIGHTLY_HOUR = 3;

/** The backups the retention policy will delete after the next nightly backup (the screen says so). */
export function removedAtNextNightly(
  list: readonly BackupEntry[],
  policy: RetentionPolicy,
  now: Date,
): Set<string> {
  const next = new Date(now.getTime() + millisUntilSantiagoHour(now, NIGHTLY_HOUR));
  const nightly = { name: '\0next', createdAt: next.toISOString(), kind: 'nightly' };
  return new Set(backupsToPrune([...list, nightly], policy).map((backup) => backup.name));
}

/** Configuración → Respaldos: the backups on disk and where they are (administrators). */
export async function overview(
  ctx: ServiceContext,
  backups: EmbeddedBackups | null,
): Promise<BackupsResponse> {
  requireAdmin(ctx);
  const scrub = await dataRequests.scrubState(ctx.db);
  if (!backups) {
    return {
      scrub,
      engine: 'postgres',
      backups: [],
      backupDir: null,
      isOnDataDisk: false,
      isEncrypted: false,
      retention: { daily: 0, weekly: 0, monthly: 0 },
      isInProgress: false,
    };
  }
  const { backupDir, dataDir, passphrase, retention } = backups.settings;
  await mkdir(backupDir, { recursive: true });
  return {
    scrub,
    engine: 'pglite',
    backups: await (async () => {
      const list = await backups.list();
      const doomed = removedAtNextNightly(list, retention, ctx.now);
      return list.map((entry) => rowOf(entry, doomed.has(entry.name)));
    })(),
    backupDir,
    isOnDataDisk: await sameDisk(backupDir, dataDir),
    isEncrypted: Boolean(passphrase),
    retention,
    isInProgress: backups.inProgress,
  };
}

/** 'Crear respaldo ahora'. */
export async function createNow(ctx: ServiceContext, backups: EmbeddedBackups | null): Promise<BackupRow> {
  requireAdmin(ctx);
  const embedded = requireEmbedded(backups);
  try {
    const created = await embedded.create('manual', ctx.now);
    // Every client's data in one file: who made it is in Auditoría (issue 54).
    await audit.recordExport(ctx, {
      name: 'respaldo',
      title: created.name,
      format: created.encrypted ? 'respaldo cifrado' : 'respaldo sin cifrar',
      rows: 0,
      filters: { accion: 'creado' },
    });
    return rowOf(created);
  } catch (error) {
    if (error instanceof BackupError) {
      if (error.code === 'BACKUP_IN_PROGRESS') throw new AppError('BACKUP_IN_PROGRESS', { cause: error });
      if (error.code === 'BACKUP_DISK_FULL') throw new AppError('BACKUP_DISK_FULL', { cause: error });
    }
    throw new AppError('BACKUP_FAILED', { params: { reason: (error as Error).message }, cause: error });
  }
}

/** The file of one backup, to download. */
export async function fileOf(
  ctx: ServiceContext,
  backups: EmbeddedBackups | null,
  name: string,
): Promise<string> {
  requireAdmin(ctx);
  const embedded = requireEmbedded(backups);
  let path: string;
  try {
    path = await embedded.pathOf(name);
  } catch (error) {
    throw new AppError('BACKUP_NOT_FOUND', { cause: error });
  }
  // Every client's data leaving the server: who downloaded it is in Auditoría (issue 54).
  await audit.recordExport(ctx, {
    name: 'respaldo',
    title: name,
    format: 'respaldo',
    rows: 0,
    filters: { accion: 'descargado' },
  });
  return path;
}

/** The dashboard's warning for administrators: the last good backup and whether it is too old. */
export async function status(
  ctx: ServiceContext,
  backups: EmbeddedBackups | null,
): Promise<BackupStatusResponse['status']> {
  requireAdmin(ctx);
  if (!backups) return null;
  const [last] = await backups.list();
  const lastGoodAt = last?.createdAt ?? null;
  const isStale =
    lastGoodAt === null ||
    ctx.now.getTime() - new Date(lastGoodAt).getTime() > BACKUP_STALE_HOURS * 3_600_000;
  return { lastGoodAt, isStale };
}
