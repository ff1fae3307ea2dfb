import { Readable } from 'node:stream';
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
import { bankFilePieces } from './bank-file';
import * as paymentBatches from './payment-batches.service';

/** The lines as they pass, counted into the export's audit record once all are written. */
async function* countedLines<T>(
  chunks: AsyncIterable<readonly T[]>,
  record: (rows: number) => Promise<void>,
): AsyncGenerator<readonly T[]> {
  let rows = 0;
  for await (const chunk of chunks) {
    rows += chunk.length;
    yield chunk;
  }
  await record(rows);
}

/**
 * /api/payment-batches: 'Nómina de pago' (issue 33) — the payments ready, the batches, one batch,
 * its bank file (CSV or XLSX), marking it paid, cancelling it. The payments team and administrators.
 */
export const paymentBatchesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['payment-batches'];
  app.get(
    '/candidates',
    {
      config: { access: { action: 'paymentBatches.manage', refusal: 'PAYMENT_BATCH_FORBIDDEN' } },
      schema: { tags, response: { 200: batchCandidates } },
    },
    async (request) => paymentBatches.listCandidates(serviceContext(request)),
  );

  app.get(
    '/settings',
    {
      config: { access: { action: 'paymentBatches.manage', refusal: 'PAYMENT_BATCH_FORBIDDEN' } },
      schema: { tags, response: { 200: paymentSettingsAnswer } },
    },
    async (request) => ({
      settings: await paymentBatches.getSettings(serviceContext(request)),
    }),
  );

  app.put(
    '/settings',
    {
      config: { access: { action: 'paymentSettings.manage', refusal: 'PAYMENT_SETTINGS_FORBIDDEN' } },
      schema: { tags, body: paymentSettingsBody, response: { 200: paymentSettingsAnswer } },
    },
    async (request) => ({
      settings: await paymentBatches.updateSettings(serviceContext(request), request.body),
    }),
  );

  app.get(
    '/',
    {
      config: { access: { action: 'paymentBatches.manage', refusal: 'PAYMENT_BATCH_FORBIDDEN' } },
      schema: { tags, querystring: paymentBatchListQuery, response: { 200: paymentBatchPage } },
    },
    async (request) => paymentBatches.list(serviceContext(request), request.query),
  );

  app.post(
    '/',
    {
      config: { access: { action: 'paymentBatches.manage', refusal: 'PAYMENT_BATCH_FORBIDDEN' } },
      schema: { tags, body: paymentBatchCreateBody, response: { 201: paymentBatchAnswer } },
    },
    async (request, reply) => {
      reply.code(201);
      return { batch: await paymentBatches.create(serviceContext(request), request.body.flowIds) };
    },
  );

  app.get(
    '/:id',
    {
      config: { access: { action: 'paymentBatches.manage', refusal: 'PAYMENT_BATCH_FORBIDDEN' } },
      schema: { tags, params: idParams, response: { 200: paymentBatchAnswer } },
    },
    async (request) => ({ batch: await paymentBatches.get(serviceContext(request), request.params.id) }),
  );

  app.get(
    '/:id/export',
    {
      config: {
        access: { action: 'paymentBatches.manage', refusal: 'PAYMENT_BATCH_FORBIDDEN' },
        heavy: 'export',
      },
      schema: { tags, params: idParams, querystring: paymentBatchExportQuery },
    },
    async (request, reply) => {
      const ctx = serviceContext(request);
      const { format } = request.query;
      const exported = await paymentBatches.exportLines(ctx, request.params.id);
      if (format === 'bank') {
        const record = audit.exportRecorder(ctx, {
          fileName: exported.fileName,
          format: 'csv',
          filters: { batchId: request.params.id, layout: exported.layout.name },
        });
        const fileName = `${exported.fileName}.txt`;
        reply
          .type(
            `text/plain; charset=${exported.layout.encoding === 'windows-1252' ? 'windows-1252' : 'utf-8'}`,
          )
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('cache-control', 'no-store');
        return reply.send(
          Readable.from(bankFilePieces(exported.layout, countedLines(exported.chunks, record)), {
            objectMode: false,
          }),
        );
      }
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
    {
      config: { access: { action: 'paymentBatches.manage', refusal: 'PAYMENT_BATCH_FORBIDDEN' } },
      schema: { tags, params: idParams, body: paymentBatchPaidBody, response: { 200: paymentBatchAnswer } },
    },
    async (request) => ({
      batch: await paymentBatches.markPaid(serviceContext(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/:id/cancel',
    {
      config: { access: { action: 'paymentBatches.manage', refusal: 'PAYMENT_BATCH_FORBIDDEN' } },
      schema: { tags, params: idParams, body: paymentBatchCancelBody, response: { 200: paymentBatchAnswer } },
    },
    async (request) => ({
      batch: await paymentBatches.cancel(serviceContext(request), request.params.id, request.body.version),
    }),
  );
};
