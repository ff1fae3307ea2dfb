import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '../../../shared/schemas/common';
import {
  BATCH_FILE_COLUMNS,
  batchCandidates,
  paymentBatchAnswer,
  paymentBatchCancelBody,
  paymentBatchCreateBody,
  paymentBatchExportQuery,
  paymentBatchListQuery,
  paymentBatchPage,
  paymentBatchPaidBody,
  paymentSettingsAnswer,
  paymentSettingsBody,
} from '../../../shared/schemas/payment-batches';
import { sendExport } from '../../exports';
import { serviceContext } from '../../http/context';
import * as audit from '../audit/audit.service';
import * as paymentBatches from './payment-batches.service';

/**
 * /api/payment-batches: 'Nómina de pago' (issue 33) — the payments ready, the batches, one batch,
 * its bank file (CSV or XLSX), marking it paid, cancelling it. The payments team and administrators.
 */
export const paymentBatchesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['payment-batches'];
  app.get('/candidates', { schema: { tags, response: { 200: batchCandidates } } }, async (request) =>
    paymentBatches.listCandidates(serviceContext(request)),
  );

  app.get('/settings', { schema: { tags, response: { 200: paymentSettingsAnswer } } }, async (request) => ({
    settings: await paymentBatches.getSettings(serviceContext(request)),
  }));

  app.put(
    '/settings',
    { schema: { tags, body: paymentSettingsBody, response: { 200: paymentSettingsAnswer } } },
    async (request) => ({
      settings: await paymentBatches.updateSettings(serviceContext(request), request.body),
    }),
  );

  app.get(
    '/',
    { schema: { tags, querystring: paymentBatchListQuery, response: { 200: paymentBatchPage } } },
    async (request) => paymentBatches.list(serviceContext(request), request.query),
  );

  app.post(
    '/',
    { schema: { tags, body: paymentBatchCreateBody, response: { 201: paymentBatchAnswer } } },
    async (request, reply) => {
      reply.code(201);
      return { batch: await paymentBatches.create(serviceContext(request), request.body.flowIds) };
    },
  );

  app.get(
    '/:id',
    { schema: { tags, params: idParams, response: { 200: paymentBatchAnswer } } },
    async (request) => ({ batch: await paymentBatches.get(serviceContext(request), request.params.id) }),
  );

  app.get(
    '/:id/export',
    { schema: { tags, params: idParams, querystring: paymentBatchExportQuery } },
    async (request, reply) => {
      const ctx = serviceContext(request);
      const { format } = request.query;
      const exported = await paymentBatches.exportLines(ctx, request.params.id);
      const record = audit.exportRecorder(ctx, {
        fileName: exported.fileName,
        format,
        filters: { batchId: request.params.id },
      });
      return sendExport(reply, {
        format,
        fileName: exported.fileName,
        sheetName: 'Nómina',
        columns: BATCH_FILE_COLUMNS,
        chunks: exported.chunks,
        record,
      });
    },
  );

  app.post(
    '/:id/paid',
    { schema: { tags, params: idParams, body: paymentBatchPaidBody, response: { 200: paymentBatchAnswer } } },
    async (request) => ({
      batch: await paymentBatches.markPaid(serviceContext(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/:id/cancel',
    {
      schema: { tags, params: idParams, body: paymentBatchCancelBody, response: { 200: paymentBatchAnswer } },
    },
    async (request) => ({
      batch: await paymentBatches.cancel(serviceContext(request), request.params.id, request.body.version),
    }),
  );
};
