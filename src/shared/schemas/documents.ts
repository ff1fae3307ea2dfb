import { z } from 'zod';
import { requiredText, uuid } from './common';

/**
 * Documents (issue 35, decision 0037): each reservation's papers, with their versions; the types
 * (Configuración → Documentos) with who may see them and the tasks that require them.
 */

/** The largest file taken: 20 MB (a scanned deed of a few dozen pages fits). */
export const DOCUMENT_MAX_BYTES = 20 * 1024 * 1024;

/** What the file picker offers (the server judges the bytes, whatever the name says). */
export const DOCUMENT_ACCEPT = '.pdf,.png,.jpg,.jpeg,.gif,.webp,.doc,.docx,.xls,.xlsx';

/** Under /api/reservations/:id (the reservation's id, as its other routes name it). */
export const reservationParams = z.strictObject({ id: uuid() });
export const documentParams = z.strictObject({ id: uuid(), documentId: uuid() });

/** GET …/documents?typeId=…: one type's documents only (403 for a type the user may not see). */
export const documentListQuery = z.strictObject({ typeId: uuid().optional() });

/** GET …/download or …/preview, of the current version unless `version` names another. */
export const documentContentQuery = z.strictObject({
  version: z.coerce.number().int().min(1).max(100_000).optional(),
});

const fileName = requiredText('Indique el nombre del archivo', 200);

/** POST /api/reservations/:id/documents?typeId=…&fileName=… with the file's bytes as the body. */
export const documentUploadQuery = z.strictObject({
  typeId: uuid('Seleccione el tipo de documento'),
  fileName,
});

/** PUT …/documents/:documentId/versions?fileName=… with the new version's bytes as the body. */
export const documentVersionQuery = z.strictObject({
  fileName,
  /** The document's version the user read (a replacement meanwhile: 409). */
  version: z.coerce.number().int().min(1),
});

/** PATCH …/documents/:documentId: 'Renombrar'. */
export const documentRenameBody = z.strictObject({
  name: requiredText('Indique el nombre del documento', 200),
  version: z.number().int().min(1),
});

export const documentVersionView = z.object({
  number: z.number().int(),
  fileName: z.string(),
  contentType: z.string(),
  byteSize: z.number().int(),
  isPreviewable: z.boolean(),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
});
export type DocumentVersionView = z.infer<typeof documentVersionView>;

export const documentView = z.object({
  id: z.string(),
  reservationId: z.string(),
  typeId: z.string(),
  typeName: z.string(),
  typeIsRestricted: z.boolean(),
  name: z.string(),
  /** The newest version: what is previewed and downloaded. */
  current: documentVersionView,
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  version: z.number().int(),
});
export type DocumentView = z.infer<typeof documentView>;

/** A type in the upload's select and in Configuración. */
export const documentTypeView = z.object({
  id: z.string(),
  name: z.string(),
  isRestricted: z.boolean(),
  sortOrder: z.number().int(),
  /** The workflow tasks that cannot be completed without a document of this type. */
  requiredBy: z.array(z.object({ taskId: z.string(), taskName: z.string(), workflowName: z.string() })),
  documentCount: z.number().int(),
  version: z.number().int(),
});
export type DocumentTypeView = z.infer<typeof documentTypeView>;

export const documentListResponse = z.object({
  reservation: z.object({
    id: z.string(),
    reservationNumber: z.string(),
    clientName: z.string(),
    projectName: z.string(),
    apartmentNumber: z.string(),
    hasCommission: z.boolean(),
    saleFlowId: z.string().nullable(),
  }),
  documents: z.array(documentView),
  /** The types this user may upload and see. */
  types: z.array(documentTypeView),
  /** Types some task of this reservation's flows requires and the reservation lacks. */
  missing: z.array(z.object({ typeName: z.string(), taskName: z.string() })),
  canDelete: z.boolean(),
});
export type DocumentList = z.infer<typeof documentListResponse>;

export const documentResponse = z.object({ document: documentView });
export const documentVersionsResponse = z.object({ versions: z.array(documentVersionView) });

export const documentTypesResponse = z.object({
  types: z.array(documentTypeView),
  /** Every task of the three workflows, to pick the ones that require a type. */
  tasks: z.array(z.object({ id: z.string(), name: z.string(), workflowName: z.string() })),
  canManage: z.boolean(),
});
export type DocumentTypes = z.infer<typeof documentTypesResponse>;

export const documentTypeBody = z.strictObject({
  name: requiredText('Indique el nombre del tipo de documento', 80),
  isRestricted: z.boolean(),
  sortOrder: z.number().int().min(0).max(10_000).default(0),
  requiredByTaskIds: z.array(uuid()).max(200).default([]),
  /** Absent on creation; the version read on an edit. */
  version: z.number().int().min(1).optional(),
});
export const documentTypeParams = z.strictObject({ id: uuid() });
export const documentTypeResponse = z.object({ type: documentTypeView });
