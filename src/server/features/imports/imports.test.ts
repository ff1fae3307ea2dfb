import { deflateRawSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { rutCheckDigit } from '../../../shared/domain/rut';
import { flowViolations } from '../../../shared/domain/workflow/invariants';
import type { ServiceContext } from '../../context';
import { actingAs } from '../../db/actor';
import { queryRows } from '../../db/client';
import { Agent, errorOf, loginAs, type TestContext, useTestApp } from '../../test/app';
import {
  createBroker,
  createClient,
  createProject,
  createReservation,
  createUser,
  uniqueRut,
} from '../../test/builders';
import {
  applyAndWait,
  dataOf,
  dotted,
  rowFor,
  tableSnapshot,
  templateHeaders,
  upload,
  uploadAndCheck,
  workbook,
} from '../../test/imports';
import * as workflows from '../workflows/workflows.service';
import * as queries from './imports.queries';
import * as imports from './imports.service';

/** The app's clock: noon on 20 March 2027 in Santiago. */
const NOW = new Date('2027-03-20T15:00:00Z');

/** Every business table an import may touch, compared row by row before and after. */
const TABLES = [
  'clients',
  'brokers',
  'reservations',
  'broker_commissions',
  'flows',
  'flow_tasks',
  'flow_task_assignees',
  'task_inbox',
  'dashboard_counts',
] as const;

async function snapshot(ctx: TestContext): Promise<Record<string, string>> {
  return tableSnapshot(ctx, TABLES);
}

function rutOf(body: number): string {
  return `${body}-${rutCheckDigit(String(body))}`;
}

// ---------------------------------------------------------------------------------------------

describe('imports: who may', { timeout: 180_000 }, () => {
  const ctx = useTestApp({ now: () => NOW });

  it('answers every route to administrators only; a KAM is refused, nobody signed in is 401', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const csv = Buffer.from('RUT;Nombres;Apellidos;Fecha de nacimiento\n12.345.678-5;Ana;Soto;01/02/1980\n');
    const { file } = await uploadAndCheck(admin, 'clients', 'c.csv', csv);
    const id = file.runId;
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/imports/runs'],
      ['GET', `/api/imports/runs/${id}`],
      ['GET', '/api/imports/templates/clients'],
      ['POST', `/api/imports/runs/${id}/sheet`, { sheetName: 'x' }],
      ['POST', `/api/imports/runs/${id}/dry-run`, { mapping: file.mapping }],
      ['GET', `/api/imports/runs/${id}/errors`],
      ['POST', `/api/imports/runs/${id}/apply`, { mapping: file.mapping }],
      ['POST', `/api/imports/runs/${id}/cancel`],
      ['POST', `/api/imports/runs/${id}/undo`],
    ];
    for (const [method, url, body] of routes) {
      const response = await kam.request(method as 'GET', url, body as never);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      const anonymous = await new Agent(ctx.app).request(method as 'GET', url, body as never);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    expect((await upload(kam, 'clients', 'c.csv', csv)).statusCode).toBe(403);
    // Only runs that were applied are listed: a file reviewed and left is not.
    expect((await admin.get('/api/imports/runs')).json().rows).toHaveLength(0);
  });
});

describe('imports: reading what staff have', { timeout: 180_000 }, () => {
  const ctx = useTestApp({ now: () => NOW });

  it('reads a Windows-1252 CSV with ";" and every number, date, RUT and Sí/No form', async () => {
    const admin = await loginAs(ctx);
    const ruts = [rutOf(15_000_001), rutOf(15_000_002), rutOf(15_000_003), rutOf(15_000_004)];
    const lines = [
      'Rut;Nombre;Apellido;Fecha nacimiento;Teléfono;Correo',
      `${dotted(ruts[0]!)};José Ñandú;Muñoz;05/03/1980;=1+1;jose@correo.cl`,
      `${ruts[1]!.replace('-', '')};Inés;Peña;5-3-1981;+56 9 1234 5678;`,
      `${ruts[2]!.toLowerCase()};Óscar;Güemes;1982-03-05;;`,
      `${ruts[3]};Ana;Ríos;29650;;`,
    ];
    // What Chilean Excel saves: Windows-1252 (its accented letters are Latin-1's).
    const bytes = Buffer.from(lines.join('\r\n'), 'latin1');
    expect(bytes.includes(Buffer.from('é', 'utf8'))).toBe(false);
    const { file, dry } = await uploadAndCheck(admin, 'clients', 'clientes.csv', bytes);
    expect(file.format).toBe('csv');
    expect(file.headers[1]).toBe('Nombre');
    expect(dry.summary).toBe('4 nuevos, 0 actualizados, 0 sin cambios, 0 con errores');
    const run = await applyAndWait(admin, file.runId, file.mapping);
    expect(run.status).toBe('applied');
    const rows = await queryRows<{
      rut: string;
      first_name: string;
      last_name: string;
      birth_date: string;
      phone: string | null;
    }>(ctx.db, sql`select rut, first_name, last_name, birth_date, phone from clients order by rut`);
    expect(rows).toEqual([
      { rut: ruts[0], first_name: 'José Ñandú', last_name: 'Muñoz', birth_date: '1980-03-05', phone: '=1+1' },
      {
        rut: ruts[1],
        first_name: 'Inés',
        last_name: 'Peña',
        birth_date: '1981-03-05',
        phone: '+56 9 1234 5678',
      },
      { rut: ruts[2], first_name: 'Óscar', last_name: 'Güemes', birth_date: '1982-03-05', phone: null },
      { rut: ruts[3], first_name: 'Ana', last_name: 'Ríos', birth_date: '1981-03-05', phone: null },
    ]);
  });

  it('reads UTF-8 with a BOM and ",", and an XLSX chosen sheet with formula and date cells', async () => {
    const admin = await loginAs(ctx);
    const rut = uniqueRut();
    const csv = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`RUT,Nombres,Apellidos,Fecha de nacimiento\n"${dotted(rut)}","Zoë","Ñuñez",01/01/1990\n`),
    ]);
    const { dry } = await uploadAndCheck(admin, 'clients', 'c.csv', csv);
    expect(dry.counts).toEqual({ created: 1, updated: 0, unchanged: 0, errors: 0 });

    const xlsxRut = uniqueRut();
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Portada').addRow(['nada']);
    const sheet = book.addWorksheet('Clientes');
    sheet.addRow(['RUT Cliente', 'Nombres', 'Apellidos', 'Fecha de Nacimiento']);
    sheet.addRow([
      xlsxRut,
      { formula: 'UPPER("ana")', result: 'ANA' },
      'Rojas',
      new Date(Date.UTC(1979, 6, 14)),
    ]);
    const bytes = Buffer.from(await book.xlsx.writeBuffer());
    const uploaded = (await upload(admin, 'clients', 'c.xlsx', bytes)).json();
    expect(uploaded.sheets).toEqual(['Portada', 'Clientes']);
    expect(uploaded.sheetName).toBe('Portada');
    const chosen = await admin.post(`/api/imports/runs/${uploaded.runId}/sheet`, { sheetName: 'Clientes' });
    expect(chosen.json().headers).toEqual(['RUT Cliente', 'Nombres', 'Apellidos', 'Fecha de Nacimiento']);
    const mapping = chosen.json().mapping;
    expect(mapping).toMatchObject({ rut: 0, firstName: 1, lastName: 2, birthDate: 3 });
    const run = await applyAndWait(admin, uploaded.runId, mapping, { sheetName: 'Clientes' });
    expect(run.counts.created).toBe(1);
    const [row] = await queryRows<{ first_name: string; birth_date: string }>(
      ctx.db,
      sql`select first_name, birth_date from clients where rut = ${xlsxRut}`,
    );
    expect(row).toEqual({ first_name: 'ANA', birth_date: '1979-07-14' });
  });

  it('keeps a file of several MiB in parts, reads it back byte for byte, and keeps no run whose file is not whole', async () => {
    const admin = await loginAs(ctx);
    const lines = ['RUT;Nombres;Apellidos;Fecha de nacimiento'];
    for (let n = 1, size = 0; size < 2.5 * queries.FILE_PART_BYTES; n++) {
      const line = `${rutOf(16_000_000 + n)};Nombre ${n} con un texto largo;Apellido ${n};01/01/1980`;
      lines.push(line);
      size += line.length + 2;
    }
    const bytes = Buffer.from(lines.join('\r\n'), 'utf8');
    const uploaded = await upload(admin, 'clients', 'grande.csv', bytes);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { runId } = uploaded.json() as { runId: string };
    const parts = await queryRows<{ part: number; size: number }>(
      ctx.db,
      sql`select part, length(bytes) as size from import_run_file_parts where run_id = ${runId} order by part`,
    );
    expect(parts.map((part) => part.part)).toEqual([0, 1, 2]);
    expect(parts[0]!.size).toBe(queries.FILE_PART_BYTES);
    expect((await queries.findRun(ctx.db, runId))!.fileBytes.equals(bytes)).toBe(true);

    // A run missing a part of its file is never read as if it were whole.
    await ctx.db.execute(sql`delete from import_run_file_parts where run_id = ${runId} and part = 1`);
    expect(await queries.findRun(ctx.db, runId)).toBeNull();

    // A part that cannot be written: the upload fails and leaves no run behind.
    await ctx.db.execute(sql`create function fail_second_part() returns trigger language plpgsql as $$
      begin if new.part = 1 then raise exception 'falla inyectada'; end if; return new; end $$`);
    await ctx.db.execute(sql`create trigger fail_second_part before insert on import_run_file_parts
      for each row execute function fail_second_part()`);
    const runs = async () =>
      (await queryRows<{ n: number }>(ctx.db, sql`select count(*)::int as n from import_runs`))[0]!.n;
    const before = await runs();
    expect((await upload(admin, 'clients', 'grande.csv', bytes)).statusCode).toBe(500);
    expect(await runs()).toBe(before);
  });

  it('refuses what cannot be imported, in Spanish, writing nothing', async () => {
    const admin = await loginAs(ctx);
    const before = await snapshot(ctx);
    const refusal = async (bytes: Buffer, message: RegExp) => {
      const response = await upload(admin, 'clients', 'f', bytes);
      expect(response.statusCode, response.body).toBe(400);
      expect(errorOf(response).message).toMatch(message);
    };
    await refusal(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]),
      /ni un archivo CSV/,
    );
    await refusal(Buffer.alloc(0), /vacío/);
    await refusal(Buffer.from('\n\n;;\n'), /vacío/);
    await refusal(
      Buffer.from('12.345.678-5;Ana;Soto;01/02/1980\n'),
      /No se encontró la fila con los títulos de las columnas/,
    );
    await refusal(zipBomb(), /tamaño excesivo/);
    // More than 200,000 rows: refused when read (the dry run), nothing written.
    const big = Buffer.from(`RUT;Nombres;Apellidos;Fecha de nacimiento\n${'x;y;z;w\n'.repeat(200_001)}`);
    const uploaded = await upload(admin, 'clients', 'big.csv', big);
    const file = uploaded.json();
    const dry = await admin.post(`/api/imports/runs/${file.runId}/dry-run`, { mapping: file.mapping });
    expect(dry.statusCode).toBe(400);
    expect(errorOf(dry).message).toBe(
      'El archivo tiene más de 200.000 filas. Divídalo en archivos más pequeños.',
    );
    // A required field without a column.
    const partial = await admin.post(`/api/imports/runs/${file.runId}/dry-run`, {
      mapping: { ...file.mapping, birthDate: null },
    });
    expect(errorOf(partial).message).toBe(
      'Asigne una columna a cada campo obligatorio: Fecha de nacimiento.',
    );
    expect(await snapshot(ctx)).toEqual(before);
  });

  it('lists each error with row, column, value and reason; repeated keys: identical once, differing ones naming the first (or all refused); the errors workbook holds only the rows with errors, with their original row; apply refused unless only valid rows', async () => {
    const admin = await loginAs(ctx);
    const good = uniqueRut();
    const twice = uniqueRut();
    const csv = [
      'RUT;Nombres;Apellidos;Fecha de nacimiento',
      `${good};Ana;Soto;01/02/1980`,
      `12.345.678-9;Luis;Paz;01/02/1980`,
      `${twice};Eva;Lara;31/02/1980`,
      `${twice};Eva;Lara;01/03/1980`,
      `${uniqueRut()};;Mena;01/01/2099`,
      `${good};Ana;Soto;01/02/1980`,
      `${good};Ana;Soto Díaz;01/02/1980`,
    ].join('\n');
    const { file, dry } = await uploadAndCheck(admin, 'clients', 'errores.csv', Buffer.from(csv));
    expect(dry.summary).toBe('1 nuevos, 0 actualizados, 0 sin cambios, 5 con errores');
    expect(dry.errors).toEqual([
      {
        rowNumber: 3,
        column: 'RUT',
        value: '12.345.678-9',
        reason: 'El RUT no es válido (revise el dígito verificador)',
      },
      {
        rowNumber: 4,
        column: 'Fecha de nacimiento',
        value: '31/02/1980',
        reason: 'No es una fecha válida (use dd/mm/aaaa)',
      },
      {
        rowNumber: 5,
        column: 'RUT',
        value: dotted(twice),
        reason: 'RUT repetido en 1 fila (la primera es la 4)',
      },
      { rowNumber: 6, column: 'Nombres', value: '', reason: 'Los nombres son obligatorios' },
      {
        rowNumber: 6,
        column: 'Fecha de nacimiento',
        value: '01/01/2099',
        reason: 'La fecha de nacimiento no puede ser posterior a hoy',
      },
      {
        rowNumber: 8,
        column: 'RUT',
        value: dotted(good),
        reason: 'RUT repetido en 2 filas (la primera es la 2)',
      },
    ]);
    expect(dry.moreErrors).toBe(0);
    // The identical row is imported once, with a note.
    expect(dry.skippedRows).toEqual([{ rowNumber: 7, reason: 'repeated', firstRow: 2 }]);

    const errors = await admin.get(`/api/imports/runs/${file.runId}/errors`);
    expect(errors.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(errors.rawPayload as never);
    const sheet = book.worksheets[0]!;
    const values = (row: number) => (sheet.getRow(row).values as unknown[]).slice(1);
    expect(values(1)).toEqual([
      'Fila original',
      'RUT',
      'Nombres',
      'Apellidos',
      'Fecha de nacimiento',
      'Errores',
    ]);
    // Only the rows with errors, each with its row in the file uploaded.
    expect(sheet.actualRowCount).toBe(6);
    expect([2, 3, 4, 5, 6].map((row) => sheet.getRow(row).getCell(1).value)).toEqual([3, 4, 5, 6, 8]);
    expect(String(sheet.getRow(2).getCell(6).value)).toContain('RUT: El RUT no es válido');
    expect(String(sheet.getRow(6).getCell(6).value)).toBe(
      `RUT: RUT repetido en 2 filas (la primera es la 2) (${dotted(good)})`,
    );

    // The setting that refuses every row of a repeated key: the first one too.
    const strict = await admin.post(`/api/imports/runs/${file.runId}/dry-run`, {
      mapping: file.mapping,
      repeatedKeys: 'refuseAll',
    });
    expect(strict.json().summary).toBe('0 nuevos, 0 actualizados, 0 sin cambios, 6 con errores');
    expect(strict.json().errors.find((error: { rowNumber: number }) => error.rowNumber === 2)).toEqual({
      rowNumber: 2,
      column: 'RUT',
      value: dotted(good),
      reason: 'RUT repetido en 2 filas (la primera es la 2)',
    });

    const refused = await admin.post(`/api/imports/runs/${file.runId}/apply`, { mapping: file.mapping });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toContain("'Importar solo filas válidas'");
    expect(await queryRows(ctx.db, sql`select 1 from clients`)).toHaveLength(0);
    const run = await applyAndWait(admin, file.runId, file.mapping, { onlyValidRows: true });
    expect(run.counts).toEqual({ created: 1, updated: 0, unchanged: 0, errors: 5 });
    expect(await queryRows(ctx.db, sql`select rut, last_name from clients`)).toEqual([
      { rut: good, last_name: 'Soto' },
    ]);
  });

  it('20,000 rows repeating one RUT: one bounded message per row, the text linear in the file (issue 52)', async () => {
    const admin = await loginAs(ctx);
    const rut = uniqueRut();
    const lines = ['RUT;Nombres;Apellidos;Fecha de nacimiento'];
    for (let n = 0; n < 20_000; n++) lines.push(`${rut};Ana;Soto ${n};01/02/1980`);
    const bytes = Buffer.from(lines.join('\n'));
    const { file, dry } = await uploadAndCheck(admin, 'clients', 'repetidos.csv', bytes);
    expect(dry.summary).toBe('1 nuevos, 0 actualizados, 0 sin cambios, 19999 con errores');
    expect(dry.errors).toHaveLength(500);
    expect(dry.moreErrors).toBe(19_999 - 500);
    expect(dry.errors[0]).toEqual({
      rowNumber: 3,
      column: 'RUT',
      value: dotted(rut),
      reason: 'RUT repetido en 19.999 filas (la primera es la 2)',
    });
    // Every message the same few words: the review's answer stays small.
    expect(JSON.stringify(dry).length).toBeLessThan(100_000);
    const errors = await admin.get(`/api/imports/runs/${file.runId}/errors`);
    expect(errors.statusCode).toBe(200);
    // The errors workbook is of the order of the file (8,000 rows made 140 MB before: issue 52).
    expect(errors.rawPayload.length).toBeLessThan(4 * bytes.length);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(errors.rawPayload as never);
    expect(book.worksheets[0]!.actualRowCount).toBe(20_000);
  });
});

describe('imports: round trips and undo', { timeout: 180_000 }, () => {
  const ctx = useTestApp({ now: () => NOW });

  it('clients: template → filled → dry run → apply → the same file changes nothing → undo restores exactly', async () => {
    const admin = await loginAs(ctx);
    const existing = await createClient(ctx.db, {
      firstName: 'Viejo',
      lastName: 'Nombre',
      birthDate: '1970-01-01',
    });
    const before = await snapshot(ctx);
    const headers = await templateHeaders(admin, 'clients');
    expect(headers).toEqual([
      'RUT',
      'Nombres',
      'Apellidos',
      'Fecha de nacimiento',
      'Teléfono',
      'Correo electrónico',
    ]);
    const newRut = uniqueRut();
    const bytes = await workbook([
      headers,
      rowFor(headers, {
        RUT: dotted(newRut),
        Nombres: 'Clara',
        Apellidos: 'Vera',
        'Fecha de nacimiento': '12/12/1990',
        'Correo electrónico': 'CLARA@correo.cl',
      }),
      rowFor(headers, {
        RUT: existing.rut,
        Nombres: 'Nuevo',
        Apellidos: 'Nombre',
        'Fecha de nacimiento': new Date(Date.UTC(1970, 0, 1)),
      }),
    ]);
    const { file, dry } = await uploadAndCheck(admin, 'clients', 'clientes.xlsx', bytes);
    expect(dry.summary).toBe('1 nuevos, 1 actualizados, 0 sin cambios, 0 con errores');
    const run = await applyAndWait(admin, file.runId, file.mapping);
    expect(run).toMatchObject({
      status: 'applied',
      counts: { created: 1, updated: 1, unchanged: 0, errors: 0 },
      canUndo: true,
    });
    const after = await snapshot(ctx);
    // Every change is tied to the run in the audit log.
    const audit = await queryRows<{ table_name: string; action: string }>(
      ctx.db,
      sql`select table_name, action from audit_log where request_id = ${file.runId} order by id`,
    );
    expect(audit).toEqual([
      { table_name: 'clients', action: 'insert' },
      { table_name: 'clients', action: 'update' },
    ]);

    const again = await uploadAndCheck(admin, 'clients', 'clientes.xlsx', bytes);
    expect(again.dry.summary).toBe('0 nuevos, 0 actualizados, 2 sin cambios, 0 con errores');
    const second = await applyAndWait(admin, again.file.runId, again.file.mapping);
    expect(second.counts).toEqual({ created: 0, updated: 0, unchanged: 2, errors: 0 });
    expect(await snapshot(ctx)).toEqual(after);

    const undone = await admin.post(`/api/imports/runs/${file.runId}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json().run.status).toBe('undone');
    // The data as it was, as a new version: the client updated by the import went 1 → 2, its undo 2 → 3.
    expect(dataOf(await snapshot(ctx))).toEqual(dataOf(before));
    const versions = await queryRows<{ version: number }>(ctx.db, sql`select version from clients`);
    expect(versions.map((row) => row.version)).toEqual([3]);
  });

  it('brokers: round trip with the template, re-apply changes nothing, undo restores', async () => {
    const admin = await loginAs(ctx);
    const before = await snapshot(ctx);
    const headers = await templateHeaders(admin, 'brokers');
    const rut = uniqueRut();
    const values = {
      RUT: dotted(rut),
      Nombre: 'Corredora Sur',
      'Razón social': 'Corredora Sur SpA',
      'Fecha de constitución': '02-03-2015',
      'Notaría de constitución': 'Notaría Uno',
      'Representante legal': 'Juan Soto',
      'RUT representante legal': uniqueRut(),
      'Dirección comercial': 'Av. Uno 1',
      Comuna: 'Ñuñoa',
      'Contacto comercial': 'Ana',
      KAM: 'Pedro',
      'KAM recibe comisión': 'Sí',
    };
    const bytes = await workbook([headers, rowFor(headers, values)]);
    const { file, dry } = await uploadAndCheck(admin, 'brokers', 'brokers.xlsx', bytes);
    expect(dry.summary).toBe('1 nuevos, 0 actualizados, 0 sin cambios, 0 con errores');
    await applyAndWait(admin, file.runId, file.mapping);
    const [broker] = await queryRows<{ kam_receives_commission: boolean; constitution_date: string }>(
      ctx.db,
      sql`select kam_receives_commission, constitution_date from brokers where rut = ${rut}`,
    );
    expect(broker).toEqual({ kam_receives_commission: true, constitution_date: '2015-03-02' });
    const after = await snapshot(ctx);
    const again = await uploadAndCheck(admin, 'brokers', 'brokers.xlsx', bytes);
    expect(again.dry.counts.unchanged).toBe(1);
    await applyAndWait(admin, again.file.runId, again.file.mapping);
    expect(await snapshot(ctx)).toEqual(after);
    expect((await admin.post(`/api/imports/runs/${file.runId}/undo`)).statusCode).toBe(200);
    expect(await snapshot(ctx)).toEqual(before);
  });

  it('undo refuses, naming the records, when a later change touched them', async () => {
    const admin = await loginAs(ctx);
    const rut = uniqueRut();
    const csv = `RUT;Nombres;Apellidos;Fecha de nacimiento\n${rut};Ana;Soto;01/02/1980\n`;
    const { file } = await uploadAndCheck(admin, 'clients', 'c.csv', Buffer.from(csv));
    await applyAndWait(admin, file.runId, file.mapping);
    const [client] = await queryRows<{ id: string }>(ctx.db, sql`select id from clients where rut = ${rut}`);
    const edited = await admin.put(`/api/clients/${client!.id}`, {
      rut,
      firstName: 'Ana María',
      lastName: 'Soto',
      birthDate: '1980-02-01',
      phone: null,
      email: null,
      version: 1,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const refused = await admin.post(`/api/imports/runs/${file.runId}/undo`);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(
      `No se puede deshacer la importación: estos registros cambiaron después de importarse: Cliente ${rut}.`,
    );
    expect(await queryRows(ctx.db, sql`select 1 from clients where rut = ${rut}`)).toHaveLength(1);
  });

  it('an apply interrupted mid-way by a failure leaves nothing, and the failure is told and recorded', async () => {
    const admin = await loginAs(ctx);
    const before = await snapshot(ctx);
    const lines = ['RUT;Nombres;Apellidos;Fecha de nacimiento'];
    for (let n = 0; n < 1_100; n++) lines.push(`${rutOf(16_000_000 + n)};Ana;Soto ${n};01/02/1980`);
    const { file } = await uploadAndCheck(admin, 'clients', 'many.csv', Buffer.from(lines.join('\n')));
    const user = admin.user! as unknown as ServiceContext['user'];
    const serviceCtx = {
      db: actingAs(ctx.appDb, { userId: admin.user!.id }),
      user,
      now: NOW,
      events: ctx.app.dependencies.events,
    };
    const told: unknown[] = [];
    await imports.startApply(
      serviceCtx,
      file.runId,
      { mapping: file.mapping, onlyValidRows: false },
      {
        beforeChunk: (index) => {
          if (index === 2) throw new Error('fallo inyectado');
        },
        onFailure: (error) => told.push(error),
      },
    );
    const outcome = await imports.settled(file.runId);
    expect(outcome?.status).toBe('failed');
    expect(told.map((error) => (error as Error).message)).toEqual(['fallo inyectado']);
    const run = (await admin.get(`/api/imports/runs/${file.runId}`)).json().run;
    expect(run.status).toBe('failed');
    expect(run.failure).toBe('IMPORT_FAILED');
    expect(await snapshot(ctx)).toEqual(before);
  });

  it('an apply of every row stops, leaving nothing, when a row its dry run passed is refused by its chunk (decision 0077)', async () => {
    const admin = await loginAs(ctx);
    const lines = ['RUT;Nombres;Apellidos;Fecha de nacimiento'];
    // Past one chunk on either engine (50 embedded, 500 on PostgreSQL).
    for (let n = 0; n < 600; n++) lines.push(`${rutOf(17_000_000 + n)};Ana;Soto ${n};01/02/1980`);
    const { file, dry } = await uploadAndCheck(admin, 'clients', 'later.csv', Buffer.from(lines.join('\n')));
    expect(dry.counts).toMatchObject({ created: 600, errors: 0 });
    const serviceCtx = {
      db: actingAs(ctx.appDb, { userId: admin.user!.id }),
      user: admin.user! as unknown as ServiceContext['user'],
      now: NOW,
      events: ctx.app.dependencies.events,
    };
    // After the dry run and the first chunk, the holder of row 552 blocks the processing of their data.
    let blocked = false;
    await imports.startApply(
      serviceCtx,
      file.runId,
      { mapping: file.mapping, onlyValidRows: false },
      {
        beforeChunk: async (index) => {
          if (index !== 1 || blocked) return;
          blocked = true;
          await createClient(ctx.db, { rut: rutOf(17_000_550), restriction: 'blocking' });
        },
      },
    );
    const outcome = await imports.settled(file.runId);
    expect(outcome?.status).toBe('failed');
    const run = (await admin.get(`/api/imports/runs/${file.runId}`)).json().run;
    expect(run).toMatchObject({ status: 'failed', failure: 'IMPORT_HAS_ERRORS' });
    const left = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from clients where rut like '17000%'`,
    );
    // Only the client blocked meanwhile: the first chunk's clients were undone.
    expect(left[0]!.n).toBe(1);
    expect(blocked).toBe(true);
  });

  it('rolls back a run a stopped server left Aplicando, and then lets the next import through', async () => {
    const admin = await loginAs(ctx);
    const before = await snapshot(ctx);
    const csv = (from: number) =>
      Buffer.from(
        ['RUT;Nombres;Apellidos;Fecha de nacimiento']
          .concat(Array.from({ length: 30 }, (_, n) => `${rutOf(from + n)};Ana;Soto ${n};01/02/1980`))
          .join('\n'),
      );
    // What a server killed mid-apply leaves: rows written, recorded for undo, the run 'Aplicando',
    // and no process applying it.
    const { file } = await uploadAndCheck(admin, 'clients', 'cortada.csv', csv(17_000_000));
    expect((await applyAndWait(admin, file.runId, file.mapping)).status).toBe('applied');
    await ctx.db.execute(
      sql`update import_runs set status = 'applying', finished_at = null where id = ${file.runId}`,
    );
    expect(await snapshot(ctx)).not.toEqual(before);

    const next = await uploadAndCheck(admin, 'clients', 'siguiente.csv', csv(17_100_000));
    const applied = await applyAndWait(admin, next.file.runId, next.file.mapping);
    expect(applied.status).toBe('applied');
    const left = (await admin.get(`/api/imports/runs/${file.runId}`)).json().run;
    expect(left).toMatchObject({ status: 'failed', failure: 'IMPORT_INTERRUPTED', canUndo: false });
    // Nothing of the interrupted run is left: only the next import's 30 clients are new.
    const [count] = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from clients where rut like '170%'`,
    );
    expect(count!.n).toBe(0);
    // A server starting finds nothing more to roll back.
    expect(await imports.recoverAbandonedRuns(ctx.appDb)).toEqual([]);
  });

  it('leaves a run that is being applied alone, and refuses another import meanwhile', async () => {
    const admin = await loginAs(ctx);
    const lines = ['RUT;Nombres;Apellidos;Fecha de nacimiento'];
    for (let n = 0; n < 600; n++) lines.push(`${rutOf(18_000_000 + n)};Ana;Soto ${n};01/02/1980`);
    const { file } = await uploadAndCheck(admin, 'clients', 'viva.csv', Buffer.from(lines.join('\n')));
    const serviceCtx = {
      db: actingAs(ctx.appDb, { userId: admin.user!.id }),
      user: admin.user! as unknown as ServiceContext['user'],
      now: NOW,
      events: ctx.app.dependencies.events,
    };
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => {
      resume = resolve;
    });
    let reachedSecondChunk!: () => void;
    const atSecondChunk = new Promise<void>((resolve) => {
      reachedSecondChunk = resolve;
    });
    await imports.startApply(
      serviceCtx,
      file.runId,
      { mapping: file.mapping, onlyValidRows: false },
      {
        beforeChunk: async (index) => {
          if (index !== 1) return;
          reachedSecondChunk();
          await paused;
        },
      },
    );
    await atSecondChunk;
    expect(await imports.recoverAbandonedRuns(ctx.appDb)).toEqual([]);
    const other = await uploadAndCheck(
      admin,
      'clients',
      'otra.csv',
      Buffer.from(lines.slice(0, 2).join('\n')),
    );
    const refused = await admin.post(`/api/imports/runs/${other.file.runId}/apply`, {
      mapping: other.file.mapping,
    });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).code).toBe('IMPORT_ANOTHER_RUNNING');
    resume();
    expect((await imports.settled(file.runId))?.status).toBe('applied');
  });
});

describe('imports: reservations with their commission and in-flight sales', { timeout: 180_000 }, () => {
  const ctx = useTestApp({ now: () => NOW });

  it('creates the flows by the engine at the imported stages and dates, passing the invariants; re-apply changes nothing; undo restores', async () => {
    const admin = await loginAs(ctx);
    const seller = await createUser(ctx.db, {
      isSeller: true,
      email: 'vendedora@inmoflujo.test',
      firstName: 'Vera',
      lastName: 'Díaz',
    });
    await createProject(ctx.db, { name: 'Edificio Los Aromos' });
    const clients = await Promise.all([1, 2, 3, 4].map(() => createClient(ctx.db)));
    const broker = await createBroker(ctx.db);
    const before = await snapshot(ctx);
    const headers = await templateHeaders(admin, 'reservations');
    const base = (n: number) => ({
      'N° Reserva': `IMP-${n}`,
      'RUT Cliente': dotted(clients[n - 1]!.rut),
      Proyecto: 'edificio los aromos',
      Vendedor: seller.email,
      'Fecha reserva': '10/01/2026',
      Departamento: `${100 + n}`,
      'Precio departamento': '3.250,50',
      'Descuento columna': '5%',
      'Pago reserva': '20',
      'Crédito hipotecario': '2,600.00',
    });
    const rows = [
      base(1),
      { ...base(2), 'Etapa alcanzada': 'Promesa' },
      { ...base(3), 'Fecha promesa': '15/02/2026', 'Etapa alcanzada': 'Escrituración' },
      {
        ...base(4),
        'Fecha promesa': '2026-02-15',
        'Fecha escritura': '20-06-2026',
        'Etapa alcanzada': 'Completada',
        'RUT Broker': broker.rut,
        'Monto comisión': '60,5',
        'Número de pagos': '2',
        'Porcentaje primer pago': '50',
        'Fecha pago 1': '30/06/2026',
        'Fecha pago 2': '15/07/2026',
      },
    ];
    const bytes = await workbook([headers, ...rows.map((values) => rowFor(headers, values))]);
    const { file, dry } = await uploadAndCheck(admin, 'reservations', 'reservas.xlsx', bytes);
    expect(dry.errors).toEqual([]);
    expect(dry.summary).toBe('4 nuevos, 0 actualizados, 0 sin cambios, 0 con errores');
    const run = await applyAndWait(admin, file.runId, file.mapping);
    expect(run.status).toBe('applied');

    const stages = await queryRows<{ number: string; stage: string | null; status: string; flow_id: string }>(
      ctx.db,
      sql`select r.reservation_number as number, s.name as stage, f.status, f.id as flow_id
          from reservations r join flows f on f.reservation_id = r.id and f.kind = 'sale'
          left join workflow_stages s on s.id = f.current_stage_id order by r.reservation_number`,
    );
    expect(stages.map(({ number, stage, status }) => ({ number, stage, status }))).toEqual([
      { number: 'IMP-1', stage: 'Reserva', status: 'in_progress' },
      { number: 'IMP-2', stage: 'Promesa', status: 'in_progress' },
      { number: 'IMP-3', stage: 'Escrituración', status: 'in_progress' },
      { number: 'IMP-4', stage: null, status: 'completed' },
    ]);
    for (const { flow_id } of stages) {
      const { definition, state } = await workflows.readFlow(ctx.db, flow_id);
      expect(flowViolations(definition, state, { strict: true })).toEqual([]);
    }
    // The Promesa tasks of IMP-3 were completed on the promise's day (noon in Santiago).
    const { definition, state } = await workflows.readFlow(ctx.db, stages[2]!.flow_id);
    const promesa = definition.stages.find((stage) => stage.name === 'Promesa')!;
    const promesaTasks = new Set(
      definition.tasks.filter((task) => task.stageId === promesa.id).map((task) => task.id),
    );
    const completed = state.tasks.filter((task) => promesaTasks.has(task.taskId));
    expect(completed.every((task) => task.completedAt?.toISOString() === '2026-02-15T15:00:00.000Z')).toBe(
      true,
    );

    const [reservation] = await queryRows<Record<string, string>>(
      ctx.db,
      sql`select apartment_price, column_discount, credit_payment, seller_id, total_price from reservations where reservation_number = 'IMP-4'`,
    );
    expect(reservation).toEqual({
      apartment_price: '3250.50',
      column_discount: '0.050000',
      credit_payment: '2600.00',
      seller_id: seller.id,
      total_price: '3250.50',
    });
    const payments = await queryRows<{
      second: boolean;
      status: string;
      payment_1_date: string;
      payment_2_date: string;
      id: string;
    }>(
      ctx.db,
      sql`select f.id, f.is_second_payment as second, f.status, c.payment_1_date, c.payment_2_date
          from flows f join broker_commissions c on c.id = f.broker_commission_id where f.kind = 'payment' order by 2`,
    );
    expect(
      payments.map(({ second, status, payment_1_date, payment_2_date }) => ({
        second,
        status,
        payment_1_date,
        payment_2_date,
      })),
    ).toEqual([
      { second: false, status: 'completed', payment_1_date: '2026-06-30', payment_2_date: '2026-07-15' },
      { second: true, status: 'completed', payment_1_date: '2026-06-30', payment_2_date: '2026-07-15' },
    ]);
    for (const { id } of payments) {
      const flow = await workflows.readFlow(ctx.db, id);
      expect(flowViolations(flow.definition, flow.state, { strict: true })).toEqual([]);
    }

    const after = await snapshot(ctx);
    const again = await uploadAndCheck(admin, 'reservations', 'reservas.xlsx', bytes);
    expect(again.dry.summary).toBe('0 nuevos, 0 actualizados, 4 sin cambios, 0 con errores');
    await applyAndWait(admin, again.file.runId, again.file.mapping);
    expect(await snapshot(ctx)).toEqual(after);

    expect((await admin.post(`/api/imports/runs/${file.runId}/undo`)).statusCode).toBe(200);
    expect(await snapshot(ctx)).toEqual(before);
  });

  it('says why a reservation row cannot be imported', async () => {
    const admin = await loginAs(ctx);
    const north = await createProject(ctx.db, { name: 'Torre Norte' });
    const east = await createProject(ctx.db, { name: 'Torre Este' });
    const client = await createClient(ctx.db);
    // Units already sold: 201 and parking E-1 in Torre Norte; 301 only in another project.
    await createReservation(ctx.db, {
      projectId: north.id,
      reservationNumber: 'V-9',
      apartmentNumber: '201',
      parkingNumber: 'E-1',
    });
    await createReservation(ctx.db, { projectId: east.id, apartmentNumber: '301' });
    const csv = [
      'N° Reserva;RUT Cliente;Proyecto;Fecha reserva;Departamento;Precio departamento;Etapa alcanzada;Fecha pago 1;Estacionamiento',
      `A-1;${uniqueRut()};Torre Norte;01/01/2026;101;3000;;;`,
      `A-2;${client.rut};Torre Sur;01/01/2026;102;3000;;;`,
      `A-3;${client.rut};Torre Norte;01/01/2026;103;3000;Escrituración;;`,
      `A-4;${client.rut};Torre Norte;01/01/2026;104;3000;;01/02/2026;`,
      `A-5;${client.rut};Torre Norte;01/01/2026;104;3000;;;`,
      `A-6;${client.rut};Torre Norte;01/01/2026;201;3000;;;e-1`,
      `A-7;${client.rut};Torre Norte;01/01/2026;301;3000;;;`,
    ].join('\n');
    const { dry } = await uploadAndCheck(admin, 'reservations', 'r.csv', Buffer.from(csv));
    const reasons = dry.errors.map(
      (error: { rowNumber: number; column: string; reason: string }) =>
        `${error.rowNumber} ${error.column}: ${error.reason}`,
    );
    expect(reasons).toEqual([
      '2 RUT Cliente: No hay un cliente con este RUT: impórtelo primero en Clientes',
      '3 Proyecto: No hay un proyecto con este nombre',
      '4 Fecha promesa: Con la etapa Escrituración, indique la fecha de promesa',
      '5 Fecha pago 1: Una reserva sin broker no tiene comisión: indique el RUT Broker',
      '5 Departamento: Lo toman 2 filas de este archivo (esta es la primera)',
      '6 Departamento: Lo toman 2 filas de este archivo (la primera es la 5)',
      '7 Departamento: Ya está vendido en la reserva V-9',
      '7 Estacionamiento: Ya está vendido en la reserva V-9',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------

/** A zip whose one entry (the workbook) inflates from 100 KB to 100 MB. */
function zipBomb(): Buffer {
  const name = Buffer.from('xl/workbook.xml');
  const raw = Buffer.alloc(100 * 1024 * 1024);
  const data = deflateRawSync(raw);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(raw.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(raw.length, 24);
  central.writeUInt16LE(name.length, 28);
  central.writeUInt32LE(0, 42);
  const centralOffset = local.length + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}
