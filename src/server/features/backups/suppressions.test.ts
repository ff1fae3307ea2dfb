import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { santiagoDateOf } from '../../../shared/format';
import { buildApp } from '../../app';
import { asSystem } from '../../db/actor';
import { createPglite, type Database, drizzleFor, queryRows } from '../../db/client';
import { type DataDirLock, lockDataDir } from '../../db/data-dir-lock';
import { Agent, loginAs, useTestApp } from '../../test/app';
import { createClient, createUser, TEST_PASSWORD } from '../../test/builders';
import { preparePgliteTemplate, testDatabaseUrl } from '../../test/database';
import { describeOnEmbedded, describeOnPostgres } from '../../test/engine';
import { systemDatabase } from '../../test/system-database';
import * as dataRequests from '../data-requests/data-requests.service';
import { extractBackup, readBackupHeader, unlockBackup } from './backup-file';
import { EmbeddedBackups } from './backups.service';
import { restoreBackup } from './restore';

/** The holder's values, each written nowhere else. */
const HOLDER = {
  rut: '17.246.813-6',
  firstName: 'Zenobiaxq',
  lastName: 'Wuthrichova',
  birthDate: '1979-02-23',
  phone: '+56 9 7412 5896',
  email: 'zenobiaxq.w@buzon-unico.cl',
};
const OLD_EMAIL = 'zenobia.vieja@buzon-unico.cl';
const VALUES = [HOLDER.firstName, HOLDER.lastName, HOLDER.email, OLD_EMAIL, '7412 5896'];

/** Files under `dir` whose bytes hold any of `values` (as `grep -rla` would list them). */
function filesHolding(dir: string, values: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const bytes = readFileSync(full);
        const hits = values.filter((value) => bytes.includes(value));
        if (hits.length) found.push(`${full.slice(dir.length)}: ${hits.join(', ')}`);
      }
    }
  };
  walk(dir);
  return found;
}

async function unpack(file: string, into: string): Promise<void> {
  const { header } = await readBackupHeader(file);
  await extractBackup(file, header, await unlockBackup(header, undefined), into);
}

describeOnEmbedded('a suppression in the bytes of the embedded database (issue 54)', () => {
  let dir: string;
  let client: PGlite;
  let db: Database;
  let app: FastifyInstance;
  let backups: EmbeddedBackups;
  let lock: DataDirLock;
  const scratch: string[] = [];
  const scratchDir = () => {
    const path = mkdtempSync(join(tmpdir(), 'inmoflujo-scrub-'));
    scratch.push(path);
    return path;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inmoflujo-scrub-'));
    const template = new Blob([readFileSync(await preparePgliteTemplate())]);
    client = await createPglite({ dataDir: join(dir, 'db'), loadDataDir: template });
    lock = await lockDataDir(dir);
    db = systemDatabase(drizzleFor(client));
    backups = new EmbeddedBackups(client, {
      dataDir: dir,
      backupDir: join(dir, 'backups'),
      retention: { daily: 7, weekly: 4, monthly: 12 },
    });
    app = await buildApp({
      db: drizzleFor(client),
      backups,
      serveClient: false,
      env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    });
    await app.ready();
  });
  afterAll(async () => {
    if (!client?.closed) {
      await app?.close();
      await client?.close();
      lock?.release();
    }
    for (const path of [dir, ...scratch]) if (path) rmSync(path, { recursive: true, force: true });
  });

  it('leaves none of the holder’s values in the stopped data directory, the backup taken after, or a restore of a backup taken before', async () => {
    const { email } = await createUser(db, { userType: 'Administrador' });
    const admin = new Agent(app);
    expect((await admin.post('/api/auth/login', { email, password: TEST_PASSWORD })).statusCode).toBe(200);
    const created = await admin.post('/api/clients', { ...HOLDER, email: OLD_EMAIL });
    expect(created.statusCode, created.body).toBe(201);
    const holder = created.json().client;
    // An old value too: the first e-mail lives on in the row's old version and in the log.
    const edited = await admin.put(`/api/clients/${holder.id}`, { ...HOLDER, version: holder.version });
    expect(edited.statusCode, edited.body).toBe(200);
    // Statistics sampled with the values in them (pg_statistic holds samples of a table's values).
    await client.exec('analyze clients');

    const before = await admin.post('/api/backups');
    expect(before.statusCode, before.body).toBe(201);
    const backupBefore = join(dir, 'backups', before.json().backup.name);

    const request = await admin.post('/api/data-requests', {
      kind: 'suppression',
      holderRut: HOLDER.rut,
      receivedDate: santiagoDateOf(new Date()),
    });
    expect(request.statusCode, request.body).toBe(201);
    const done = await admin.post(`/api/data-requests/${request.json().request.id}/suppress`, {
      confirmation: 'SUPRIMIR',
    });
    expect(done.statusCode, done.body).toBe(200);
    // The ledger beside the backups already knows (written after the suppression).
    expect(readFileSync(join(dir, 'backups', dataRequests.LEDGER_FILE), 'utf8')).toContain(
      request.json().request.id,
    );

    // Before the scrub the old versions are on disk, and Respaldos says the scrub is pending.
    const pending = (await admin.get('/api/backups')).json();
    expect(pending.scrub).toMatchObject({ pending: 1, lastScrubbedAt: null });

    // The backup runs the pending scrub first.
    const after = await admin.post('/api/backups');
    expect(after.statusCode, after.body).toBe(201);
    const scrubbed = (await admin.get('/api/backups')).json();
    expect(scrubbed.scrub.pending).toBe(0);
    expect(scrubbed.scrub.lastScrubbedAt).not.toBeNull();

    // Creating and downloading a backup (every client's data) are in Auditoría.
    expect((await admin.get(`/api/backups/${after.json().backup.name}/download`)).statusCode).toBe(200);
    const exports = await queryRows<{ name: string; action: string }>(
      drizzleFor(client),
      sql`select after->>'nombre' as name, after->>'filtro.accion' as action from audit_log
             where action = 'export' and table_name = 'respaldo' order by id`,
    );
    expect(exports).toEqual([
      { name: before.json().backup.name, action: 'creado' },
      { name: after.json().backup.name, action: 'creado' },
      { name: after.json().backup.name, action: 'descargado' },
    ]);

    const unpacked = scratchDir();
    await unpack(join(dir, 'backups', after.json().backup.name), unpacked);
    expect(filesHolding(unpacked, VALUES)).toEqual([]);

    // The backup taken before holds them (what the ledger is for).
    const unpackedBefore = scratchDir();
    await unpack(backupBefore, unpackedBefore);
    expect(filesHolding(unpackedBefore, VALUES).length).toBeGreaterThan(0);

    // Restoring it replays the suppression before anything serves it.
    const target = scratchDir();
    const restored = await restoreBackup({ file: backupBefore, dataDir: target });
    expect(restored.replayed).toEqual([
      expect.objectContaining({ requestId: request.json().request.id, outcome: 'suppressed' }),
    ]);
    const copy = await createPglite({ dataDir: join(target, 'db') });
    try {
      const rows = await queryRows<{ firstName: string; status: string }>(
        drizzleFor(copy),
        sql`select c.first_name as "firstName", r.status from clients c
                join data_subject_requests r on r.client_id = c.id where c.id = ${holder.id}`,
      );
      expect(rows).toEqual([{ firstName: 'Titular', status: 'answered' }]);
    } finally {
      await copy.close();
    }
    expect(filesHolding(join(target, 'db'), VALUES)).toEqual([]);

    // Without the ledger a restore is refused, unless the operator says so.
    rmSync(join(dir, 'backups', dataRequests.LEDGER_FILE));
    await expect(restoreBackup({ file: backupBefore, dataDir: scratchDir() })).rejects.toMatchObject({
      code: 'BACKUP_LEDGER_MISSING',
    });
    const bare = await restoreBackup({ file: backupBefore, dataDir: scratchDir(), withoutLedger: true });
    expect(bare.ledger).toBeNull();
    expect(bare.replayed).toEqual([]);

    // And the stopped data directory holds none of them.
    await app.close();
    await client.close();
    lock.release();
    expect(filesHolding(join(dir, 'db'), VALUES)).toEqual([]);
  }, 240_000);
});

describeOnPostgres('a suppression in the bytes of PostgreSQL (issue 54)', () => {
  const ctx = useTestApp();

  it('rewrites the tables a suppression touched, and a pg_dump holds none of the holder’s values, import tables included', async () => {
    const admin = await loginAs(ctx, { userType: 'Administrador' });
    const holder = await createClient(ctx.db, { ...HOLDER, rut: '17246813-6', email: OLD_EMAIL });
    await asSystem(ctx.db, (tx) =>
      tx.execute(sql`update clients set email = ${HOLDER.email} where id = ${holder.id}`),
    );
    const [run] = await queryRows<{ id: string }>(
      ctx.db,
      sql`insert into import_runs (kind, file_name, file_hash, file_parts, status)
            values ('clients', 'clientes.csv', 'x', 1, 'applied') returning id`,
    );
    await asSystem(ctx.db, async (tx) => {
      await tx.execute(sql`insert into import_run_file_parts (run_id, part, bytes)
          values (${run!.id}, 0, convert_to(${`${HOLDER.firstName};${HOLDER.lastName};${HOLDER.email}`}, 'UTF8'))`);
      await tx.execute(sql`insert into import_run_records (run_id, table_name, record_id, action, before, row_number)
          select ${run!.id}, 'clients', c.id, 'update', to_jsonb(c), 2 from clients c where c.id = ${holder.id}`);
    });
    const fileOf = async () =>
      (
        await queryRows<{ file: string }>(ctx.db, sql`select pg_relation_filenode('clients')::text as file`)
      )[0]!.file;
    const before = await fileOf();
    const request = await admin.post('/api/data-requests', {
      kind: 'suppression',
      holderRut: HOLDER.rut,
      receivedDate: '2026-11-19',
    });
    const done = await admin.post(`/api/data-requests/${request.json().request.id}/suppress`, {
      confirmation: 'SUPRIMIR',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await dataRequests.scrubState(ctx.db)).toMatchObject({ pending: 1 });

    const scrub = await dataRequests.scrubPending(ctx.appDb, { now: new Date() });
    expect(scrub?.requests).toEqual([request.json().request.id]);
    // A new file: the old row versions went with the old one.
    expect(await fileOf()).not.toBe(before);
    expect(await dataRequests.scrubState(ctx.db)).toMatchObject({ pending: 0 });

    const [row] = await queryRows<{ name: string }>(ctx.db, sql`select current_database() as name`);
    const target = new URL(testDatabaseUrl()!);
    target.pathname = `/${row!.name}`;
    const dump = execFileSync('pg_dump', ['--no-owner', target.toString()], {
      maxBuffer: 256 * 1024 * 1024,
    }).toString();
    expect(dump).toContain('COPY public.import_run_records');
    for (const value of VALUES) expect(dump.includes(value), value).toBe(false);
  });
});
