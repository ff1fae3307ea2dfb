import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  applyBody,
  dryRunBody,
  dryRunResult,
  errorsQuery,
  importRunAnswer,
  importRunPage,
  kindParams,
  runParams,
  sheetBody,
  uploadedFile,
  uploadQuery,
} from '../../../shared/schemas/imports';
import { AppError } from '../../http/app-error';
import { contentDisposition } from '../../http/content-disposition';
import { serviceContext } from '../../http/context';
import * as audit from '../audit/audit.service';
import * as imports from './imports.service';

/** The content type the screen sends a file as (its own: the image scopes take octet-stream). */
export const IMPORT_BODY_TYPE = 'application/x-inmoflujo-import';
/** A 200,000-row workbook or CSV fits well within this. */
const IMPORT_MAX_BYTES = 60 * 1024 * 1024;

function send(reply: FastifyReply, download: imports.Download) {
  return reply
    .header('Content-Type', download.contentType)
    .header('Content-Disposition', contentDisposition('attachment', download.fileName))
    .header('X-Content-Type-Options', 'nosniff')
    .send(download.body);
}

/** Configuración → Importar (issue 32): administrators only (checked in the service). */
export const importsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['imports'];
  app.addContentTypeParser(
    IMPORT_BODY_TYPE,
    { parseAs: 'buffer', bodyLimit: IMPORT_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/files',
    {
      config: { access: { action: 'imports.manage' } },
      schema: { tags, querystring: uploadQuery, response: { 201: uploadedFile } },
    },
    async (request, reply) => {
      const body = request.body;
      if (!Buffer.isBuffer(body)) throw new AppError('IMPORT_FILE_EMPTY');
      const file = await imports.upload(
        serviceContext(request),
        request.query.kind,
        request.query.name,
        body,
      );
      return reply.status(201).send(file);
    },
  );

  app.get(
    '/templates/:kind',
    { config: { access: { action: 'imports.manage' } }, schema: { tags, params: kindParams } },
    async (request, reply) =>
      send(reply, await imports.template(serviceContext(request), request.params.kind)),
  );

  app.get(
    '/runs',
    { config: { access: { action: 'imports.manage' } }, schema: { tags, response: { 200: importRunPage } } },
    async (request) => ({
      rows: await imports.listRuns(serviceContext(request)),
    }),
  );

  app.get(
    '/runs/:id',
    {
      config: { access: { action: 'imports.manage' } },
      schema: { tags, params: runParams, response: { 200: importRunAnswer } },
    },
    async (request) => ({
      run: await imports.getRun(serviceContext(request), request.params.id),
    }),
  );

  app.post(
    '/runs/:id/sheet',
    {
      config: { access: { action: 'imports.manage' } },
      schema: { tags, params: runParams, body: sheetBody, response: { 200: uploadedFile } },
    },
    async (request) => imports.chooseSheet(serviceContext(request), request.params.id, request.body),
  );

  app.post(
    '/runs/:id/dry-run',
    {
      config: { access: { action: 'imports.manage' } },
      schema: { tags, params: runParams, body: dryRunBody, response: { 200: dryRunResult } },
    },
    async (request) => imports.dryRun(serviceContext(request), request.params.id, request.body),
  );

  app.get(
    '/runs/:id/errors',
    {
      config: { access: { action: 'imports.manage' }, heavy: 'errors' },
      schema: { tags, params: runParams, querystring: errorsQuery },
    },
    async (request, reply) => {
      const ctx = serviceContext(request);
      const download = await imports.errorsWorkbook(
        ctx,
        request.params.id,
        request.query.headerRow ?? null,
        request.query.repeatedKeys,
      );
      // The uploaded sheet's people leaving the system again: in Auditoría (issue 54).
      await audit.recordExport(ctx, {
        name: 'errores_importacion',
        title: download.fileName,
        format: 'xlsx',
        rows: 0,
        filters: { importacion: request.params.id },
      });
      return send(reply, download);
    },
  );

  app.post(
    '/runs/:id/apply',
    {
      config: { access: { action: 'imports.manage' } },
      schema: { tags, params: runParams, body: applyBody, response: { 202: importRunAnswer } },
    },
    async (request, reply) => {
      const run = await imports.startApply(serviceContext(request), request.params.id, request.body, {
        onFailure: (error) =>
          request.log.error({ err: error, runId: request.params.id }, 'import apply failed'),
      });
      return reply.status(202).send({ run });
    },
  );

  app.post(
    '/runs/:id/cancel',
    {
      config: { access: { action: 'imports.manage' } },
      schema: { tags, params: runParams, response: { 200: importRunAnswer } },
    },
    async (request) => ({ run: await imports.cancel(serviceContext(request), request.params.id) }),
  );

  app.post(
    '/runs/:id/undo',
    {
      config: { access: { action: 'imports.manage' } },
      schema: { tags, params: runParams, response: { 200: importRunAnswer } },
    },
    async (request) => ({ run: await imports.undo(serviceContext(request), request.params.id) }),
  );
};
