import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { redactText } from '../../../shared/domain/privacy';
import { can } from '../../../shared/permissions';
import { allow } from '../../../shared/policies';
import type {
  DocumentList,
  DocumentTypes,
  DocumentTypeView,
  DocumentVersionView,
  DocumentView,
  documentRenameBody,
  documentTypeBody,
  documentUploadQuery,
  documentVersionQuery,
} from '../../../shared/schemas/documents';
import type { ReadContext, ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { AppError } from '../../http/app-error';
import * as queries from './documents.queries';
import { chunksOf, judge, type SpooledFile, spool } from './upload';

/**
 * Each reservation's papers (issue 35, decision 0037): uploaded, previewed, downloaded, renamed,
 * replaced by a new version, deleted by administrators; every change in one transaction of its
 * author, audited by the tables' triggers. Who may see a document is its type's (policy
 * 'documents.read'); which workflow task requires which type is data too, and `missingDocumentsIn`
 * is what the workflow service asks before a task is completed.
 */

type User = ServiceContext['user'];

/** The type, if this user may see its documents; 403 naming it otherwise, 404 when there is none. */
async function requireVisibleType(db: Executor, user: User, typeId: string) {
  const type = await queries.findTypeAccess(db, typeId);
  if (!type) throw new AppError('DOCUMENT_TYPE_NOT_FOUND');
  if (!allow(user, 'documents.read', type)) {
    throw new AppError('DOCUMENT_FORBIDDEN', { params: { type: type.name } });
  }
  return type;
}

/** A document of the reservation this user may see (404 when there is none; 403 for its type). */
async function requireDocument(ctx: ReadContext & { user: User }, reservationId: string, documentId: string) {
  const document = await queries.findDocument(ctx.db, reservationId, documentId);
  if (!document) throw new AppError('DOCUMENT_NOT_FOUND');
  if (!allow(ctx.user, 'documents.read', { isRestricted: document.typeIsRestricted })) {
    throw new AppError('DOCUMENT_FORBIDDEN', { params: { type: document.typeName } });
  }
  return document;
}

async function requireReservation(db: Executor, reservationId: string) {
  const reservation = await queries.findReservationHeader(db, reservationId);
  if (!reservation) throw new AppError('RESERVATION_NOT_FOUND');
  return reservation;
}

/**
 * The 'Documentos' panel of a reservation: the documents of the types this user may see, the types
 * to upload, and the required ones still missing. With `typeId`, only that type's documents — 403
 * when the user may not see it.
 */
export async function listOf(
  ctx: ServiceContext,
  reservationId: string,
  typeId?: string,
): Promise<DocumentList> {
  const reservation = await requireReservation(ctx.db, reservationId);
  if (typeId) await requireVisibleType(ctx.db, ctx.user, typeId);
  const visible = (type: { isRestricted: boolean }) => allow(ctx.user, 'documents.read', type);
  const [documents, types, missing] = await Promise.all([
    queries.listDocumentsOf(ctx.db, reservationId),
    queries.listTypes(ctx.db),
    queries.listMissingOfReservation(ctx.db, reservationId),
  ]);
  return {
    reservation,
    documents: documents.filter(
      (document) =>
        visible({ isRestricted: document.typeIsRestricted }) && (!typeId || document.typeId === typeId),
    ),
    types: types.filter(visible),
    missing,
    canDelete: can(ctx.user, 'documents.delete'),
  };
}

/** Copies a received file into the database, chunk by chunk, in the caller's transaction. */
async function storeVersionIn(
  tx: Executor,
  file: SpooledFile,
  judged: { contentType: string; isPreviewable: boolean },
  input: { documentId: string; number: number; fileName: string; userId: string },
) {
  const versionId = await queries.insertVersion(tx, {
    ...input,
    contentType: judged.contentType,
    byteSize: file.byteSize,
    sha256: file.sha256,
    isPreviewable: judged.isPreviewable,
  });
  let seq = 0;
  for await (const chunk of chunksOf(file)) {
    await queries.insertChunk(tx, versionId, seq, chunk);
    seq++;
  }
}

/**
 * 'Subir documento': the request's body is the file. The type is checked before a byte is read;
 * the file is received whole (≤ 20 MB) and judged by its bytes before the transaction that stores
 * the document, its first version and its bytes — all or nothing.
 */
export async function upload(
  ctx: ServiceContext,
  reservationId: string,
  query: z.output<typeof documentUploadQuery>,
  request: FastifyRequest,
): Promise<DocumentView> {
  await requireReservation(ctx.db, reservationId);
  await requireVisibleType(ctx.db, ctx.user, query.typeId);
  const file = await spool(request);
  try {
    const judged = await judge(file, query.fileName);
    const documentId = await ctx.db.transaction(async (tx) => {
      const id = await queries.insertDocument(tx, {
        reservationId,
        documentTypeId: query.typeId,
        name: query.fileName,
        userId: ctx.user.id,
      });
      await storeVersionIn(tx, file, judged, {
        documentId: id,
        number: 1,
        fileName: query.fileName,
        userId: ctx.user.id,
      });
      return id;
    });
    return (await queries.findDocument(ctx.db, reservationId, documentId))!;
  } finally {
    await file.remove();
  }
}

/** 'Reemplazar': a new version of the document (the old ones kept, listed in its history). */
export async function addVersion(
  ctx: ServiceContext,
  reservationId: string,
  documentId: string,
  query: z.output<typeof documentVersionQuery>,
  request: FastifyRequest,
): Promise<DocumentView> {
  await requireDocument(ctx, reservationId, documentId);
  const file = await spool(request);
  try {
    const judged = await judge(file, query.fileName);
    await ctx.db.transaction(async (tx) => {
      const locked = await queries.lockDocument(tx, reservationId, documentId);
      if (!locked) throw new AppError('DOCUMENT_NOT_FOUND');
      if (locked.version !== query.version) throw new AppError('STALE_VERSION');
      const number = locked.currentVersion + 1;
      await storeVersionIn(tx, file, judged, {
        documentId,
        number,
        fileName: query.fileName,
        userId: ctx.user.id,
      });
      await queries.updateDocumentCurrentVersion(tx, documentId, number, ctx.user.id);
    });
    return (await queries.findDocument(ctx.db, reservationId, documentId))!;
  } finally {
    await file.remove();
  }
}

/** 'Renombrar' at the version read (stale: 409). */
export async function rename(
  ctx: ServiceContext,
  reservationId: string,
  documentId: string,
  body: z.output<typeof documentRenameBody>,
): Promise<DocumentView> {
  await requireDocument(ctx, reservationId, documentId);
  await ctx.db.transaction(async (tx) => {
    const locked = await queries.lockDocument(tx, reservationId, documentId);
    if (!locked) throw new AppError('DOCUMENT_NOT_FOUND');
    if (locked.version !== body.version) throw new AppError('STALE_VERSION');
    await queries.updateDocumentName(tx, documentId, body.name, ctx.user.id);
  });
  return (await queries.findDocument(ctx.db, reservationId, documentId))!;
}

/** 'Eliminar': administrators only; the document, its versions and bytes go (the log keeps the row). */
export async function remove(ctx: ServiceContext, reservationId: string, documentId: string): Promise<void> {
  if (!can(ctx.user, 'documents.delete')) throw new AppError('DOCUMENT_DELETE_ADMIN_ONLY');
  await requireDocument(ctx, reservationId, documentId);
  await ctx.db.transaction(async (tx) => {
    const locked = await queries.lockDocument(tx, reservationId, documentId);
    if (!locked) throw new AppError('DOCUMENT_NOT_FOUND');
    await queries.deleteDocument(tx, documentId);
  });
}

export async function versionsOf(
  ctx: ServiceContext,
  reservationId: string,
  documentId: string,
): Promise<DocumentVersionView[]> {
  await requireDocument(ctx, reservationId, documentId);
  return queries.listVersionsOf(ctx.db, documentId);
}

export interface DocumentContent {
  fileName: string;
  contentType: string;
  byteSize: number;
  /** The bytes, read chunk by chunk as the answer is sent. */
  stream: Readable;
}

/**
 * A version's bytes (the current one unless `number` says): for a download, any file; for a
 * preview, only a PDF or image judged previewable (409 otherwise: download it).
 */
export async function openContent(
  ctx: ServiceContext,
  reservationId: string,
  documentId: string,
  options: { number?: number; purpose: 'download' | 'preview' },
): Promise<DocumentContent> {
  const document = await requireDocument(ctx, reservationId, documentId);
  const version = await queries.findVersion(ctx.db, documentId, options.number ?? document.current.number);
  if (!version) throw new AppError('DOCUMENT_NOT_FOUND');
  if (options.purpose === 'preview' && !version.isPreviewable) throw new AppError('DOCUMENT_NOT_PREVIEWABLE');
  const db = ctx.db;
  async function* chunks() {
    for (let seq = 0; seq < version!.chunks; seq++) {
      const bytes = await queries.findChunk(db, version!.id, seq);
      if (!bytes) throw new Error(`document version ${version!.id} lost its chunk ${seq}`);
      yield bytes;
    }
  }
  return {
    fileName: version.fileName,
    contentType: version.contentType,
    byteSize: version.byteSize,
    stream: Readable.from(chunks(), { objectMode: false }),
  };
}

// --- For the workflow service: the checklist ------------------------------------------------------

/**
 * The first document a reservation lacks for completing one of these workflow tasks (their
 * definitions' ids), by the types' order; null when nothing is missing. Read in the caller's
 * transaction, under the flow's lock.
 */
export async function missingDocumentIn(
  tx: Executor,
  reservationId: string,
  workflowTaskIds: readonly string[],
): Promise<string | null> {
  const missing = await queries.listMissingRequirements(tx, reservationId, workflowTaskIds);
  return missing[0]?.typeName ?? null;
}

// --- Configuración → Documentos --------------------------------------------------------------------

/**
 * A suppression (Ley 21.719, decision 0027) keeps the holder's papers — the sale's legal record, as
 * its figures are — but rewrites every document name and file name that names them, as it does
 * comments ('[titular suprimido]'), in the suppression's transaction. Returns how many it changed.
 */
export async function redactNamesIn(
  tx: Executor,
  reservationIds: readonly string[],
  holderNeedles: readonly string[],
): Promise<number> {
  if (reservationIds.length === 0) return 0;
  let changed = 0;
  for (const row of await queries.listNamesOfReservations(tx, reservationIds)) {
    const redacted = redactText(row.name, holderNeedles);
    if (!redacted.changed) continue;
    await queries.updateRedactedName(tx, row.kind, row.id, redacted.text);
    changed += 1;
  }
  return changed;
}

export async function listTypes(ctx: ServiceContext): Promise<DocumentTypes> {
  const [types, tasks] = await Promise.all([queries.listTypes(ctx.db), queries.listWorkflowTasks(ctx.db)]);
  return { types, tasks, canManage: can(ctx.user, 'documentTypes.manage') };
}

function requireTypeManager(ctx: ServiceContext) {
  if (!can(ctx.user, 'documentTypes.manage')) throw new AppError('FORBIDDEN');
}

async function checkTypeBody(tx: Executor, body: z.output<typeof documentTypeBody>, exceptId: string | null) {
  if (await queries.isTypeNameTaken(tx, body.name, exceptId)) throw new AppError('DOCUMENT_TYPE_NAME_TAKEN');
  const taskIds = [...new Set(body.requiredByTaskIds)];
  if ((await queries.countExistingTasks(tx, taskIds)) !== taskIds.length)
    throw new AppError('TASK_NOT_FOUND');
}

export async function createType(
  ctx: ServiceContext,
  body: z.output<typeof documentTypeBody>,
): Promise<DocumentTypeView> {
  requireTypeManager(ctx);
  const id = await ctx.db.transaction(async (tx) => {
    await checkTypeBody(tx, body, null);
    const created = await queries.insertType(tx, { ...body, userId: ctx.user.id });
    await queries.replaceRequirements(tx, created, body.requiredByTaskIds);
    return created;
  });
  return (await queries.findType(ctx.db, id))!;
}

export async function updateType(
  ctx: ServiceContext,
  id: string,
  body: z.output<typeof documentTypeBody>,
): Promise<DocumentTypeView> {
  requireTypeManager(ctx);
  if (body.version === undefined) throw new AppError('STALE_VERSION');
  await ctx.db.transaction(async (tx) => {
    if (!(await queries.findTypeAccess(tx, id))) throw new AppError('DOCUMENT_TYPE_NOT_FOUND');
    await checkTypeBody(tx, body, id);
    if (!(await queries.updateType(tx, id, body.version!, { ...body, userId: ctx.user.id }))) {
      throw new AppError('STALE_VERSION');
    }
    await queries.replaceRequirements(tx, id, body.requiredByTaskIds);
  });
  return (await queries.findType(ctx.db, id))!;
}

export async function removeType(ctx: ServiceContext, id: string): Promise<void> {
  requireTypeManager(ctx);
  await ctx.db.transaction(async (tx) => {
    const type = await queries.findType(tx, id);
    if (!type) throw new AppError('DOCUMENT_TYPE_NOT_FOUND');
    if (type.documentCount > 0) throw new AppError('DOCUMENT_TYPE_IN_USE');
    await queries.deleteType(tx, id);
  });
}
