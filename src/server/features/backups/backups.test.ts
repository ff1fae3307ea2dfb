import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePgliteDriver } from 'drizzle-orm/pglite/migrator';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { flowViolations } from '../../../shared/domain/workflow/invariants';
import { buildApp } from '../../app';
import { createPglite, type Database, drizzleFor, postgresPool, queryRows } from '../../db/client';
import { type DataDirLock, lockDataDir } from '../../db/data-dir-lock';
import { migrationsFolder, projectRoot } from '../../paths';
import { Agent, errorOf, loginAs, useTestApp } from '../../test/app';
import { createReservation, createUser, TEST_PASSWORD, uniqueRut } from '../../test/builders';
import { createPostgresTestDatabase, preparePgliteTemplate, testDatabaseUrl } from '../../test/database';
import { describeOnEmbedded, describeOnPostgres } from '../../test/engine';
import { createSaleFlow } from '../../test/flow-builders';
import { systemDatabase } from '../../test/system-database';
import * as workflows from '../workflows/workflows.service';
import { BackupError, HEADER_BYTES, type OutputFactory, readBackupHeader } from './backup-file';
import { backupBeforeMigrating } from './backup-schedule';
import { type BackupEntry, type BackupSettings, EmbeddedBackups, listBackups } from './backups.service';
import { checkBackup, restoreBackup } from './restore';

const RETENTION = { daily: 7, weekly: 4, monthly: 12 };

/** A data directory holding a migrated embedded database (from the test run's template). */
async function embeddedDataDir(): Promise<{ dir: string; client: PGlite }> {
  const dir = mkdtempSync(join(tmpdir(), 'inmoflujo-backup-'));
  const template = new Blob([readFileSync(await preparePgliteTemplate())]);
  const client = await createPglite({ dataDir: join(dir, 'db'), loadDataDir: template });
  return { dir, client };
}

function settingsFor(dir: string, passphrase?: string): BackupSettings {
  return { dataDir: dir, backupDir: join(dir, 'backups'), passphrase, retention: RETENTION };
}

async function appOn(db: Database, backups?: EmbeddedBackups): Promise<FastifyInstance> {
  const app = await buildApp({
    db,
    backups,
    serveClient: false,
    env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
  });
  await app.ready();
  return app;
}

async function signIn(app: FastifyInstance, email: string): Promise<Agent> {
  const agent = new Agent(app);
  const response = await agent.post('/api/auth/login', { email, password: TEST_PASSWORD });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  return agent;
}

/** An output that fails like a full disk once `limit` bytes were written. */
function fullDiskAfter(limit: number): OutputFactory {
  return () => {
    let written = 0;
    return new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written += chunk.length;
        if (written > limit) {
          const error = new Error('ENOSPC: no space left on device, write') as NodeJS.ErrnoException;
          error.code = 'ENOSPC';
          return callback(error);
        }
        callback();
      },
    });
  };
}

/**
 * Between two writes of a writer: people and their requests arrive through the network, between which
 * the event loop turns; a loop of in-process writes back to back would hold it for good.
 */
function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 25));
}

function filesIn(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

describeOnEmbedded('backups of the embedded database', () => {
  let dir: string;
  let client: PGlite;
  let db: Database;
  let app: FastifyInstance;
  let backups: EmbeddedBackups;
  let adminEmail: string;
  let lock: DataDirLock;
  const scratch: string[] = [];

  beforeAll(async () => {
    ({ dir, client } = await embeddedDataDir());
    // As the server does: the directory is this process's while its database is open.
    lock = await lockDataDir(dir);
    db = systemDatabase(drizzleFor(client));
    backups = new EmbeddedBackups(client, settingsFor(dir));
    app = await appOn(drizzleFor(client), backups);
    adminEmail = (await createUser(db, { userType: 'Administrador' })).email;
    // Some history for the sample: reservations with sale flows, a few tasks moved.
    for (let i = 0; i < 12; i++) {
      const reservation = await createReservation(db);
      const flow = await createSaleFlow(db, { reservationId: reservation.id });
      if (i % 3 === 0) await flow.complete(flow.taskNames()[0]!);
    }
  });
  afterAll(async () => {
    await app?.close();
    await client?.close();
    lock?.release();
    for (const path of [dir, ...scratch]) if (path) rmSync(path, { recursive: true, force: true });
  });

  function scratchDir(): string {
    const path = mkdtempSync(join(tmpdir(), 'inmoflujo-restore-'));
    scratch.push(path);
    return path;
  }

  // One plain backup for the tests that only need one to be there, to copy or to restore: each
  // took its own, a whole copy of the database each. (Manual backups are kept until the next
  // nightly one, retention.ts: no later test's backup prunes it.)
  let plainBackup: Promise<BackupEntry> | undefined;
  const onePlainBackup = () => {
    plainBackup ??= backups.create('manual', new Date());
    return plainBackup;
  };

  it('takes a backup while writers keep writing; the restore has every write acknowledged before it began, sound flows and the same API answers', async () => {
    const admin = await signIn(app, adminEmail);
    const acknowledged: { clientId?: string; reservationId?: string; at: number }[] = [];
    let sequence = 0;
    let writing = true;
    // Each writer stops at its cap even if the backup is still running: under load a backup took
    // minutes, the writers wrote thousands of records, and checking their flows took four more.
    const WRITES_PER_WRITER = 60;
    const writers = [
      (async () => {
        for (let i = 0; writing && i < WRITES_PER_WRITER; i++) {
          // Acknowledged = answered 201.
          const response = await admin.post('/api/clients', {
            rut: uniqueRut(),
            firstName: 'Escritor',
            lastName: `Concurrente ${i}`,
            birthDate: '1990-01-01',
          });
          if (response.statusCode === 201) {
            acknowledged.push({ clientId: response.json().client.id, at: ++sequence });
          }
          await pause();
        }
      })(),
      (async () => {
        for (let i = 0; writing && i < WRITES_PER_WRITER; i++) {
          const reservation = await createReservation(db);
          await createSaleFlow(db, { reservationId: reservation.id });
          acknowledged.push({ reservationId: reservation.id, at: ++sequence });
          await pause();
        }
      })(),
    ];
    while (acknowledged.length < 10) await new Promise((resolve) => setTimeout(resolve, 20));
    // Everything acknowledged up to here must be in the backup.
    const before = sequence;
    const created = await admin.post('/api/backups');
    const writtenDuring = sequence - before;
    writing = false;
    await Promise.all(writers);
    expect(created.statusCode).toBe(201);
    expect(writtenDuring).toBeGreaterThan(0);

    const target = scratchDir();
    const restored = await restoreBackup({
      file: join(dir, 'backups', created.json().backup.name),
      dataDir: target,
    });
    const copy = await createPglite({ dataDir: join(target, 'db') });
    const copyDb = drizzleFor(copy);
    const copyApp = await appOn(copyDb);
    try {
      const clientIds = new Set(
        (await queryRows<{ id: string }>(copyDb, sql`select id from clients`)).map((row) => row.id),
      );
      const reservationIds = new Set(
        (await queryRows<{ id: string }>(copyDb, sql`select id from reservations`)).map((row) => row.id),
      );
      const missing = acknowledged
        .filter((write) => write.at <= before)
        .filter((write) =>
          write.clientId ? !clientIds.has(write.clientId) : !reservationIds.has(write.reservationId!),
        );
      expect(missing).toEqual([]);
      expect(restored.counts.clients).toBe(clientIds.size);

      // The workflow engine's invariants hold for every flow of the restored database.
      const flows = await queryRows<{ id: string }>(copyDb, sql`select id from flows order by id`);
      expect(flows.length).toBeGreaterThanOrEqual(12);
      const violations: string[] = [];
      for (const { id } of flows) {
        const { definition, state } = await workflows.readFlow(copyDb, id);
        violations.push(...flowViolations(definition, state));
      }
      expect(violations).toEqual([]);

      // The API answers the same for a sample of the records that existed before the backup.
      const copyAdmin = await signIn(copyApp, adminEmail);
      const sample = await queryRows<{ id: string; client_id: string }>(
        db,
        sql`select id, client_id from reservations order by created_at, id limit 8`,
      );
      for (const row of sample) {
        for (const url of [`/api/reservations/${row.id}`, `/api/clients/${row.client_id}`]) {
          const [source, copied] = [await admin.get(url), await copyAdmin.get(url)];
          expect(copied.statusCode).toBe(200);
          expect(copied.json()).toEqual(source.json());
        }
      }
    } finally {
      await copyApp.close();
      await copy.close();
    }
  }, 400_000);

  it('lets administrators list, create and download backups, and no one else', async () => {
    const admin = await signIn(app, adminEmail);
    const kam = await loginAs({ app, db, appDb: drizzleFor(client) }, { userType: 'KAM' });
    const created = await admin.post('/api/backups');
    expect(created.statusCode).toBe(201);
    const { backup } = created.json();
    expect(backup.kind).toBe('manual');

    const listed = await admin.get('/api/backups');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ engine: 'pglite', isOnDataDisk: true, isInProgress: false });
    expect(listed.json().backups.map((row: { name: string }) => row.name)).toContain(backup.name);

    const download = await admin.get(`/api/backups/${backup.name}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="${backup.name}"; filename*=UTF-8''${encodeURIComponent(backup.name)}`,
    );
    expect(download.rawPayload.equals(readFileSync(join(dir, 'backups', backup.name)))).toBe(true);

    const status = await admin.get('/api/backups/status');
    expect(status.json().status).toEqual({ lastGoodAt: backup.createdAt, isStale: false });

    for (const response of [
      await kam.get('/api/backups'),
      await kam.post('/api/backups'),
      await kam.get(`/api/backups/${backup.name}/download`),
      await kam.get('/api/backups/status'),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).code).toBe('FORBIDDEN');
    }
    const before = filesIn(join(dir, 'backups'));
    expect(before).toContain(backup.name);

    // A name that is not one of ours never reaches the disk.
    const outside = await admin.get('/api/backups/..%2F..%2Fdb%2FPG_VERSION/download');
    expect(outside.statusCode).toBe(404);
  }, 150_000);

  it('says a backup is overdue past 26 hours, and when there is none', async () => {
    // The same database, backed up into a folder of its own that holds none yet (a second database,
    // loaded for this alone, was a tenth of the file's time).
    const emptyBackups = new EmbeddedBackups(client, {
      ...settingsFor(dir),
      backupDir: join(scratchDir(), 'backups'),
    });
    let now = new Date('2026-11-20T12:00:00Z');
    const clockApp = await buildApp({
      db: drizzleFor(client),
      backups: emptyBackups,
      serveClient: false,
      now: () => now,
      env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    });
    try {
      const admin = await signIn(clockApp, adminEmail);
      expect((await admin.get('/api/backups/status')).json().status).toEqual({
        lastGoodAt: null,
        isStale: true,
      });
      await admin.post('/api/backups');
      now = new Date('2026-11-21T13:59:00Z');
      expect((await admin.get('/api/backups/status')).json().status).toEqual({
        lastGoodAt: '2026-11-20T12:00:00.000Z',
        isStale: false,
      });
      now = new Date('2026-11-21T14:01:00Z');
      expect((await admin.get('/api/backups/status')).json().status.isStale).toBe(true);
    } finally {
      await clockApp.close();
    }
  }, 150_000);

  it('fails on a full disk with a clear message, and changes nothing else', async () => {
    const earlier = await onePlainBackup();
    const before = filesIn(join(dir, 'backups'));
    const failing = new EmbeddedBackups(client, settingsFor(dir), undefined, fullDiskAfter(64 * 1024));
    const error = await failing.create('manual', new Date(Date.now() + 1000)).catch((caught) => caught);
    expect(error).toBeInstanceOf(BackupError);
    expect(error.code).toBe('BACKUP_DISK_FULL');
    expect(error.message).toMatch(/No queda espacio en disco/);
    expect(filesIn(join(dir, 'backups'))).toEqual(before);
    expect(filesIn(dir).filter((name) => name.startsWith('.backup-staging'))).toEqual([]);
    // The earlier backup is still whole.
    expect((await readBackupHeader(join(dir, 'backups', earlier.name))).header.kind).toBe('manual');

    const failingApp = await appOn(drizzleFor(client), failing);
    try {
      const admin = await signIn(failingApp, adminEmail);
      const response = await admin.post('/api/backups');
      expect(response.statusCode).toBe(507);
      expect(errorOf(response).message).toBe(
        'No queda espacio en el disco de respaldos: no se creó el respaldo.',
      );
      expect(filesIn(join(dir, 'backups'))).toEqual(before);
    } finally {
      await failingApp.close();
    }
  }, 150_000);

  it('refuses a corrupted, a truncated or a foreign file on restore, touching nothing', async () => {
    const good = await onePlainBackup();
    const file = join(dir, 'backups', good.name);
    const cases: [string, (path: string) => void, string][] = [
      [
        'a flipped byte',
        (path) => {
          const bytes = readFileSync(path);
          bytes[HEADER_BYTES + Math.floor((bytes.length - HEADER_BYTES) / 2)]! ^= 0xff;
          writeFileSync(path, bytes);
        },
        'BACKUP_CORRUPTED',
      ],
      ['a cut tail', (path) => truncateSync(path, statSync(path).size - 1000), 'BACKUP_TRUNCATED'],
      ['no header', (path) => writeFileSync(path, Buffer.alloc(10_000)), 'BACKUP_NOT_A_BACKUP'],
    ];
    for (const [, damage, code] of cases) {
      const copy = join(scratchDir(), good.name);
      cpSync(file, copy);
      damage(copy);
      const target = scratchDir();
      const error = await restoreBackup({ file: copy, dataDir: target }).catch((caught) => caught);
      expect(error).toBeInstanceOf(BackupError);
      expect(error.code).toBe(code);
      expect(filesIn(target)).toEqual([]);
    }
  }, 150_000);

  it('encrypts with BACKUP_KEY, restores with it, and refuses a wrong or missing key', async () => {
    const encrypted = new EmbeddedBackups(client, settingsFor(dir, 'clave larga de respaldo'));
    const backup = await encrypted.create('manual', new Date(Date.now() + 3000));
    expect(backup.encrypted).toBe(true);
    const file = join(dir, 'backups', backup.name);
    // Not a gzip stream in the clear.
    expect(
      readFileSync(file)
        .subarray(HEADER_BYTES, HEADER_BYTES + 2)
        .equals(Buffer.from([0x1f, 0x8b])),
    ).toBe(false);

    const wrong = scratchDir();
    const refusal = await restoreBackup({ file, dataDir: wrong, passphrase: 'otra clave' }).catch(
      (caught) => caught,
    );
    expect(refusal.code).toBe('BACKUP_KEY_WRONG');
    expect(refusal.message).toMatch(/no es la de este respaldo/);
    expect(filesIn(wrong)).toEqual([]);
    const missing = await restoreBackup({ file, dataDir: wrong }).catch((caught) => caught);
    expect(missing.code).toBe('BACKUP_KEY_REQUIRED');

    const target = scratchDir();
    const restored = await restoreBackup({ file, dataDir: target, passphrase: 'clave larga de respaldo' });
    expect(restored.counts.reservations).toBeGreaterThanOrEqual(12);
  }, 150_000);

  it('refuses to restore over a database unless forced, and then keeps the old one aside', async () => {
    const backup = await onePlainBackup();
    const file = join(dir, 'backups', backup.name);
    const target = scratchDir();
    await restoreBackup({ file, dataDir: target });
    const marker = join(target, 'db', 'PG_VERSION');
    const refusal = await restoreBackup({ file, dataDir: target }).catch((caught) => caught);
    expect(refusal.code).toBe('BACKUP_TARGET_NOT_EMPTY');
    expect(filesIn(target).sort()).toEqual(['db']);
    const forced = await restoreBackup({ file, dataDir: target, force: true });
    expect(forced.previous).not.toBeNull();
    expect(existsSync(join(forced.previous!, 'PG_VERSION'))).toBe(true);
    expect(existsSync(marker)).toBe(true);
    // Not over a running server's directory.
    const busy = await restoreBackup({ file, dataDir: dir, force: true }).catch((caught) => caught);
    expect(busy.name).toBe('DataDirLockedError');
  }, 150_000);

  it('migrates an older backup forward on restore, and backs up before migrating at start', async () => {
    // A database one migration behind: migrated from a copy of ./drizzle without its last entry.
    const older = mkdtempSync(join(tmpdir(), 'inmoflujo-older-'));
    scratch.push(older);
    const folder = join(older, 'drizzle');
    cpSync(migrationsFolder, folder, { recursive: true });
    const journalPath = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8'));
    const total = journal.entries.length;
    journal.entries.pop();
    writeFileSync(journalPath, JSON.stringify(journal));
    mkdirSync(join(older, 'data'));
    const olderClient = await createPglite({ dataDir: join(older, 'data', 'db') });
    try {
      await olderClient.exec("select set_config('inmoflujo.actor', 'sistema', false)");
      await migratePgliteDriver(drizzlePglite(olderClient), { migrationsFolder: folder });
      const olderBackups = new EmbeddedBackups(olderClient, settingsFor(join(older, 'data')));
      const before = await backupBeforeMigrating(olderBackups, olderClient, new Date());
      expect(before?.kind).toBe('pre-migration');
      expect(before?.schema.migrations).toBe(total - 1);
      const target = scratchDir();
      const restored = await restoreBackup({
        file: join(older, 'data', 'backups', before!.name),
        dataDir: target,
      });
      expect(restored.migrationsBefore).toBe(total - 1);
      expect(restored.migrationsAfter).toBe(total);
    } finally {
      await olderClient.close();
    }
    // Nothing pending: no backup before migrating.
    expect(await backupBeforeMigrating(backups, client, new Date())).toBeNull();
  }, 300_000);

  it('leaves earlier backups whole and no complete-looking file when killed mid-backup (kill -9)', async () => {
    const { dir: victim, client: victimClient } = await embeddedDataDir();
    scratch.push(victim);
    await victimClient.close();
    // The earlier backup in its folder: a copy of the one this file took (a second whole backup, of a
    // second database, cost seconds and proved nothing more).
    const backupDir = join(victim, 'backups');
    const earlier = await onePlainBackup();
    mkdirSync(backupDir, { recursive: true });
    cpSync(join(dir, 'backups', earlier.name), join(backupDir, earlier.name));
    const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'scripts', 'backup.ts')], {
      cwd: projectRoot,
      env: { ...process.env, DATA_DIR: victim, DATABASE_URL: '' },
      stdio: 'ignore',
    });
    // Killed as soon as the new file is being written.
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (filesIn(backupDir).some((name) => name.endsWith('.partial'))) {
          clearInterval(timer);
          child.kill('SIGKILL');
          resolve();
        }
      }, 2);
      child.on('exit', () => {
        clearInterval(timer);
        reject(new Error('the backup finished before it could be killed'));
      });
    });
    await new Promise((resolve) => child.once('exit', resolve));
    // The only complete backup listed is the earlier one, still whole.
    expect((await listBackups(backupDir)).map((backup) => backup.name)).toEqual([earlier.name]);
    const partial = filesIn(backupDir).filter((name) => name.endsWith('.partial'));
    for (const name of partial) {
      const error = await readBackupHeader(join(backupDir, name)).catch((caught) => caught);
      expect(error.code).toBe('BACKUP_NOT_A_BACKUP');
    }
    // Whole to the byte: its header, size and SHA-256 as written (restoring one is proved above).
    expect((await checkBackup(join(backupDir, earlier.name), undefined)).header.kind).toBe('manual');
    // The next backup clears what the killed one left.
    const reopened = await createPglite({ dataDir: join(victim, 'db') });
    try {
      await new EmbeddedBackups(reopened, settingsFor(victim)).create('manual', new Date());
      expect(filesIn(backupDir).filter((name) => name.endsWith('.partial'))).toEqual([]);
      expect(filesIn(victim).filter((name) => name.startsWith('.backup-staging'))).toEqual([]);
    } finally {
      await reopened.close();
    }
    // A ceiling, not a measure: the backup script's start through tsx beside a busy run (load 25 on
    // two cores) has taken over two minutes.
  }, 300_000);
});

describeOnPostgres('backups on PostgreSQL', () => {
  const ctx = useTestApp();

  it('tells administrators the product does not back up PostgreSQL, and refuses to create one', async () => {
    const admin = await loginAs(ctx);
    const listed = await admin.get('/api/backups');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ engine: 'postgres', backups: [] });
    const created = await admin.post('/api/backups');
    expect(created.statusCode).toBe(409);
    expect(errorOf(created).message).toMatch(/pg_dump/);
    expect((await admin.get('/api/backups/status')).json()).toEqual({ status: null });
  });

  it('refuses everyone but administrators', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM' });
    for (const response of [
      await kam.get('/api/backups'),
      await kam.post('/api/backups'),
      await kam.get('/api/backups/status'),
    ]) {
      expect(response.statusCode).toBe(403);
    }
  });
});

/**
 * The README's PostgreSQL backup (decision 0031), run as written: `pg_dump -Fc` of a database holding
 * data, `pg_restore` into an empty one, the same rows back — including the audit trail, whose table
 * refuses UPDATE and DELETE (the restore only inserts). Needs Debian's postgresql-client.
 */
describeOnPostgres('PostgreSQL backups with pg_dump / pg_restore (README, Operación)', () => {
  it('restores a dump into an empty database with every row', async () => {
    const source = await createPostgresTestDatabase(testDatabaseUrl()!);
    const target = await createPostgresTestDatabase(testDatabaseUrl()!);
    const dir = mkdtempSync(join(tmpdir(), 'inmoflujo-pgdump-'));
    const pool = postgresPool(source.url, 2);
    try {
      const db = systemDatabase(drizzleFor(pool));
      for (let i = 0; i < 3; i++) {
        const reservation = await createReservation(db);
        await createSaleFlow(db, { reservationId: reservation.id });
      }
      const counts = sql`select (select count(*) from clients)::int as clients,
          (select count(*) from reservations)::int as reservations, (select count(*) from flows)::int as flows,
          (select count(*) from audit_log)::int as audit, (select count(*) from drizzle.__drizzle_migrations)::int as migrations`;
      const [before] = await queryRows<Record<string, number>>(db, counts);
      const file = join(dir, 'inmoflujo.dump');
      // As in the README: custom format, no owners or privileges (a managed target has other roles).
      execFileSync('pg_dump', [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--file=${file}`,
        source.url,
      ]);
      // The target is an empty database: drop everything the template put there first.
      const targetClient = new pg.Client({ connectionString: target.url });
      await targetClient.connect();
      await targetClient.query(
        'drop schema public cascade; drop schema if exists drizzle cascade; create schema public',
      );
      await targetClient.end();
      execFileSync('pg_restore', [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        `--dbname=${target.url}`,
        file,
      ]);
      const restoredPool = postgresPool(target.url, 1);
      try {
        const [after] = await queryRows<Record<string, number>>(drizzleFor(restoredPool), counts);
        expect(after).toEqual(before);
        expect(before!.reservations).toBeGreaterThanOrEqual(3);
      } finally {
        await restoredPool.end();
      }
    } finally {
      await pool.end();
      await source.drop();
      await target.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
