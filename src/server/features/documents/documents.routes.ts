import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  documentContentQuery,
  documentListQuery,
  documentListResponse,
  documentParams,
  documentRenameBody,
  documentResponse,
  documentTypeBody,
  documentTypeParams,
  documentTypeResponse,
  documentTypesResponse,
  documentUploadQuery,
  documentVersionQuery,
  documentVersionsResponse,
  reservationParams,
} from '../../../shared/schemas/documents';
import { contentDisposition, sendPdf } from '../../http/content-disposition';
import { serviceContext } from '../../http/context';
import * as audit from '../audit/audit.service';
import * as documents from './documents.service';
import * as pdfs from './pdfs.service';
import { acceptDocumentBodies } from './upload';

/**
 * A download is never run by the browser: saved as a file, its type not second-guessed, and any
 * page it is still opened as gets no scripts, forms or plugins and reaches nothing.
 */
const DOWNLOAD_CSP = "default-src 'none'; sandbox";

/**
 * A preview (a PDF or an image the server judged) is shown inline in the panel's sandboxed frame:
 * sandboxed again by its own policy, allowed to be framed by our pages only.
 */
const PREVIEW_CSP =
  "sandbox; default-src 'none'; img-src 'self' data: blob:; style-src 'unsafe-inline'; object-src 'self'; frame-ancestors 'self'";

function sendFile(
  reply: FastifyReply,
  file: { fileName: string; contentType: string; byteSize: number; stream: NodeJS.ReadableStream },
  purpose: 'download' | 'preview',
) {
  reply
    .header('Content-Type', file.contentType)
    .header('Content-Length', String(file.byteSize))
    .header('X-Content-Type-Options', 'nosniff')
    .header(
      'Content-Disposition',
      contentDisposition(purpose === 'preview' ? 'inline' : 'attachment', file.fileName),
    )
    .header('Content-Security-Policy', purpose === 'preview' ? PREVIEW_CSP : DOWNLOAD_CSP)
    .header('Cache-Control', 'private, no-store');
  if (purpose === 'preview') reply.header('X-Frame-Options', 'SAMEORIGIN');
  return reply.send(file.stream);
}

/** /api/reservations/:id/documents…, and the reservation's own PDFs. */
export const documentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['documents'];
  acceptDocumentBodies(app);

  app.get(
    '/:id/documents',
    {
      config: { access: { policy: 'documents.read' } },
      schema: {
        tags,
        params: reservationParams,
        querystring: documentListQuery,
        response: { 200: documentListResponse },
      },
    },
    async (request) => documents.listOf(serviceContext(request), request.params.id, request.query.typeId),
  );
  app.post(
    '/:id/documents',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        params: reservationParams,
        querystring: documentUploadQuery,
        response: { 201: documentResponse },
      },
    },
    async (request, reply) => {
      const document = await documents.upload(
        serviceContext(request),
        request.params.id,
        request.query,
        request,
      );
      return reply.status(201).send({ document });
    },
  );
  app.patch(
    '/:id/documents/:documentId',
    {
      config: { access: 'staff' },
      schema: { tags, params: documentParams, body: documentRenameBody, response: { 200: documentResponse } },
    },
    async (request) => ({
      document: await documents.rename(
        serviceContext(request),
        request.params.id,
        request.params.documentId,
        request.body,
      ),
    }),
  );
  app.delete(
    '/:id/documents/:documentId',
    {
      config: { access: { action: 'documents.delete', refusal: 'DOCUMENT_DELETE_ADMIN_ONLY' } },
      schema: { tags, params: documentParams, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await documents.remove(serviceContext(request), request.params.id, request.params.documentId);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/:id/documents/:documentId/versions',
    {
      config: { access: { policy: 'documents.read' } },
      schema: { tags, params: documentParams, response: { 200: documentVersionsResponse } },
    },
    async (request) => ({
      versions: await documents.versionsOf(
        serviceContext(request),
        request.params.id,
        request.params.documentId,
      ),
    }),
  );
  app.post(
    '/:id/documents/:documentId/versions',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        params: documentParams,
        querystring: documentVersionQuery,
        response: { 201: documentResponse },
      },
    },
    async (request, reply) => {
      const document = await documents.addVersion(
        serviceContext(request),
        request.params.id,
        request.params.documentId,
        request.query,
        request,
      );
      return reply.status(201).send({ document });
    },
  );
  for (const purpose of ['download', 'preview'] as const) {
    app.get(
      `/:id/documents/:documentId/${purpose}`,
      {
        config: { access: { policy: 'documents.read' } },
        schema: { tags, params: documentParams, querystring: documentContentQuery },
      },
      async (request, reply) => {
        const ctx = serviceContext(request);
        const file = await documents.openContent(ctx, request.params.id, request.params.documentId, {
          number: request.query.version,
          purpose,
        });
        // A paper of a person's sale leaving the system: in Auditoría (issue 54).
        await audit.recordExport(ctx, {
          name: 'documento',
          title: file.fileName,
          format: purpose === 'download' ? 'descarga' : 'vista previa',
          rows: 1,
          filters: {
            reserva: request.params.id,
            documento: request.params.documentId,
            version: request.query.version,
          },
        });
        return sendFile(reply, file, purpose);
      },
    );
  }

  // The product's own PDFs, made on demand from the reservation's data (the same data, the same bytes).
  app.get(
    '/:id/receipt.pdf',
    { config: { access: 'staff', heavy: 'pdf' }, schema: { tags, params: reservationParams } },
    async (request, reply) => {
      const pdf = await pdfs.reservationReceipt(serviceContext(request), request.params.id);
      return sendPdf(reply, pdf);
    },
  );
  app.get(
    '/:id/commission-statement.pdf',
    {
      config: { access: { policy: 'documents.read' }, heavy: 'pdf' },
      schema: { tags, params: reservationParams },
    },
    async (request, reply) => {
      const pdf = await pdfs.commissionStatement(serviceContext(request), request.params.id);
      return sendPdf(reply, pdf);
    },
  );
};

/** /api/document-types: Configuración → Documentos. */
export const documentTypesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['documents'];
  app.get(
    '/',
    { config: { access: 'staff' }, schema: { tags, response: { 200: documentTypesResponse } } },
    async (request) => documents.listTypes(serviceContext(request)),
  );
  app.post(
    '/',
    {
      config: { access: { action: 'documentTypes.manage' } },
      schema: { tags, body: documentTypeBody, response: { 201: documentTypeResponse } },
    },
    async (request, reply) => {
      const type = await documents.createType(serviceContext(request), request.body);
      return reply.status(201).send({ type });
    },
  );
  app.put(
    '/:id',
    {
      config: { access: { action: 'documentTypes.manage' } },
      schema: {
        tags,
        params: documentTypeParams,
        body: documentTypeBody,
        response: { 200: documentTypeResponse },
      },
    },
    async (request) => ({
      type: await documents.updateType(serviceContext(request), request.params.id, request.body),
    }),
  );
  app.delete(
    '/:id',
    {
      config: { access: { action: 'documentTypes.manage' } },
      schema: { tags, params: documentTypeParams, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await documents.removeType(serviceContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
