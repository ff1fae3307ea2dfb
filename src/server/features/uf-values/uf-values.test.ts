import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { csvRows, ufToClp } from '../../../shared/domain/uf';
import { queryRows } from '../../db/client';
import { errorOf, loginAs, useTestApp } from '../../test/app';

/** A year's table in the SII's layout (days down, months across): October 10 to December 9, 2026. */
const SII_TABLE = readFileSync(join(import.meta.dirname, 'fixtures', 'uf-2026-sii.csv'));
/**
 * A real published period, in the same layout: the UF of 10 January to 9 February 2021 (published on
 * 9 January from December 2020's CPI, +0.3 %), with 1-9 January from the period before (November's
 * CPI, -0.1 %: the UF went down). Values as published by the SII and the Banco Central (here as
 * mindicador.cl republishes them).
 */
const REAL_2021_TABLE = readFileSync(join(import.meta.dirname, 'fixtures', 'uf-2021-sii.csv'));
const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

async function storedValues(ctx: ReturnType<typeof useTestApp>) {
  return queryRows<{ date: string; value: string; source: string }>(
    ctx.db,
    sql`select date::text as date, value::text as value, source from uf_values order by date`,
  );
}

async function auditRows(ctx: ReturnType<typeof useTestApp>) {
  return queryRows<{ action: string; record_id: string; actor_id: string | null }>(
    ctx.db,
    sql`select action, record_id, actor_id from audit_log where table_name = 'uf_values' order by id`,
  );
}

describe('UF values', () => {
  const ctx = useTestApp();

  it("imports the SII's yearly table (CSV): a preview first, nothing saved; then every day, audited", async () => {
    const admin = await loginAs(ctx);
    const preview = await admin.post('/api/uf-values/import', {
      fileName: 'uf-2026.csv',
      content: base64(SII_TABLE),
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().import).toMatchObject({
      applied: false,
      total: 61,
      added: 61,
      changed: 0,
      firstDate: '2026-10-10',
      lastDate: '2026-12-09',
      warnings: [],
    });
    expect(await storedValues(ctx)).toEqual([]);

    const applied = await admin.post('/api/uf-values/import', {
      fileName: 'uf-2026.csv',
      content: base64(SII_TABLE),
      apply: true,
    });
    expect(applied.json().import).toMatchObject({ applied: true, added: 61 });
    const stored = await storedValues(ctx);
    expect(stored).toHaveLength(61);
    expect(stored.find((row) => row.date === '2026-11-01')).toEqual({
      date: '2026-11-01',
      value: '39817.76',
      source: 'file',
    });
    expect((await auditRows(ctx)).filter((row) => row.action === 'insert')).toHaveLength(61);
    expect((await auditRows(ctx)).every((row) => row.actor_id === admin.user!.id)).toBe(true);

    // The month shows every calendar day; October's first nine are missing, never guessed.
    const october = (await admin.get('/api/uf-values?month=2026-10')).json();
    expect(october.days).toHaveLength(31);
    expect(october.days[0]).toMatchObject({ date: '2026-10-01', value: null, source: null, version: null });
    expect(october.days[9]).toMatchObject({
      date: '2026-10-10',
      value: '39705.11',
      source: 'file',
      version: 1,
    });
    expect(october.canManage).toBe(true);

    // The same file again changes nothing and logs nothing.
    const before = (await auditRows(ctx)).length;
    const again = await admin.post('/api/uf-values/import', {
      fileName: 'uf-2026.csv',
      content: base64(SII_TABLE),
      apply: true,
    });
    expect(again.json().import).toMatchObject({ added: 0, unchanged: 61, changed: 0 });
    expect((await auditRows(ctx)).length).toBe(before);
  });

  it('imports a real published month (10 January to 9 February 2021) with no warning, and converts with it', async () => {
    const admin = await loginAs(ctx);
    const file = { fileName: 'uf-2021.csv', content: base64(REAL_2021_TABLE) };
    const preview = (await admin.post('/api/uf-values/import', file)).json().import;
    // A real month moves by well under 1 % a day, up or down: nothing to confirm.
    expect(preview).toMatchObject({
      applied: false,
      total: 40,
      added: 40,
      firstDate: '2021-01-01',
      lastDate: '2021-02-09',
      warnings: [],
    });
    await admin.post('/api/uf-values/import', { ...file, apply: true });
    const stored = new Map((await storedValues(ctx)).map((row) => [row.date, row.value]));
    expect(stored.size).toBe(40);
    expect(stored.get('2021-01-09')).toBe('29061.89');
    expect(stored.get('2021-01-10')).toBe('29064.70');
    expect(stored.get('2021-02-09')).toBe('29149.08');
    // The month as the screen reads it: February's 10th onwards was not yet published.
    const february = (await admin.get('/api/uf-values?month=2021-02')).json();
    expect(february.days).toHaveLength(28);
    expect(february.days[8]).toMatchObject({ date: '2021-02-09', value: '29149.08', source: 'file' });
    expect(february.days[9]).toMatchObject({ date: '2021-02-10', value: null });
    // A commission of 55.5 UF paid on 9 February 2021: 1,617,773.94 pesos, half-up to 1,617,774.
    expect(ufToClp('55.5', stored.get('2021-02-09')!)).toBe('1617774');
  });

  it('imports the same table as XLSX, and a simple list of date and value', async () => {
    const admin = await loginAs(ctx);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('UF');
    for (const row of csvRows(SII_TABLE.toString('utf8'))) {
      // Numbers as numbers, as the SII's workbook holds them.
      sheet.addRow(
        row.map((cell) =>
          /^[\d.]+,\d{2}$/.test(cell) ? Number(cell.replace(/\./g, '').replace(',', '.')) : cell,
        ),
      );
    }
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const answer = await admin.post('/api/uf-values/import', {
      fileName: 'valores.xlsx',
      content: base64(xlsx),
      apply: true,
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().import).toMatchObject({ applied: true, total: 61, added: 61 });
    expect((await storedValues(ctx)).find((row) => row.date === '2026-12-09')?.value).toBe('39978.38');

    const list = await admin.post('/api/uf-values/import', {
      fileName: 'uf.csv',
      content: base64('Fecha;Valor\n10/12/2026;39.982,00\n11/12/2026;39.985,99\n'),
      apply: true,
    });
    expect(list.json().import).toMatchObject({ applied: true, added: 2 });
  });

  it('refuses bad files whole with a Spanish message, and changes nothing', async () => {
    const admin = await loginAs(ctx);
    const refusals: [string, RegExp][] = [
      ['Fecha;Valor\n01/11/2026;40.000,00\n01/11/2026;40.000,00\n', /01\/11\/2026 aparece más de una vez/],
      ['Fecha;Valor\n01/11/2026;0\n', /debe ser mayor que cero/],
      ['Fecha;Valor\n01/11/2026;-40.000,00\n', /debe ser mayor que cero/],
      ['Fecha;Valor\n31/12/1976;100,00\n', /fuera del rango permitido \(1977 a 2100\)/],
      ['Fecha;Valor\n01/01/2101;100,00\n', /fuera del rango permitido/],
      ['Fecha;Valor\n31/02/2026;100,00\n', /no es una fecha/],
      ['Fecha;Valor\n', /no tiene valores/],
      ['Día;Enero;Febrero\n1;1,00;2,00\n', /año/],
    ];
    for (const [text, message] of refusals) {
      const answer = await admin.post('/api/uf-values/import', {
        fileName: 'uf.csv',
        content: base64(text),
        apply: true,
      });
      expect(answer.statusCode, text).toBe(400);
      expect(errorOf(answer).code).toBe('UF_IMPORT_INVALID');
      expect(errorOf(answer).message).toMatch(message);
      expect(errorOf(answer).message).toMatch(/nada cambió/);
    }
    const pdf = await admin.post('/api/uf-values/import', {
      fileName: 'uf.pdf',
      content: base64(Buffer.from('%PDF-1.4\u0000\u0001')),
      apply: true,
    });
    expect(errorOf(pdf).code).toBe('UF_FILE_UNREADABLE');
    const zip = await admin.post('/api/uf-values/import', {
      fileName: 'uf.xlsx',
      content: base64(Buffer.from('PK\u0003\u0004 no es un libro')),
      apply: true,
    });
    expect(errorOf(zip).code).toBe('UF_FILE_UNREADABLE');
    expect(await storedValues(ctx)).toEqual([]);
  });

  it('asks before taking a jump above 1 % or a change of a stored value, then takes it when confirmed', async () => {
    const admin = await loginAs(ctx);
    await admin.post('/api/uf-values/import', {
      fileName: 'uf.csv',
      content: base64('01/11/2026;40.000,00\n02/11/2026;40.010,00\n'),
      apply: true,
    });
    const jump = 'Fecha;Valor\n03/11/2026;41.000,00\n02/11/2026;40.011,00\n';
    const preview = await admin.post('/api/uf-values/import', { fileName: 'uf.csv', content: base64(jump) });
    expect(preview.json().import.warnings).toEqual([
      'El valor del 03/11/2026 difiere en 2,47 % del día anterior',
      'El 02/11/2026 cambia de $ 40.010,00 a $ 40.011,00',
    ]);
    const unconfirmed = await admin.post('/api/uf-values/import', {
      fileName: 'uf.csv',
      content: base64(jump),
      apply: true,
    });
    expect(unconfirmed.statusCode).toBe(409);
    expect(errorOf(unconfirmed).code).toBe('UF_CONFIRMATION_REQUIRED');
    expect((await storedValues(ctx)).map((row) => row.value)).toEqual(['40000.00', '40010.00']);
    const confirmed = await admin.post('/api/uf-values/import', {
      fileName: 'uf.csv',
      content: base64(jump),
      apply: true,
      confirmWarnings: true,
    });
    expect(confirmed.json().import).toMatchObject({ applied: true, added: 1, changed: 1 });
    expect((await storedValues(ctx)).map((row) => row.value)).toEqual(['40000.00', '40011.00', '41000.00']);
  });

  it('adds and corrects a day by hand (audited, versioned), asking about a jump first', async () => {
    const admin = await loginAs(ctx);
    const added = await admin.put('/api/uf-values/2026-11-20', { value: '39.902,60' });
    expect(added.statusCode).toBe(200);
    expect(added.json().ufValue).toMatchObject({
      date: '2026-11-20',
      value: '39902.60',
      source: 'user',
      version: 1,
    });
    const twice = await admin.put('/api/uf-values/2026-11-20', { value: '39.902,61' });
    expect(twice.statusCode).toBe(409);
    expect(errorOf(twice).code).toBe('STALE_VERSION');
    const corrected = await admin.put('/api/uf-values/2026-11-20', { value: '39902.61', version: 1 });
    expect(corrected.json().ufValue).toMatchObject({ value: '39902.61', version: 2 });
    const stale = await admin.put('/api/uf-values/2026-11-20', { value: '39902.62', version: 1 });
    expect(errorOf(stale).code).toBe('STALE_VERSION');

    const jump = await admin.put('/api/uf-values/2026-11-21', { value: '45.000,00' });
    expect(jump.statusCode).toBe(409);
    expect(errorOf(jump).message).toMatch(/difiere en 12,77 % del día anterior/);
    const taken = await admin.put('/api/uf-values/2026-11-21', { value: '45.000,00', confirmJump: true });
    expect(taken.statusCode).toBe(200);

    for (const [date, value] of [
      ['2026-11-22', '0'],
      ['2026-11-22', 'abc'],
      ['2026-11-22', '1,005'],
      ['1976-12-31', '100'],
      ['2026-02-30', '100'],
    ]) {
      const refused = await admin.put(`/api/uf-values/${date}`, { value });
      expect(refused.statusCode, `${date} ${value}`).toBe(400);
    }
    const audit = await queryRows<{ action: string; after: Record<string, string> }>(
      ctx.db,
      sql`select action, after from audit_log where table_name = 'uf_values' and record_id = '2026-11-20' order by id`,
    );
    expect(audit).toEqual([
      { action: 'insert', after: { date: '2026-11-20', value: '39902.60', source: 'user' } },
      { action: 'update', after: { value: '39902.61' } },
    ]);
  });

  it('lets every user read the values and only administrators write them (403, nothing changed)', async () => {
    for (const userType of ['KAM', 'Gestor de Pagos', 'Supervisor', 'Operaciones'] as const) {
      const user = await loginAs(ctx, { userType });
      const month = await user.get('/api/uf-values?month=2026-11');
      expect(month.statusCode).toBe(200);
      expect(month.json().canManage).toBe(false);
      const put = await user.put('/api/uf-values/2026-11-20', { value: '39902.60' });
      expect(put.statusCode).toBe(403);
      const imported = await user.post('/api/uf-values/import', {
        fileName: 'uf.csv',
        content: base64(SII_TABLE),
        apply: true,
      });
      expect(imported.statusCode).toBe(403);
      // Not even a preview: the file is an administrator's.
      const preview = await user.post('/api/uf-values/import', {
        fileName: 'uf.csv',
        content: base64(SII_TABLE),
      });
      expect(preview.statusCode).toBe(403);
    }
    expect(await storedValues(ctx)).toEqual([]);
  });
});
