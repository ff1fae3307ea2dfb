import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { asSystem } from '../../db/actor';
import { queryRows } from '../../db/client';
import { projectRoot } from '../../paths';
import { loginAs, useTestApp } from '../../test/app';
import { createClient } from '../../test/builders';
import { upload } from '../../test/imports';
import * as dataRequests from './data-requests.service';
import { FILE_STORES, PERSONAL_COLUMN, TABLE_STORES } from './personal-data';

/** The columns of the schema that look personal and are not reviewed in the registry. */
function uncoveredColumns(columns: readonly { table: string; column: string }[]): string[] {
  const missing: string[] = [];
  for (const { table, column } of columns) {
    const store = TABLE_STORES[table];
    if (!store) {
      if (!missing.includes(table)) missing.push(table);
      continue;
    }
    if (PERSONAL_COLUMN.test(column) && !store.columns.includes(column)) missing.push(`${table}.${column}`);
  }
  return missing;
}

/** Sources that write files (outside tests) and are not listed among the file stores. */
function uncoveredWriters(sources: readonly { path: string; text: string }[]): string[] {
  const writes = /\b(writeFile|createWriteStream|appendFile|copyFile)\s*\(/;
  return sources
    .filter((source) => writes.test(source.text))
    .map((source) => source.path)
    .filter((path) => !FILE_STORES.some((store) => store.writer === path));
}

function serverSources(): { path: string; text: string }[] {
  const found: { path: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        if (name !== 'test') walk(full);
      } else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) {
        found.push({
          path: relative(projectRoot, full).replaceAll('\\', '/'),
          text: readFileSync(full, 'utf8'),
        });
      }
    }
  };
  walk(join(projectRoot, 'src/server'));
  return found;
}

const HOLDER = {
  rut: '17.246.813-6',
  firstName: 'Zenobiaxq',
  lastName: 'Wuthrichova',
  birthDate: '1979-02-23',
  phone: '+56 9 7412 5896',
  email: 'zenobiaxq.w@buzon-unico.cl',
};

describe('every store of personal data is covered (issue 54)', () => {
  const mailDir = mkdtempSync(join(tmpdir(), 'inmoflujo-mail-'));
  const ctx = useTestApp({ env: { DATA_DIR: mailDir } });
  afterAll(() => rmSync(mailDir, { recursive: true, force: true }));

  async function schemaColumns() {
    return queryRows<{ table: string; column: string }>(
      ctx.db,
      sql`select c.table_name as "table", c.column_name as "column"
            from information_schema.columns c
            join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
           where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
           order by 1, 2`,
    );
  }

  it('lists every table, every column that looks personal and every file writer — and fails on a planted one', async () => {
    expect(uncoveredColumns(await schemaColumns())).toEqual([]);
    expect(uncoveredWriters(serverSources())).toEqual([]);
    // A table someone adds with a person's e-mail, not reviewed: the check names it.
    await ctx.db.execute(sql`create table planted_contacts (id uuid primary key, email text)`);
    try {
      expect(uncoveredColumns(await schemaColumns())).toEqual(['planted_contacts']);
      await ctx.db.execute(sql`alter table clients add column planted_nickname text`);
      expect(uncoveredColumns(await schemaColumns())).toEqual([
        'clients.planted_nickname',
        'planted_contacts',
      ]);
    } finally {
      await ctx.db.execute(sql`alter table clients drop column if exists planted_nickname`);
      await ctx.db.execute(sql`drop table planted_contacts`);
    }
    // A writer of files someone adds: named too.
    expect(
      uncoveredWriters([{ path: 'src/server/features/x/x.ts', text: "await writeFile('a.csv', rows)" }]),
    ).toEqual(['src/server/features/x/x.ts']);
  });

  it('redacts import runs (file, name, undo snapshot) and e-mail notices and copies on suppression', async () => {
    const admin = await loginAs(ctx, { userType: 'Administrador' });
    const holder = await createClient(ctx.db, { ...HOLDER, rut: '17246813-6' });
    // A run that updated the holder: its file names them, its snapshot holds their old identity.
    const [run] = await queryRows<{ id: string }>(
      ctx.db,
      sql`insert into import_runs (kind, file_name, file_hash, file_parts, status, mapping)
          values ('clients', 'clientes Zenobiaxq Wuthrichova.csv', 'x', 1, 'applied', '{"rut":0}') returning id`,
    );
    await asSystem(ctx.db, async (tx) => {
      await tx.execute(sql`insert into import_run_file_parts (run_id, part, bytes)
        values (${run!.id}, 0, convert_to(${`rut;nombre\n${HOLDER.rut};${HOLDER.firstName} ${HOLDER.lastName}\n`}, 'UTF8'))`);
      await tx.execute(sql`insert into import_run_records (run_id, table_name, record_id, action, before, row_number)
        select ${run!.id}, 'clients', c.id, 'update', to_jsonb(c), 2 from clients c where c.id = ${holder.id}`);
      await tx.execute(sql`insert into mail_messages (kind, to_address, notices, status, send_after, next_attempt_at, subject)
        values ('notices', 'vendedor@inmo.cl', ${JSON.stringify([{ client: `${HOLDER.firstName} ${HOLDER.lastName}`, task: 'Firma' }])}::jsonb,
                'sent', now(), now(), ${`Reserva de ${HOLDER.firstName} ${HOLDER.lastName}`})`);
    });
    // Copies of notices: one naming them (quoted-printable, as nodemailer writes accents), one not.
    mkdirSync(join(mailDir, 'mail'), { recursive: true });
    writeFileSync(
      join(mailDir, 'mail', 'a.eml'),
      `Subject: =?UTF-8?Q?Reserva_de_Zenobiaxq_Wuthrichova?=\nContent-Transfer-Encoding: quoted-printable\n\nLa reserva de Zenobiaxq Wuthri=\nchova est=C3=A1 lista.\n`,
    );
    writeFileSync(join(mailDir, 'mail', 'b.eml'), 'Subject: Otra cosa\n\nNada de ella.\n');

    const request = await admin.post('/api/data-requests', {
      kind: 'suppression',
      holderRut: HOLDER.rut,
      receivedDate: '2026-11-19',
    });
    const done = await admin.post(`/api/data-requests/${request.json().request.id}/suppress`, {
      confirmation: 'SUPRIMIR',
    });
    expect(done.statusCode, done.body).toBe(200);

    const [after] = await queryRows<{ fileName: string; parts: number; before: Record<string, unknown> }>(
      ctx.db,
      sql`select r.file_name as "fileName",
                 (select count(*)::int from import_run_file_parts p where p.run_id = r.id) as parts,
                 (select x.before from import_run_records x where x.run_id = r.id) as before
            from import_runs r where r.id = ${run!.id}`,
    );
    expect(after!.fileName).toBe('clientes [titular suprimido].csv');
    expect(after!.parts).toBe(0);
    expect(after!.before).toMatchObject({
      first_name: 'Titular',
      last_name: 'suprimido',
      email: null,
      phone: null,
    });
    // The errors workbook says why it cannot be made.
    const errors = await admin.get(`/api/imports/runs/${run!.id}/errors`);
    expect(errors.statusCode).toBe(410);
    expect(errors.json().error.message).toMatch(/ya no se guarda/);

    const [mail] = await queryRows<{ text: string }>(
      ctx.db,
      sql`select subject || ' ' || notices::text as text from mail_messages`,
    );
    expect(mail!.text).not.toMatch(/Zenobiaxq|Wuthrichova/);
    expect(mail!.text).toContain('[titular suprimido]');
    expect(readdirSync(join(mailDir, 'mail'))).toEqual(['b.eml']);

    // Nothing of them in the whole database (a logical dump: pg_dump on PostgreSQL).
    const tables = await queryRows<{ name: string }>(
      ctx.db,
      sql`select quote_ident(tablename) as name from pg_tables where schemaname = 'public'`,
    );
    for (const { name } of tables) {
      const [row] = await queryRows<{ text: string | null }>(
        ctx.db,
        sql.raw(`select string_agg(t::text, E'\\n') as text from ${name} t`),
      );
      for (const value of [HOLDER.firstName, HOLDER.lastName, HOLDER.email, '7412 5896'])
        expect(row?.text ?? '', `${name}: ${value}`).not.toContain(value);
    }
  });

  it('deletes on suppression the stored import files that name the holder though their runs changed none of their records (decision 0062)', async () => {
    const admin = await loginAs(ctx, { userType: 'Administrador' });
    await createClient(ctx.db, { ...HOLDER, rut: '17246813-6' });
    const partsOf = async (runId: string) =>
      (
        await queryRows<{ parts: number }>(
          ctx.db,
          sql`select count(*)::int as parts from import_run_file_parts where run_id = ${runId}`,
        )
      )[0]!.parts;
    // Uploaded, never applied: one names them by their RUT (written another way), one by their
    // e-mail in a second sheet of a workbook, one names somebody else.
    const byRut = await upload(
      admin,
      'clients',
      'clientes.csv',
      Buffer.from(`RUT;Nombres;Apellidos\r\n17246813-6;Zeno;W\r\n11.111.111-1;Otro;Cliente\r\n`),
    );
    expect(byRut.statusCode, byRut.body).toBe(201);
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Clientes').addRow(['RUT', 'Nombres', 'Apellidos']);
    book.getWorksheet('Clientes')!.addRow(['22.222.222-2', 'Ana', 'Rojas']);
    book.addWorksheet('Contactos').addRow(['Correo', `Escribir a ${HOLDER.email.toUpperCase()}`]);
    const byEmail = await upload(
      admin,
      'clients',
      'clientes.xlsx',
      Buffer.from(await book.xlsx.writeBuffer()),
    );
    expect(byEmail.statusCode, byEmail.body).toBe(201);
    const other = await upload(
      admin,
      'clients',
      'otros.csv',
      Buffer.from('RUT;Nombres;Apellidos\r\n11.111.111-1;Otro;Cliente\r\n'),
    );
    expect(other.statusCode, other.body).toBe(201);
    // Nothing readable of anyone is kept beside the files: keyed hashes only.
    const [subjects] = await queryRows<{ text: string }>(
      ctx.db,
      sql`select string_agg(salt || encode(hashes, 'escape'), ' ') as text from import_run_subjects`,
    );
    for (const value of ['17246813', '17.246.813', HOLDER.email, '11111111'])
      expect(subjects!.text).not.toContain(value);

    const request = await admin.post('/api/data-requests', {
      kind: 'suppression',
      holderRut: HOLDER.rut,
      receivedDate: '2026-11-19',
    });
    const done = await admin.post(`/api/data-requests/${request.json().request.id}/suppress`, {
      confirmation: 'SUPRIMIR',
    });
    expect(done.statusCode, done.body).toBe(200);

    expect(await partsOf(byRut.json().runId)).toBe(0);
    expect(await partsOf(byEmail.json().runId)).toBe(0);
    expect(await partsOf(other.json().runId)).toBe(1);
    const review = await admin.post(`/api/imports/runs/${byRut.json().runId}/dry-run`, {
      mapping: { rut: 0, firstName: 1, lastName: 2 },
    });
    expect(review.statusCode).toBe(410);
    // Whom a deleted file named goes with it.
    expect(
      await queryRows<{ runId: string }>(ctx.db, sql`select run_id as "runId" from import_run_subjects`),
    ).toEqual([{ runId: other.json().runId }]);
  });

  it('keeps an import’s file and the .eml copies only the days set in Privacidad', async () => {
    const admin = await loginAs(ctx, { userType: 'Administrador' });
    const settings = (await admin.get('/api/data-requests/settings')).json().settings;
    expect(settings).toMatchObject({ importFileDays: 30, mailCopyDays: 30 });
    const updated = await admin.put('/api/data-requests/settings', {
      retentionYears: settings.retentionYears,
      importFileDays: 10,
      mailCopyDays: 5,
      version: settings.version,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const refused = await admin.put('/api/data-requests/settings', {
      retentionYears: 5,
      importFileDays: 0,
      version: updated.json().settings.version,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toMatchObject({
      importFileDays: 'Indique los días (entre 1 y 3650).',
    });
    expect((await admin.get('/api/data-requests/settings')).json().settings).toMatchObject({
      importFileDays: 10,
      mailCopyDays: 5,
    });

    // A run uploaded 11 days ago loses its file; one of yesterday keeps it. Likewise the copies.
    const now = new Date();
    const runs = await queryRows<{ id: string; age: number }>(
      ctx.db,
      sql`insert into import_runs (kind, file_name, file_hash, file_parts, status, created_at)
          values ('clients', 'viejo.csv', 'a', 1, 'applied', now() - interval '11 days'),
                 ('clients', 'nuevo.csv', 'b', 1, 'applied', now() - interval '1 day')
          returning id, extract(day from now() - created_at)::int as age`,
    );
    for (const run of runs)
      await ctx.db.execute(
        sql`insert into import_run_file_parts (run_id, part, bytes) values (${run.id}, 0, convert_to('x', 'UTF8'))`,
      );
    mkdirSync(join(mailDir, 'mail'), { recursive: true });
    writeFileSync(join(mailDir, 'mail', 'old.eml'), 'x');
    writeFileSync(join(mailDir, 'mail', 'new.eml'), 'x');
    const sixDaysAgo = new Date(now.getTime() - 6 * 86_400_000);
    utimesSync(join(mailDir, 'mail', 'old.eml'), sixDaysAgo, sixDaysAgo);
    const removed = await dataRequests.applyFileRetention(ctx.db, { mailDir: join(mailDir, 'mail'), now });
    expect(removed).toEqual({ importFiles: 1, mailCopies: 1 });
    const kept = await queryRows<{ fileName: string }>(
      ctx.db,
      sql`select r.file_name as "fileName" from import_runs r join import_run_file_parts p on p.run_id = r.id`,
    );
    expect(kept).toEqual([{ fileName: 'nuevo.csv' }]);
    expect(readdirSync(join(mailDir, 'mail')).sort()).toContain('new.eml');
    expect(readdirSync(join(mailDir, 'mail'))).not.toContain('old.eml');
  });
});
