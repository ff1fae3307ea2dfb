import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { type CellValue, cellText, foldText } from '../../../shared/domain/import-cells';
import { santiagoDateOf } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import {
  type ColumnMapping,
  columnsOf,
  countsSentence,
  type DryRunResult,
  IMPORT_FIELDS,
  IMPORT_KIND_LABELS,
  type ImportKind,
  type ImportRun,
  MAX_LISTED_ERRORS,
  MAX_LISTED_SKIPPED,
  matchHeaders,
  ORIGINAL_ROW_HEADER,
  type RepeatedKeys,
  type UploadedFile,
} from '../../../shared/schemas/imports';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { letOthersThrough } from '../../event-loop';
import { loadExcelJs } from '../../exports/exceljs';
import { AppError } from '../../http/app-error';
import { leaseRun } from './apply-lease';
import { fileSubjectKeys, hashSubjects } from './file-subjects';
import * as queries from './imports.queries';
import { insertRunSubjectsIn, runFileRemoved } from './imports-privacy';
import {
  type ApplyOptions,
  type ApplyOutcome,
  apply,
  KINDS,
  type PlanOutcome,
  plan,
  rollBackRun,
  undoRun,
} from './pipeline';
import { openTable } from './read-file';

/**
 * Configuración → 'Importar' (issue 32): administrators upload a file, choose its sheet and mapping,
 * see the dry run, apply it (in the background, with progress and cancel), download the errors, and
 * undo a run. The same pipeline serves `npm run import` (scripts/import.ts).
 */

function requireAdmin(ctx: Pick<ServiceContext, 'user'>) {
  if (!can(ctx.user, 'imports.manage')) throw new AppError('FORBIDDEN');
}

/** A `stock-changed` event per project whose units, prices or held units a run changed (decision 0041). */
function publishStockChanged(ctx: Pick<ServiceContext, 'events'>, projectIds: readonly string[]) {
  for (const projectId of projectIds) ctx.events.publish({ type: 'stock-changed', projectId });
}

function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A row offered as the header on screen: its first cells as text, cut short. */
function candidateText(cells: readonly CellValue[]): string {
  const text = cells
    .map((cell) => cellText(cell))
    .filter((cell) => cell !== '')
    .slice(0, 6)
    .join(' · ');
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

async function describeFile(
  db: Database,
  kind: ImportKind,
  bytes: Buffer,
  at: { sheetName: string | null; headerRow?: number | null },
): Promise<Omit<UploadedFile, 'runId' | 'fileName' | 'kind'>> {
  const table = await openTable(bytes, { sheet: at.sheetName, headerRow: at.headerRow });
  // The header is all the screen needs: the rest of the file is not read now.
  await table.close();
  const headers = table.header.cells.map((cell) => cellText(cell));
  const remembered = await queries.findMapping(db, kind);
  return {
    format: table.format,
    sheets: table.sheets,
    sheetName: table.sheetName,
    headerRow: table.header.rowNumber,
    headerChosen: table.headerChosen,
    headerCandidates: table.candidates.map((row) => ({
      rowNumber: row.rowNumber,
      text: candidateText(row.cells),
    })),
    headers,
    mapping: matchHeaders(kind, headers, remembered),
  };
}

/**
 * A new run with its file (the screen's upload and `npm run import`). The file is stored a part per
 * transaction: on the embedded database other requests run between them. A run whose file could
 * not be kept whole is no run (and a run missing a part is never read: `findRun`).
 */
export async function keepRun(
  db: Database,
  values: { kind: ImportKind; fileName: string; bytes: Buffer; createdBy: string },
): Promise<{ id: string }> {
  const parts = queries.filePartsOf(values.bytes);
  // Whom the file names (decision 0062), so that a suppression finds it. A sheet that cannot be read
  // leaves the run without them: its file is then kept only until its retention (as before 0062).
  const subjects = await fileSubjectKeys(values.bytes).then(hashSubjects, () => null);
  const run = await db.transaction(async (tx) => {
    const inserted = await queries.insertRun(tx, {
      kind: values.kind,
      fileName: values.fileName,
      fileHash: hashOf(values.bytes),
      fileParts: parts.length,
      createdBy: values.createdBy,
    });
    if (subjects) await insertRunSubjectsIn(tx, inserted.id, subjects);
    return inserted;
  });
  try {
    for (const [index, part] of parts.entries()) {
      await db.transaction((tx) => queries.insertFilePart(tx, run.id, index, part));
      // Let the requests that arrived meanwhile reach the database before the next part: without
      // it the parts went one after the other and /api/health waited for them all (~0.8 s).
      await letOthersThrough();
    }
  } catch (error) {
    await db.transaction((tx) => queries.deleteRun(tx, run.id));
    throw error;
  }
  return run;
}

/** POST /api/imports/files: the file judged by its bytes and kept with its run; its header matched. */
export async function upload(
  ctx: ServiceContext,
  kind: ImportKind,
  fileName: string,
  bytes: Buffer,
): Promise<UploadedFile> {
  requireAdmin(ctx);
  const described = await describeFile(ctx.db, kind, bytes, { sheetName: null });
  const run = await keepRun(ctx.db, { kind, fileName, bytes, createdBy: ctx.user.id });
  return { runId: run.id, kind, fileName, ...described };
}

async function requireRun(db: Database, id: string) {
  const run = await queries.findRun(db, id);
  if (!run) {
    if (await runFileRemoved(db, id)) throw new AppError('IMPORT_FILE_REMOVED');
    throw new AppError('IMPORT_RUN_NOT_FOUND');
  }
  return run;
}

/** Another sheet of the uploaded workbook, or another header row: its headers and matched mapping. */
export async function chooseSheet(
  ctx: ServiceContext,
  runId: string,
  at: { sheetName?: string | null | undefined; headerRow?: number | null | undefined },
): Promise<UploadedFile> {
  requireAdmin(ctx);
  const run = await requireRun(ctx.db, runId);
  const described = await describeFile(ctx.db, run.kind as ImportKind, run.fileBytes, {
    sheetName: at.sheetName ?? null,
    headerRow: at.headerRow ?? null,
  });
  return { runId, kind: run.kind as ImportKind, fileName: run.fileName, ...described };
}

interface RunInput {
  sheetName?: string | null | undefined;
  headerRow?: number | null | undefined;
  mapping: ColumnMapping;
  repeatedKeys?: RepeatedKeys | undefined;
}

/** Remembers the mapping by header text (folded), for the next file of this kind. */
async function rememberMapping(ctx: ServiceContext, kind: ImportKind, bytes: Buffer, input: RunInput) {
  const table = await openTable(bytes, {
    sheet: input.sheetName ?? null,
    headerRow: input.headerRow ?? null,
  });
  await table.close();
  const headers = table.header.cells.map((cell) => foldText(cellText(cell)));
  const columns: Record<string, string> = {};
  // Each column of a field, joined ones too: the next file's headers find them all (and the CLI's).
  for (const key of Object.keys(input.mapping)) {
    for (const index of columnsOf(input.mapping, key)) {
      const header = headers[index];
      if (header) columns[header] = key;
    }
  }
  await ctx.db.transaction((tx) => queries.upsertMapping(tx, kind, columns, ctx.user.id));
}

function dryRunAnswer(outcome: PlanOutcome): DryRunResult {
  return {
    counts: outcome.counts,
    totalRows: outcome.totalRows,
    errors: outcome.errors.slice(0, MAX_LISTED_ERRORS),
    moreErrors: Math.max(0, outcome.errors.length - MAX_LISTED_ERRORS),
    summary: countsSentence(outcome.counts),
    headerRow: outcome.headerRow,
    skippedRows: outcome.skipped.rows.slice(0, MAX_LISTED_SKIPPED),
    skippedCount: outcome.skipped.count,
  };
}

/**
 * The last dry run's plan of each run, kept in this process for the apply that follows it: the apply
 * planned the whole file again before it started (a third pass over 100,000 clients, ~15 s under
 * load). Taken only for the same input on the same Santiago day within REVIEW_KEPT_MS; the apply's
 * chunks plan their rows again in their transactions all the same, and a row found in error there
 * stops an apply that wanted every row (decision 0077). Another instance, or a later apply, plans anew.
 */
const reviewed = new Map<string, { input: string; day: string; at: number; outcome: PlanOutcome }>();
const REVIEW_KEPT_MS = 15 * 60_000;
const MAX_REVIEWS_KEPT = 4;

const inputKey = (input: RunInput) =>
  JSON.stringify([
    input.sheetName ?? null,
    input.headerRow ?? null,
    input.mapping,
    input.repeatedKeys ?? null,
  ]);

function keepReview(runId: string, input: RunInput, now: Date, outcome: PlanOutcome) {
  reviewed.delete(runId);
  reviewed.set(runId, { input: inputKey(input), day: santiagoDateOf(now), at: now.getTime(), outcome });
  // The oldest first out: each holds its run's row sets.
  for (const key of reviewed.keys()) {
    if (reviewed.size <= MAX_REVIEWS_KEPT) break;
    reviewed.delete(key);
  }
}

function takeReview(runId: string, input: RunInput, now: Date): PlanOutcome | undefined {
  const kept = reviewed.get(runId);
  reviewed.delete(runId);
  if (!kept || kept.input !== inputKey(input) || kept.day !== santiagoDateOf(now)) return undefined;
  const age = now.getTime() - kept.at;
  return age >= 0 && age <= REVIEW_KEPT_MS ? kept.outcome : undefined;
}

/** POST /api/imports/runs/:id/dry-run: the plan, nothing written (but the mapping, remembered). */
export async function dryRun(ctx: ServiceContext, runId: string, input: RunInput): Promise<DryRunResult> {
  requireAdmin(ctx);
  const run = await requireRun(ctx.db, runId);
  const kind = run.kind as ImportKind;
  const outcome = await plan(
    ctx.db,
    {
      kind,
      bytes: run.fileBytes,
      sheetName: input.sheetName,
      headerRow: input.headerRow,
      mapping: input.mapping,
      repeatedKeys: input.repeatedKeys,
    },
    ctx.now,
  );
  await rememberMapping(ctx, kind, run.fileBytes, input);
  await ctx.db.transaction((tx) =>
    queries.updateRun(tx, runId, {
      mapping: input.mapping,
      sheetName: input.sheetName ?? null,
      headerRow: outcome.headerRow,
      totalRows: outcome.totalRows,
      errorCount: outcome.counts.errors,
    }),
  );
  keepReview(runId, input, ctx.now, outcome);
  return dryRunAnswer(outcome);
}

/** Applies in progress in this process (tests and the command line wait on them). */
const running = new Map<string, Promise<ApplyOutcome>>();

/** The apply of a run started here, when one is under way. */
export function settled(runId: string): Promise<ApplyOutcome> | undefined {
  return running.get(runId);
}

/**
 * POST /api/imports/runs/:id/apply: the dry run again (refused while errors remain unless only the
 * valid rows are wanted), then the apply in the background — the answer is the run, 'Aplicando'; its
 * progress is read from GET /api/imports/runs/:id. One import at a time.
 */
export async function startApply(
  ctx: ServiceContext,
  runId: string,
  input: RunInput & { onlyValidRows: boolean },
  hooks: Pick<ApplyOptions, 'beforeChunk' | 'onFailure'> = {},
): Promise<ImportRun> {
  requireAdmin(ctx);
  const run = await requireRun(ctx.db, runId);
  if (run.status !== 'uploaded') throw new AppError('IMPORT_RUN_BUSY');
  // Taken before the run says 'Aplicando', held until the apply ends (apply-lease.ts).
  const lease = await leaseRun(ctx.db, runId);
  if (!lease) throw new AppError('IMPORT_RUN_BUSY');
  let work: Promise<ApplyOutcome>;
  try {
    // A run a stopped server left 'Aplicando' does not block this one: it is rolled back first.
    await recoverAbandonedRuns(ctx.db);
    if (await queries.findRunningRun(ctx.db)) throw new AppError('IMPORT_ANOTHER_RUNNING');
    const pipelineInput = {
      kind: run.kind as ImportKind,
      bytes: run.fileBytes,
      sheetName: input.sheetName,
      headerRow: input.headerRow,
      mapping: input.mapping,
      repeatedKeys: input.repeatedKeys,
    };
    const outcome = takeReview(runId, input, ctx.now) ?? (await plan(ctx.db, pipelineInput, ctx.now));
    if (outcome.counts.errors > 0 && !input.onlyValidRows) throw new AppError('IMPORT_HAS_ERRORS');
    // Claimed under the run's lock: two clicks start one apply.
    const claimed = await ctx.db.transaction(async (tx) => {
      const locked = await queries.lockRun(tx, runId);
      if (locked?.status !== 'uploaded') return false;
      await queries.updateRun(tx, runId, {
        status: 'applying',
        mapping: input.mapping,
        sheetName: input.sheetName ?? null,
        headerRow: outcome.headerRow,
        startedAt: ctx.now,
        totalRows: outcome.totalRows,
      });
      return true;
    });
    if (!claimed) throw new AppError('IMPORT_RUN_BUSY');
    work = apply(
      ctx.db,
      runId,
      pipelineInput,
      { actorId: ctx.user.id, now: ctx.now, onlyValidRows: input.onlyValidRows, ...hooks },
      outcome,
    );
  } catch (error) {
    await lease.release();
    throw error;
  }
  // After the commit of the run's last transaction: every open Disponibilidad of its projects refreshes.
  const published = work.then((outcome) => {
    publishStockChanged(ctx, outcome.stockChanged);
    return outcome;
  });
  const tracked = published.finally(async () => {
    running.delete(runId);
    await lease.release();
  });
  running.set(runId, tracked);
  // The background work records its own failure on the run; what it could not record is told.
  tracked.catch((error: unknown) => hooks.onFailure?.(error));
  return getRun(ctx, runId);
}

/**
 * Runs left 'Aplicando' by a server that stopped mid-apply (nobody holds their lease): what they wrote
 * is undone and they end 'Fallida', saying so (`IMPORT_INTERRUPTED`). At the server's start, and
 * before an apply begins (on PostgreSQL another instance may have died without restarting). Answers
 * the runs it rolled back.
 */
export async function recoverAbandonedRuns(db: Database): Promise<string[]> {
  const recovered: string[] = [];
  for (const runId of await queries.listApplyingRuns(db)) {
    const lease = await leaseRun(db, runId);
    if (!lease) continue;
    try {
      // Read again under the lease: it may have ended between the list and the lease.
      if ((await queries.findRunState(db, runId))?.status !== 'applying') continue;
      await rollBackRun(db, runId, null, { status: 'failed', failure: 'IMPORT_INTERRUPTED' });
      recovered.push(runId);
    } finally {
      await lease.release();
    }
  }
  return recovered;
}

/** POST /api/imports/runs/:id/cancel: the apply stops after its current chunk and undoes what it wrote. */
export async function cancel(ctx: ServiceContext, runId: string): Promise<ImportRun> {
  requireAdmin(ctx);
  const run = await queries.findRunState(ctx.db, runId);
  if (!run) throw new AppError('IMPORT_RUN_NOT_FOUND');
  if (run.status !== 'applying') throw new AppError('IMPORT_RUN_BUSY');
  await ctx.db.transaction((tx) => queries.updateRun(tx, runId, { cancelRequested: true }));
  return getRun(ctx, runId);
}

/** POST /api/imports/runs/:id/undo: 'Deshacer importación'. */
export async function undo(ctx: ServiceContext, runId: string): Promise<ImportRun> {
  requireAdmin(ctx);
  const run = await queries.findRunState(ctx.db, runId);
  if (!run) throw new AppError('IMPORT_RUN_NOT_FOUND');
  if (run.status === 'undone') throw new AppError('IMPORT_ALREADY_UNDONE');
  if (run.status !== 'applied') throw new AppError('IMPORT_NOT_UNDOABLE');
  const stockProjects = await queries.listStockProjectsOfRun(ctx.db, runId);
  await undoRun(ctx.db, runId, ctx.user.id, ctx.now);
  publishStockChanged(ctx, stockProjects);
  return getRun(ctx, runId);
}

function runView(row: queries.RunListRow): ImportRun {
  return {
    id: row.id,
    kind: row.kind as ImportKind,
    fileName: row.fileName,
    fileHash: row.fileHash,
    status: row.status as ImportRun['status'],
    headerRow: row.headerRow,
    totalRows: row.totalRows,
    processedRows: row.processedRows,
    counts: {
      created: row.createdCount,
      updated: row.updatedCount,
      unchanged: row.unchangedCount,
      errors: row.errorCount,
    },
    failure: row.failure,
    createdByName: row.createdByName,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    undoneAt: row.undoneAt,
    canUndo: row.status === 'applied' && row.createdCount + row.updatedCount > 0,
  };
}

export async function getRun(ctx: Pick<ServiceContext, 'db' | 'user'>, runId: string): Promise<ImportRun> {
  requireAdmin(ctx);
  const row = await queries.findRunListRow(ctx.db, runId);
  if (!row) throw new AppError('IMPORT_RUN_NOT_FOUND');
  return runView(row);
}

/** The 50 newest runs. */
export async function listRuns(ctx: ServiceContext): Promise<ImportRun[]> {
  requireAdmin(ctx);
  return (await queries.listRuns(ctx.db, 50)).map(runView);
}

// --- Workbooks ---------------------------------------------------------------------------------------

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface Download {
  fileName: string;
  contentType: string;
  body: Buffer | PassThrough;
}

/**
 * The template of a kind: its Spanish headers, an example row, and the allowed values of its list
 * columns as Excel lists (data validation) over the first thousand rows.
 */
export async function template(ctx: Pick<ServiceContext, 'user'>, kind: ImportKind): Promise<Download> {
  requireAdmin(ctx);
  const fields = IMPORT_FIELDS[kind];
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(IMPORT_KIND_LABELS[kind], { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = fields.map((field) => ({
    header: field.label,
    key: field.key,
    width: Math.max(14, field.label.length + 4),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.addRow(fields.map((field) => field.example || null));
  fields.forEach((field, index) => {
    if (field.required) sheet.getCell(1, index + 1).note = 'Obligatorio';
    if (!field.values) return;
    const column = sheet.getColumn(index + 1).letter;
    for (let row = 2; row <= 1000; row++) {
      sheet.getCell(`${column}${row}`).dataValidation = {
        type: 'list',
        allowBlank: !field.required,
        formulae: [`"${field.values.join(',')}"`],
        showErrorMessage: true,
        errorTitle: field.label,
        error: `Use uno de estos valores: ${field.values.join(', ')}`,
      };
    }
  });
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  return {
    fileName: `plantilla_${IMPORT_KIND_LABELS[kind].toLowerCase()}.xlsx`,
    contentType: XLSX_TYPE,
    body: buffer,
  };
}

/**
 * The rows with errors only (issue 55), each with its row number in the uploaded file ('Fila original')
 * and its reasons ('Errores'), under the file's own header: fixed in Excel, it is uploaded again as it
 * is (the two added columns are not mapped). Streamed: the rows are read and written one at a time,
 * the event loop let through every few hundred rows; a file with no errors gives the header alone.
 */
export async function errorsWorkbook(
  ctx: ServiceContext,
  runId: string,
  headerRow: number | null = null,
  repeatedKeys?: RepeatedKeys,
): Promise<Download> {
  requireAdmin(ctx);
  const run = await requireRun(ctx.db, runId);
  const kind = run.kind as ImportKind;
  const mapping = (run.mapping as ColumnMapping | null) ?? null;
  if (!mapping)
    throw new AppError('IMPORT_MAPPING_MISSING', { params: { fields: 'haga primero la revisión' } });
  // Where the review read the header (stored with the run), unless the link names another row.
  const at = headerRow ?? run.headerRow;
  const input = {
    kind,
    bytes: run.fileBytes,
    sheetName: run.sheetName,
    headerRow: at,
    mapping,
    repeatedKeys,
  };
  const outcome = await plan(ctx.db, input, ctx.now);
  const byRow = new Map<number, string[]>();
  for (const error of outcome.errors) {
    const list = byRow.get(error.rowNumber) ?? [];
    list.push(
      error.column === ''
        ? error.reason
        : `${error.column}: ${error.reason}${error.value ? ` (${error.value})` : ''}`,
    );
    byRow.set(error.rowNumber, list);
  }
  const table = await openTable(run.fileBytes, { sheet: run.sheetName, headerRow: at });
  const out = new PassThrough();
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet((table.sheetName ?? IMPORT_KIND_LABELS[kind]).slice(0, 31));
  const width = table.header.cells.length;
  const header = sheet.addRow([
    ORIGINAL_ROW_HEADER,
    ...table.header.cells.map((cell) => cellText(cell)),
    'Errores',
  ]);
  header.font = { bold: true };
  header.commit();
  (async () => {
    let read = 0;
    for await (const row of table.rows) {
      if (++read % 500 === 0) await letOthersThrough();
      const reasons = byRow.get(row.rowNumber);
      if (!reasons) continue;
      const cells = Array.from({ length: width }, (_, index) => row.cells[index] ?? null);
      const written = sheet.addRow([row.rowNumber, ...cells, reasons.join('; ')]);
      // Dates stay dates, shown as Chilean staff write them.
      cells.forEach((cell, index) => {
        if (cell instanceof Date) written.getCell(index + 2).numFmt = 'dd/mm/yyyy';
      });
      written.commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error) => out.destroy(error as Error));
  const base = run.fileName.replace(/\.(xlsx|csv)$/i, '');
  return { fileName: `${base}_errores.xlsx`, contentType: XLSX_TYPE, body: out };
}

// The holders' rights on import runs (decision 0055): suppression and retention of stored files.
export { redactHolderRunsIn, removeOldRunFiles } from './imports-privacy';
export { KINDS };
