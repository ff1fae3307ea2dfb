import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { DryRunResult, UploadedFile } from '../../../shared/schemas/imports';
import { errorOf, loginAs, useTestApp } from '../../test/app';
import { bytesOf, CORPUS } from '../../test/corpus/corpus';
import { applyAndWait, tableSnapshot, upload } from '../../test/imports';

/**
 * What staff really have (issue 55, decision 0049): client lists written by openpyxl, pandas,
 * LibreOffice, and built to Excel's and Google Sheets' structure, read through the import's API —
 * where the header is (below a title block, or the row chosen), the rows skipped and said, the
 * errors workbook of the review made from the same header row.
 */

const CLIENT_FILES = [
  { name: 'openpyxl-clientes.xlsx', headerRow: 4, skipped: [1, 2, 11, 12], dateColumn: 4 },
  { name: 'pandas-clientes.xlsx', headerRow: 1, skipped: [], dateColumn: 4 },
  { name: 'libreoffice-clientes.xlsx', headerRow: 4, skipped: [1, 2, 11, 12], dateColumn: 4 },
  { name: 'clientes-titulo.csv', headerRow: 4, skipped: [1, 2, 11, 12], dateColumn: 4 },
  { name: 'excel-clientes.xlsx', headerRow: 3, skipped: [1, 6, 7], dateColumn: 4 },
  { name: 'excel-1904.xlsx', headerRow: 3, skipped: [1, 6, 7], dateColumn: 4 },
  { name: 'google-sheets.xlsx', headerRow: 1, skipped: [], dateColumn: 4 },
  { name: 'openxml-sdk.xlsx', headerRow: 1, skipped: [], dateColumn: 4 },
] as const;

const fileOf = (name: string) => bytesOf(CORPUS.find((file) => file.name === name)!);

describe('imports: reading what real exporters write', () => {
  const ctx = useTestApp();

  it('reads each exporter’s client list: the header found below its title block, its rows imported, the rest said', async () => {
    const admin = await loginAs(ctx);
    for (const fixture of CLIENT_FILES) {
      const uploaded = await upload(admin, 'clients', fixture.name, await fileOf(fixture.name));
      expect(uploaded.statusCode, `${fixture.name}: ${uploaded.body}`).toBe(201);
      const file = uploaded.json() as UploadedFile;
      expect(file.headerRow, fixture.name).toBe(fixture.headerRow);
      expect(file.headerChosen).toBe(false);
      expect(file.headers.slice(0, 5), fixture.name).toEqual([
        'RUT',
        'Nombres',
        'Apellido Paterno',
        'Apellido Materno',
        'Fecha de nacimiento',
      ]);
      expect(file.headerCandidates.map((row) => row.rowNumber)).toContain(fixture.headerRow);
      // Until columns can be joined (issue 55), 'Apellido Paterno' is the surname.
      const mapping = { ...file.mapping, lastName: 2, birthDate: fixture.dateColumn };
      const dry = await admin.post(`/api/imports/runs/${file.runId}/dry-run`, { mapping });
      expect(dry.statusCode, `${fixture.name}: ${dry.body}`).toBe(200);
      const review = dry.json() as DryRunResult;
      expect(review.headerRow).toBe(fixture.headerRow);
      expect(
        review.skippedRows.map((row) => row.rowNumber),
        fixture.name,
      ).toEqual(fixture.skipped);
      expect(review.skippedCount).toBe(fixture.skipped.length);
      expect(review.errors, fixture.name).toEqual([]);
    }
    // The first file's clients are created; the same people in the next files are 'sin cambios' or
    // updated (their e-mails and phones differ by exporter): nothing is an error.
    const file = (await upload(admin, 'clients', 'x.xlsx', await fileOf('openpyxl-clientes.xlsx'))).json();
    const run = await applyAndWait(admin, file.runId, { ...file.mapping, lastName: 2, birthDate: 4 });
    expect(run.status).toBe('applied');
    expect(run.counts.errors).toBe(0);
  });

  it('takes another header row when chosen (upload, review, errors workbook), and refuses a blank or impossible one', async () => {
    const admin = await loginAs(ctx);
    const before = await tableSnapshot(ctx, ['clients']);
    const file = (
      await upload(admin, 'clients', 'c.xlsx', await fileOf('openpyxl-clientes.xlsx'))
    ).json() as UploadedFile;
    expect(file.headerCandidates.slice(0, 3)).toEqual([
      { rowNumber: 1, text: 'Listado de clientes' },
      { rowNumber: 2, text: 'Generado el 01/12/2026 por Sistema Comercial' },
      {
        rowNumber: 4,
        text: 'RUT · Nombres · Apellido Paterno · Apellido Materno · Fecha de nacimiento · Cor…',
      },
    ]);
    // The subtitle as the header: one column, the header's row said chosen.
    const chosen = await admin.post(`/api/imports/runs/${file.runId}/sheet`, { headerRow: 2 });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({
      headerRow: 2,
      headerChosen: true,
      headers: ['Generado el 01/12/2026 por Sistema Comercial'],
    });
    const blank = await admin.post(`/api/imports/runs/${file.runId}/sheet`, { headerRow: 3 });
    expect(blank.statusCode).toBe(400);
    expect(errorOf(blank).message).toBe(
      'La fila 3 está vacía o no existe: elija la fila con los títulos de las columnas.',
    );
    const outside = await admin.post(`/api/imports/runs/${file.runId}/dry-run`, {
      headerRow: 0,
      mapping: file.mapping,
    });
    expect(outside.statusCode).toBe(400);
    expect(errorOf(outside).fields?.headerRow).toBe('Elija una fila de encabezado entre 1 y 1000');

    // Back to row 4, chosen: the review and the errors workbook read from there.
    const mapping = { ...file.mapping, lastName: 2, birthDate: 4, firstName: null };
    const dry = await admin.post(`/api/imports/runs/${file.runId}/dry-run`, { headerRow: 4, mapping });
    expect(dry.statusCode, dry.body).toBe(400);
    const withNames = await admin.post(`/api/imports/runs/${file.runId}/dry-run`, {
      headerRow: 4,
      mapping: { ...mapping, firstName: 1, email: 5 },
    });
    expect(withNames.statusCode, withNames.body).toBe(200);
    const review = withNames.json() as DryRunResult;
    expect(review.headerRow).toBe(4);
    expect(review.counts.created).toBe(6);
    // The chosen row is stored with the run: its answer says it, and the errors workbook, asked without
    // it, reads from there too.
    expect((await admin.get(`/api/imports/runs/${file.runId}`)).json().run.headerRow).toBe(4);
    const errors = await admin.get(`/api/imports/runs/${file.runId}/errors`);
    expect(errors.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(errors.rawPayload as never);
    const sheet = book.worksheets[0]!;
    // The chosen header, after the original row's column; no row has an error, so no row follows.
    expect((sheet.getRow(1).values as unknown[]).slice(1, 4)).toEqual(['Fila original', 'RUT', 'Nombres']);
    expect(sheet.actualRowCount).toBe(1);
    expect(await tableSnapshot(ctx, ['clients'])).toEqual(before);
  });
});
