import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { queryRows } from '../db/client';
import { IMPORT_BODY_TYPE } from '../features/imports/imports.routes';
import * as imports from '../features/imports/imports.service';
import type { Agent, TestContext } from './app';

/** The import's API tests' steps: a file uploaded, checked, applied as an administrator does. */

/** Every row of the tables, sorted, as text: compared before and after an import (and its undo). */
export async function tableSnapshot(
  ctx: TestContext,
  tables: readonly string[],
): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const table of tables) {
    const rows = await queryRows<{ doc: unknown }>(
      ctx.db,
      sql.raw(`select to_jsonb(t) as doc from ${table} t`),
    );
    result[table] = JSON.stringify(rows.map((row) => JSON.stringify(row.doc)).sort());
  }
  return result;
}

export function dotted(rut: string): string {
  const [body, digit] = rut.split('-');
  return `${body!.replace(/\B(?=(\d{3})+(?!\d))/g, '.')}-${digit}`;
}

export async function upload(agent: Agent, kind: string, name: string, bytes: Buffer) {
  return agent.app.inject({
    method: 'POST',
    url: `/api/imports/files?kind=${kind}&name=${encodeURIComponent(name)}`,
    payload: bytes,
    headers: { origin: 'http://localhost', cookie: agent.cookie!, 'content-type': IMPORT_BODY_TYPE },
  });
}

/** Uploads, dry-runs with the matched mapping; answers the run id, mapping and dry run. */
/** Uploads and reviews a file, with the mapping matched (and the fields `changes` maps otherwise). */
export async function uploadAndCheck(
  agent: Agent,
  kind: string,
  name: string,
  bytes: Buffer,
  changes: Record<string, number | number[] | null> = {},
) {
  const uploaded = await upload(agent, kind, name, bytes);
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const file = uploaded.json();
  file.mapping = { ...file.mapping, ...changes };
  const dry = await agent.post(`/api/imports/runs/${file.runId}/dry-run`, {
    mapping: file.mapping,
    sheetName: file.sheetName,
  });
  expect(dry.statusCode, dry.body).toBe(200);
  return { file, dry: dry.json() };
}

export async function applyAndWait(
  agent: Agent,
  runId: string,
  mapping: unknown,
  options: { onlyValidRows?: boolean; sheetName?: string | null } = {},
) {
  const response = await agent.post(`/api/imports/runs/${runId}/apply`, { mapping, ...options });
  expect(response.statusCode, response.body).toBe(202);
  await imports.settled(runId);
  const run = await agent.get(`/api/imports/runs/${runId}`);
  return run.json().run;
}

export async function workbook(rows: unknown[][], sheetName = 'Hoja1', extraSheet?: string): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  if (extraSheet) book.addWorksheet(extraSheet).addRow(['otra cosa']);
  const sheet = book.addWorksheet(sheetName);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The template's headers, as a user downloads it. */
export async function templateHeaders(agent: Agent, kind: string): Promise<string[]> {
  const response = await agent.get(`/api/imports/templates/${kind}`);
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('spreadsheetml');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(response.rawPayload as never);
  const sheet = book.worksheets[0]!;
  return (sheet.getRow(1).values as unknown[]).slice(1).map(String);
}

export function rowFor(headers: string[], values: Record<string, unknown>): unknown[] {
  return headers.map((header) => (header in values ? values[header] : null));
}

/**
 * A snapshot without what says who changed a row last and its version: an undo puts the data back
 * as a new version (a version never moves backwards), so the data is compared, and the versions apart.
 */
export function dataOf(snapshot: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [table, rows] of Object.entries(snapshot)) {
    result[table] = JSON.stringify(
      (JSON.parse(rows) as string[])
        .map((row) => {
          const { version: _v, updated_at: _at, updated_by: _by, ...data } = JSON.parse(row);
          return JSON.stringify(data);
        })
        .sort(),
    );
  }
  return result;
}
