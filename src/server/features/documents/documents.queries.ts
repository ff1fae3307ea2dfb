import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DocumentTypeView, DocumentVersionView, DocumentView } from '../../../shared/schemas/documents';
import { type Executor, isoInstant, queryRows } from '../../db/client';
import { documents, documentTypeRequirements, documentTypes, documentVersions } from '../../db/schema';

// Rows checked outside production (decisions 0036, 0067).
const chunkRow = z.object({ bytes: z.string() });
const takenRow = z.object({ taken: z.boolean() });
const workflowTaskRow = z.object({ id: z.string(), name: z.string(), workflowName: z.string() });
const countRow = z.object({ n: z.number().int() });
const missingOfReservationRow = z.object({ typeName: z.string(), taskName: z.string() });

/** Documents, their versions and chunks, and the document types (decision 0037). */

const personName = (alias: string) =>
  sql.raw(`(select p.first_name || ' ' || p.last_name from profiles p where p.id = ${alias})`);

// --- Documents ---

export interface ReservationHeader {
  id: string;
  reservationNumber: string;
  clientName: string;
  projectName: string;
  apartmentNumber: string;
  hasCommission: boolean;
  saleFlowId: string | null;
}

/** What the panel's title says of its reservation, or null when there is none. */
export async function findReservationHeader(
  db: Executor,
  reservationId: string,
): Promise<ReservationHeader | null> {
  const [row] = await queryRows<ReservationHeader>(
    db,
    sql`select r.id, r.reservation_number as "reservationNumber",
               c.first_name || ' ' || c.last_name as "clientName", p.name as "projectName",
               r.apartment_number as "apartmentNumber",
               exists(select 1 from broker_commissions bc where bc.reservation_id = r.id) as "hasCommission",
               (select f.id from flows f where f.reservation_id = r.id and f.kind = 'sale' limit 1) as "saleFlowId"
          from reservations r join clients c on c.id = r.client_id join projects p on p.id = r.project_id
         where r.id = ${reservationId}`,
  );
  return row ?? null;
}

const documentRowSql = (where: ReturnType<typeof sql>) => sql`
  select d.id, d.reservation_id as "reservationId", t.id as "typeId", t.name as "typeName",
         t.is_restricted as "typeIsRestricted", d.name, d.version,
         ${isoInstant(sql`d.created_at`)} as "createdAt", ${personName('d.created_by')} as "createdByName",
         json_build_object(
           'number', v.number, 'fileName', v.file_name, 'contentType', v.content_type,
           'byteSize', v.byte_size, 'isPreviewable', v.is_previewable,
           'createdAt', ${isoInstant(sql`v.created_at`)}, 'createdByName', ${personName('v.created_by')}
         ) as current
    from documents d
    join document_types t on t.id = d.document_type_id
    join document_versions v on v.document_id = d.id and v.number = d.current_version
   where ${where}
   order by t.sort_order, t.name, d.created_at, d.id`;

/** The documents of a reservation, with their newest version, types in their order. */
export function listDocumentsOf(db: Executor, reservationId: string): Promise<DocumentView[]> {
  return queryRows<DocumentView>(db, documentRowSql(sql`d.reservation_id = ${reservationId}`));
}

export async function findDocument(
  db: Executor,
  reservationId: string,
  documentId: string,
): Promise<DocumentView | null> {
  const [row] = await queryRows<DocumentView>(
    db,
    documentRowSql(sql`d.reservation_id = ${reservationId} and d.id = ${documentId}`),
  );
  return row ?? null;
}

const lockedDocument = z.object({ id: z.string(), version: z.number(), currentVersion: z.number() });

/** The document's row under FOR UPDATE (a new version, a rename, a deletion). */
export async function lockDocument(
  tx: Executor,
  reservationId: string,
  documentId: string,
): Promise<z.infer<typeof lockedDocument> | null> {
  const [row] = await queryRows(
    tx,
    sql`select id, version, current_version as "currentVersion" from documents
         where id = ${documentId} and reservation_id = ${reservationId} for update`,
    lockedDocument,
  );
  return row ?? null;
}

export async function insertDocument(
  tx: Executor,
  input: { reservationId: string; documentTypeId: string; name: string; userId: string },
): Promise<string> {
  const [row] = await tx
    .insert(documents)
    .values({
      reservationId: input.reservationId,
      documentTypeId: input.documentTypeId,
      name: input.name,
      createdBy: input.userId,
      updatedBy: input.userId,
    })
    .returning({ id: documents.id });
  return row!.id;
}

export async function updateDocumentName(tx: Executor, documentId: string, name: string, userId: string) {
  await tx
    .update(documents)
    .set({ name, updatedBy: userId, updatedAt: sql`now()`, version: sql`${documents.version} + 1` })
    .where(eq(documents.id, documentId));
}

export async function updateDocumentCurrentVersion(
  tx: Executor,
  documentId: string,
  currentVersion: number,
  userId: string,
) {
  await tx
    .update(documents)
    .set({ currentVersion, updatedBy: userId, updatedAt: sql`now()`, version: sql`${documents.version} + 1` })
    .where(eq(documents.id, documentId));
}

export async function deleteDocument(tx: Executor, documentId: string) {
  await tx.delete(documents).where(eq(documents.id, documentId));
}

/** The names a suppression reads: each document's and each of its versions' file name. */
export function listNamesOfReservations(tx: Executor, reservationIds: readonly string[]) {
  return queryRows(
    tx,
    sql`select 'document' as kind, d.id, d.name from documents d
         where d.reservation_id in (${sql.join(
           reservationIds.map((id) => sql`${id}::uuid`),
           sql`, `,
         )})
        union all
        select 'version' as kind, v.id, v.file_name as name from document_versions v
          join documents d on d.id = v.document_id
         where d.reservation_id in (${sql.join(
           reservationIds.map((id) => sql`${id}::uuid`),
           sql`, `,
         )})`,
    z.object({ kind: z.enum(['document', 'version']), id: z.string(), name: z.string() }),
  );
}

/** A suppression's rewrite of a name: no new version of the document, its audit row is redacted after. */
export async function updateRedactedName(
  tx: Executor,
  kind: 'document' | 'version',
  id: string,
  name: string,
) {
  if (kind === 'document') await tx.update(documents).set({ name }).where(eq(documents.id, id));
  else await tx.update(documentVersions).set({ fileName: name }).where(eq(documentVersions.id, id));
}

// --- Versions and their bytes --------------------------------------------------------------------

export interface NewVersion {
  documentId: string;
  number: number;
  fileName: string;
  contentType: string;
  byteSize: number;
  sha256: string;
  isPreviewable: boolean;
  userId: string;
}

export async function insertVersion(tx: Executor, version: NewVersion): Promise<string> {
  const { userId, ...values } = version;
  const [row] = await tx
    .insert(documentVersions)
    .values({ ...values, createdBy: userId })
    .returning({ id: documentVersions.id });
  return row!.id;
}

/**
 * One chunk's bytes travel as base64 text, decoded by the database: the embedded database's driver
 * turns a binary parameter into text byte by byte in JavaScript (20 MB: ~10 s to write, ~5 s to
 * read), base64 is native on both sides (~1 s and ~0.3 s). PostgreSQL's driver is as fast either way.
 */
export async function insertChunk(tx: Executor, versionId: string, seq: number, bytes: Buffer) {
  await tx.execute(
    sql`insert into document_chunks (version_id, seq, bytes)
        values (${versionId}, ${seq}, decode(${bytes.toString('base64')}, 'base64'))`,
  );
}

export function listVersionsOf(db: Executor, documentId: string): Promise<DocumentVersionView[]> {
  return queryRows<DocumentVersionView>(
    db,
    sql`select v.number, v.file_name as "fileName", v.content_type as "contentType", v.byte_size as "byteSize",
               v.is_previewable as "isPreviewable", ${isoInstant(sql`v.created_at`)} as "createdAt",
               ${personName('v.created_by')} as "createdByName"
          from document_versions v where v.document_id = ${documentId} order by v.number desc`,
  );
}

const storedVersion = z.object({
  id: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  byteSize: z.number(),
  isPreviewable: z.boolean(),
  chunks: z.number(),
});
export type StoredVersion = z.infer<typeof storedVersion>;

/** A version's facts and how many chunks hold its bytes. */
export async function findVersion(
  db: Executor,
  documentId: string,
  number: number,
): Promise<StoredVersion | null> {
  const [row] = await queryRows(
    db,
    sql`select v.id, v.file_name as "fileName", v.content_type as "contentType", v.byte_size as "byteSize",
               v.is_previewable as "isPreviewable",
               (select count(*)::int from document_chunks c where c.version_id = v.id) as chunks
          from document_versions v where v.document_id = ${documentId} and v.number = ${number}`,
    storedVersion,
  );
  return row ?? null;
}

/** One chunk's bytes (null when the version was deleted meanwhile); base64 on the way, as written. */
export async function findChunk(db: Executor, versionId: string, seq: number): Promise<Buffer | null> {
  const [row] = await queryRows(
    db,
    sql`select encode(bytes, 'base64') as bytes from document_chunks where version_id = ${versionId} and seq = ${seq}`,
    chunkRow,
  );
  return row ? Buffer.from(row.bytes, 'base64') : null;
}

// --- Types and requirements ----------------------------------------------------------------------

const typeRowSql = (where: ReturnType<typeof sql>) => sql`
  select t.id, t.name, t.is_restricted as "isRestricted", t.sort_order as "sortOrder", t.version,
         coalesce((select json_agg(json_build_object('taskId', wt.id, 'taskName', wt.name, 'workflowName', w.name)
                                   order by w.name, s.sort_order, wt.sort_order)
                     from document_type_requirements r
                     join workflow_tasks wt on wt.id = r.workflow_task_id
                     join workflow_stages s on s.id = wt.stage_id
                     join workflows w on w.id = s.workflow_id
                    where r.document_type_id = t.id), '[]'::json) as "requiredBy",
         (select count(*)::int from documents d where d.document_type_id = t.id) as "documentCount"
    from document_types t
   where ${where}
   order by t.sort_order, t.name`;

export function listTypes(db: Executor): Promise<DocumentTypeView[]> {
  return queryRows<DocumentTypeView>(db, typeRowSql(sql`true`));
}

export async function findType(db: Executor, id: string): Promise<DocumentTypeView | null> {
  const [row] = await queryRows<DocumentTypeView>(db, typeRowSql(sql`t.id = ${id}`));
  return row ?? null;
}

const typeAccess = z.object({ id: z.string(), name: z.string(), isRestricted: z.boolean() });

/** A type's name and visibility (what a permission check needs). */
export async function findTypeAccess(db: Executor, id: string): Promise<z.infer<typeof typeAccess> | null> {
  const [row] = await queryRows(
    db,
    sql`select id, name, is_restricted as "isRestricted" from document_types where id = ${id}`,
    typeAccess,
  );
  return row ?? null;
}

export async function isTypeNameTaken(db: Executor, name: string, exceptId: string | null): Promise<boolean> {
  const [row] = await queryRows(
    db,
    sql`select exists(select 1 from document_types where lower(name) = lower(${name})
                        and (${exceptId}::uuid is null or id <> ${exceptId}::uuid)) as taken`,
    takenRow,
  );
  return row?.taken ?? false;
}

export async function insertType(
  tx: Executor,
  input: { name: string; isRestricted: boolean; sortOrder: number; userId: string },
): Promise<string> {
  const [row] = await tx
    .insert(documentTypes)
    .values({
      name: input.name,
      isRestricted: input.isRestricted,
      sortOrder: input.sortOrder,
      createdBy: input.userId,
      updatedBy: input.userId,
    })
    .returning({ id: documentTypes.id });
  return row!.id;
}

/** Updates a type at the version read; false when it changed meanwhile (or is gone). */
export async function updateType(
  tx: Executor,
  id: string,
  version: number,
  input: { name: string; isRestricted: boolean; sortOrder: number; userId: string },
): Promise<boolean> {
  const rows = await tx
    .update(documentTypes)
    .set({
      name: input.name,
      isRestricted: input.isRestricted,
      sortOrder: input.sortOrder,
      updatedBy: input.userId,
      updatedAt: sql`now()`,
      version: sql`${documentTypes.version} + 1`,
    })
    .where(and(eq(documentTypes.id, id), eq(documentTypes.version, version)))
    .returning({ id: documentTypes.id });
  return rows.length === 1;
}

export async function deleteType(tx: Executor, id: string) {
  await tx.delete(documentTypes).where(eq(documentTypes.id, id));
}

/** Sets the tasks that require the type: removes the others, adds the new ones (the log sees each). */
export async function replaceRequirements(tx: Executor, typeId: string, taskIds: readonly string[]) {
  const wanted = [...new Set(taskIds)];
  await tx.execute(
    sql`delete from document_type_requirements
         where document_type_id = ${typeId} and not (workflow_task_id = any(${`{${wanted.join(',')}}`}::uuid[]))`,
  );
  if (wanted.length > 0) {
    await tx
      .insert(documentTypeRequirements)
      .values(wanted.map((workflowTaskId) => ({ documentTypeId: typeId, workflowTaskId })))
      .onConflictDoNothing();
  }
}

/** The tasks of the three workflows (not retired), for the requirements' picker. */
export function listWorkflowTasks(db: Executor) {
  return queryRows(
    db,
    sql`select t.id, t.name, w.name as "workflowName"
          from workflow_tasks t join workflow_stages s on s.id = t.stage_id join workflows w on w.id = s.workflow_id
         where not t.is_retired
         order by w.kind desc, w.name, s.sort_order, t.sort_order`,
    workflowTaskRow,
  );
}

export async function countExistingTasks(db: Executor, taskIds: readonly string[]): Promise<number> {
  if (taskIds.length === 0) return 0;
  const [row] = await queryRows(
    db,
    sql`select count(*)::int as n from workflow_tasks where id = any(${`{${taskIds.join(',')}}`}::uuid[])`,
    countRow,
  );
  return row?.n ?? 0;
}

const missingRequirement = z.object({ taskId: z.string(), typeName: z.string() });

/**
 * Of these workflow tasks, the ones whose required document type the reservation has no document
 * of, with that type's name (first by the types' order): what completing them would lack.
 */
export function listMissingRequirements(
  db: Executor,
  reservationId: string,
  taskIds: readonly string[],
): Promise<z.infer<typeof missingRequirement>[]> {
  if (taskIds.length === 0) return Promise.resolve([]);
  return queryRows(
    db,
    sql`select r.workflow_task_id as "taskId", t.name as "typeName"
          from document_type_requirements r
          join document_types t on t.id = r.document_type_id
         where r.workflow_task_id = any(${`{${taskIds.join(',')}}`}::uuid[])
           and not exists (select 1 from documents d
                            where d.reservation_id = ${reservationId} and d.document_type_id = t.id)
         order by t.sort_order, t.name`,
    missingRequirement,
  );
}

/** For the panel: the required types a reservation lacks, with a task of its flows that requires each. */
export function listMissingOfReservation(db: Executor, reservationId: string) {
  return queryRows(
    db,
    sql`select distinct on (t.sort_order, t.name, wt.name) t.name as "typeName", wt.name as "taskName"
          from flows f
          join flow_tasks ft on ft.flow_id = f.id and ft.status <> 'completed'
          join document_type_requirements r on r.workflow_task_id = ft.task_id
          join document_types t on t.id = r.document_type_id
          join workflow_tasks wt on wt.id = ft.task_id
         where f.reservation_id = ${reservationId} and f.status <> 'cancelled'
           and not exists (select 1 from documents d
                            where d.reservation_id = ${reservationId} and d.document_type_id = t.id)
         order by t.sort_order, t.name, wt.name`,
    missingOfReservationRow,
  );
}
