import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationsFolder, projectRoot } from '../paths';
import { pgliteTemplate } from '../test/database';
import { createPglite, migratePglite } from './client';
import { MIGRATION_HASHES } from './migration-hashes';

/** The committed migrations up to (and including) the one tagged `lastTag`, in a folder of their own. */
function migrationsUpTo(lastTag: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'inmoflujo-migrations-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

async function rows<T>(client: PGlite, text: string): Promise<T[]> {
  return (await client.query<T>(text)).rows;
}

describe('migration 0004/0005: wave 1 flows move into the workflow tables without loss', () => {
  let client: PGlite | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await client?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('keeps every flow, task, assignment, comment, mention and default, with their ids', async () => {
    client = await createPglite();
    folder = migrationsUpTo('0003_dashboard_indexes');
    await migrate(drizzle(client), { migrationsFolder: folder });

    // Wave 1's data, as its code wrote it.
    await client.exec(`
      insert into profiles (id, email, password_hash, first_name, last_name, position, user_type, is_seller) values
        ('00000000-0000-4000-8000-000000000001', 'ana@x.cl', 'h', 'Ana', 'Rojas', 'Vendedora', 'Operaciones', true),
        ('00000000-0000-4000-8000-000000000002', 'rodrigo@x.cl', 'h', 'Rodrigo', 'Saavedra', 'Jefe', 'Administrador', false);
      insert into real_estate_agencies (id, rut, business_name, bank, account_type, account_number)
        values ('00000000-0000-4000-8000-000000000010', '76000000-0', 'Inmobiliaria', 'Banco', 'Cuenta Corriente', '1');
      insert into projects (id, name, stage, commune, deadline, real_estate_agency_id)
        values ('00000000-0000-4000-8000-000000000011', 'Parque', 'Etapa 1', 'Ñuñoa', '2027-01-01', '00000000-0000-4000-8000-000000000010');
      insert into clients (id, rut, first_name, last_name, birth_date)
        values ('00000000-0000-4000-8000-000000000012', '12345678-5', 'Juan', 'Pérez', '1980-01-01');
      insert into brokers (id, rut, name, business_name, legal_representative, legal_representative_rut,
                           commercial_address, commercial_address_commune, commercial_contact_name,
                           constitution_date, constitution_notary, kam_name)
        values ('00000000-0000-4000-8000-000000000013', '11111111-1', 'Broker', 'Broker SpA', 'R', '22222222-2',
                'Calle 1', 'Santiago', 'C', '2010-01-01', 'N', 'K');
      insert into reservations (id, reservation_number, client_id, project_id, reservation_date, apartment_number,
                                is_with_broker, broker_id)
        values ('00000000-0000-4000-8000-000000000020', 'R-1', '00000000-0000-4000-8000-000000000012',
                '00000000-0000-4000-8000-000000000011', '2026-01-10', '101', true, '00000000-0000-4000-8000-000000000013');
      insert into broker_commissions (id, reservation_id, broker_id, commission_amount)
        values ('00000000-0000-4000-8000-000000000030', '00000000-0000-4000-8000-000000000020',
                '00000000-0000-4000-8000-000000000013', '100.00');
      insert into reservation_flows (id, reservation_id, flow_id, current_stage_id, status, started_at)
        select '00000000-0000-4000-8000-000000000040', '00000000-0000-4000-8000-000000000020', f.id, s.id,
               'in_progress', '2026-01-10T12:00:00Z'
          from sale_flows f join sale_flow_stages s on s.flow_id = f.id and s.sort_order = 1;
      insert into reservation_flow_tasks (reservation_flow_id, task_id, status, started_at, completed_at)
        select '00000000-0000-4000-8000-000000000040', t.id,
               case when t.name = 'COF PENDIENTE GENERACIÓN' then 'completed' else 'pending' end,
               '2026-01-10T12:00:00Z',
               case when t.name = 'COF PENDIENTE GENERACIÓN' then timestamptz '2026-01-11T12:00:00Z' end
          from sale_flow_tasks t;
      insert into task_assignments (reservation_flow_id, task_id, user_id, assigned_by)
        select '00000000-0000-4000-8000-000000000040', t.id, '00000000-0000-4000-8000-000000000001',
               '00000000-0000-4000-8000-000000000002'
          from sale_flow_tasks t where t.name in ('COF PENDIENTE FIRMA', 'SOLICITUD VB COF PENDIENTE');
      insert into task_comments (id, reservation_flow_task_id, user_id, content)
        select '00000000-0000-4000-8000-000000000050', rft.id, '00000000-0000-4000-8000-000000000002', 'Hola @Ana'
          from reservation_flow_tasks rft join sale_flow_tasks t on t.id = rft.task_id
         where t.name = 'COF PENDIENTE FIRMA';
      insert into task_comment_mentions (comment_id, user_id)
        values ('00000000-0000-4000-8000-000000000050', '00000000-0000-4000-8000-000000000001');
      insert into default_task_assignments (task_id, user_id)
        select id, '00000000-0000-4000-8000-000000000001' from sale_flow_tasks where name = 'PENDIENTE VB PROMESA';
      update payment_flow_tasks set default_assignee_id = '00000000-0000-4000-8000-000000000002'
       where name = 'VB Jefe Inversiones';
      insert into commission_flows (id, broker_commission_id, flow_id, current_stage_id, status, started_at)
        select '00000000-0000-4000-8000-000000000060', '00000000-0000-4000-8000-000000000030', f.id, s.id,
               'in_progress', '2026-02-01T12:00:00Z'
          from payment_flows f join payment_flow_stages s on s.flow_id = f.id and s.sort_order = 1
         where f.name = 'Flujo de Pago Principal';
      insert into commission_flow_tasks (commission_flow_id, task_id, status, started_at, completed_at, assignee_id, assigned_at)
        select '00000000-0000-4000-8000-000000000060', t.id,
               case t.name when 'Solicitud Liquidación' then 'completed' when 'Solicitud a Jefe Inversiones' then 'pending' else 'blocked' end,
               case when t.name in ('Solicitud Liquidación', 'Solicitud a Jefe Inversiones') then timestamptz '2026-02-01T12:00:00Z' end,
               case when t.name = 'Solicitud Liquidación' then timestamptz '2026-02-02T12:00:00Z' end,
               case when t.name in ('Solicitud Liquidación', 'Solicitud a Jefe Inversiones') then '00000000-0000-4000-8000-000000000001'::uuid end,
               case when t.name in ('Solicitud Liquidación', 'Solicitud a Jefe Inversiones') then timestamptz '2026-02-01T12:00:00Z' end
          from payment_flow_tasks t join payment_flow_stages s on s.id = t.stage_id
          join payment_flows f on f.id = s.flow_id and f.name = 'Flujo de Pago Principal';
      insert into commission_task_comments (id, commission_flow_task_id, user_id, content)
        select '00000000-0000-4000-8000-000000000070', cft.id, '00000000-0000-4000-8000-000000000002', 'RECHAZO: falta factura'
          from commission_flow_tasks cft join payment_flow_tasks t on t.id = cft.task_id
         where t.name = 'Solicitud Liquidación';
    `);

    await migratePglite(client);

    const flows = await rows<{
      id: string;
      kind: string;
      status: string;
      broker_commission_id: string | null;
    }>(client, 'select id, kind, status, broker_commission_id from flows order by kind desc');
    expect(flows).toEqual([
      {
        id: '00000000-0000-4000-8000-000000000040',
        kind: 'sale',
        status: 'in_progress',
        broker_commission_id: null,
      },
      {
        id: '00000000-0000-4000-8000-000000000060',
        kind: 'payment',
        status: 'in_progress',
        broker_commission_id: '00000000-0000-4000-8000-000000000030',
      },
    ]);
    const taskCounts = await rows<{ flow_id: string; n: number }>(
      client,
      'select flow_id, count(*)::int as n from flow_tasks group by flow_id order by flow_id',
    );
    expect(taskCounts.map((row) => row.n)).toEqual([25, 18]);

    const assignees = await rows<{ task: string; user_id: string }>(
      client,
      `select t.name as task, a.user_id from flow_task_assignees a
         join flow_tasks ft on ft.id = a.flow_task_id join workflow_tasks t on t.id = ft.task_id order by t.name`,
    );
    expect(assignees).toEqual([
      { task: 'COF PENDIENTE FIRMA', user_id: '00000000-0000-4000-8000-000000000001' },
      { task: 'SOLICITUD VB COF PENDIENTE', user_id: '00000000-0000-4000-8000-000000000001' },
      // The open payment task keeps its assignee; the completed one records it as who completed it.
      { task: 'Solicitud a Jefe Inversiones', user_id: '00000000-0000-4000-8000-000000000001' },
    ]);
    const [completed] = await rows<{ completed_by: string; completed_at: Date }>(
      client,
      `select ft.completed_by, ft.completed_at from flow_tasks ft join workflow_tasks t on t.id = ft.task_id
        where t.name = 'Solicitud Liquidación'`,
    );
    expect(completed?.completed_by).toBe('00000000-0000-4000-8000-000000000001');

    const comments = await rows<{ id: string; content: string }>(
      client,
      'select id, content from flow_task_comments order by id',
    );
    expect(comments).toEqual([
      { id: '00000000-0000-4000-8000-000000000050', content: 'Hola @Ana' },
      { id: '00000000-0000-4000-8000-000000000070', content: 'RECHAZO: falta factura' },
    ]);
    expect(await rows(client, 'select comment_id, user_id from flow_task_comment_mentions')).toEqual([
      { comment_id: '00000000-0000-4000-8000-000000000050', user_id: '00000000-0000-4000-8000-000000000001' },
    ]);
    const defaults = await rows<{ task: string; user_id: string }>(
      client,
      `select t.name as task, d.user_id from workflow_task_default_assignees d
         join workflow_tasks t on t.id = d.task_id order by t.name`,
    );
    expect(defaults).toEqual([
      { task: 'PENDIENTE VB PROMESA', user_id: '00000000-0000-4000-8000-000000000001' },
      { task: 'VB Jefe Inversiones', user_id: '00000000-0000-4000-8000-000000000002' },
    ]);
    const oldTables = await rows<{ name: string }>(
      client,
      `select table_name as name from information_schema.tables
        where table_schema = 'public' and table_name in ('sale_flows', 'reservation_flows', 'commission_flows',
          'task_assignments', 'payment_flow_tasks', 'commission_task_comments')`,
    );
    expect(oldTables).toEqual([]);
    // Migrates a whole database twice over (wave 1, then the engine's tables): slow on a busy machine.
  }, 120_000);
});

describe("migration 0037: an import run's file moves into its parts", () => {
  it('keeps the file of a run uploaded before, whole and byte for byte, as its one part', async () => {
    const client = await createPglite();
    const folder = migrationsUpTo('0036_set_based_triggers');
    try {
      // As `migratePglite` does: the migrations' writes are by 'sistema' in the audit trail.
      await client.exec("select set_config('inmoflujo.actor', 'sistema', false)");
      await migrate(drizzle(client), { migrationsFolder: folder });
      await client.exec(`insert into import_runs (id, kind, file_name, file_hash, file_bytes)
        values ('00000000-0000-4000-8000-000000000001', 'clients', 'clientes.csv', 'x', '\\x00ff0a3b'::bytea)`);
      await migratePglite(client);
      expect(
        await rows(client, `select run_id, part, encode(bytes, 'hex') as bytes from import_run_file_parts`),
      ).toEqual([{ run_id: '00000000-0000-4000-8000-000000000001', part: 0, bytes: '00ff0a3b' }]);
      expect(await rows(client, 'select file_parts from import_runs')).toEqual([{ file_parts: 1 }]);
    } finally {
      await client.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('migrations are forward-only (issue 29)', () => {
  it('pins every committed migration: an edit to one fails here, a new one must be pinned', () => {
    const files = readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql'));
    const actual = Object.fromEntries(
      files.map((name) => [
        name.replace(/\.sql$/, ''),
        createHash('sha256')
          .update(readFileSync(join(migrationsFolder, name)))
          .digest('hex'),
      ]),
    );
    const unpinned = Object.keys(actual).filter((tag) => !(tag in MIGRATION_HASHES));
    expect(
      unpinned,
      `pin it in src/server/db/migration-hashes.ts: ${unpinned.map((tag) => `'${tag}': '${actual[tag]}',`).join(' ')}`,
    ).toEqual([]);
    const edited = Object.keys(MIGRATION_HASHES).filter((tag) => actual[tag] !== MIGRATION_HASHES[tag]);
    expect(edited, 'a committed migration was edited (or removed): add a new migration instead').toEqual([]);
  });

  it('brings a database that applied the first versions of 0003, 0006 and 0018 in line with a fresh one', async () => {
    const superseded = join(projectRoot, 'src/server/db/superseded-migrations');
    const folder = mkdtempSync(join(tmpdir(), 'inmoflujo-superseded-'));
    cpSync(migrationsFolder, folder, { recursive: true });
    for (const name of readdirSync(superseded)) cpSync(join(superseded, name), join(folder, name));
    const old = await createPglite();
    // A fresh database: the run's template, which is what `migratePglite` makes of a new one.
    const fresh = await createPglite({ loadDataDir: await pgliteTemplate() });
    try {
      // As `migratePglite` does: the migrations' writes are by 'sistema' in the audit trail.
      await old.exec("select set_config('inmoflujo.actor', 'sistema', false)");
      await migrate(drizzle(old), { migrationsFolder: folder });
      const [before, after] = [await schemaOf(old), await schemaOf(fresh)];
      expect(
        before.filter((line) => !after.includes(line)),
        'only in the database that applied the old files',
      ).toEqual([]);
      expect(
        after.filter((line) => !before.includes(line)),
        'only in the fresh database',
      ).toEqual([]);
    } finally {
      await old.close();
      await fresh.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

/** What the schema is made of, one line per object: columns, constraints, indexes, views, functions, triggers. */
async function schemaOf(client: PGlite): Promise<string[]> {
  const rows = await client.query<{ line: string }>(`
    select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable
           || ' ' || coalesce(column_default, '') || ' ' || coalesce(generation_expression, '') as line
      from information_schema.columns where table_schema = 'public'
    union all
    select 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      from pg_constraint where connamespace = 'public'::regnamespace
    union all
    select 'index ' || indexname || ' ' || indexdef from pg_indexes where schemaname = 'public'
    union all
    select 'view ' || table_name || ' ' || md5(view_definition) from information_schema.views where table_schema = 'public'
    union all
    select 'function ' || p.oid::regprocedure || ' ' || md5(p.prosrc)
      from pg_proc p where p.pronamespace = 'public'::regnamespace
       and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
    union all
    select 'trigger ' || pg_get_triggerdef(t.oid) from pg_trigger t
      join pg_class c on c.oid = t.tgrelid where c.relnamespace = 'public'::regnamespace and not t.tgisinternal`);
  return rows.rows.map((row) => row.line).sort();
}
