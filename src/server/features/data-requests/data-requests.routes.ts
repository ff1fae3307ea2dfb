import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { santiagoDateOf } from '../../../shared/format';
import { idParams } from '../../../shared/schemas/common';
import {
  blockedValuesAnswer,
  dataRequestAnswer,
  dataRequestBody,
  dataRequestListQuery,
  dataRequestPage,
  dataRequestUpdateBody,
  holderExportQuery,
  privacySettingsAnswer,
  privacySettingsBody,
  retentionPage,
  retentionQuery,
  suppressionAnswer,
  suppressionBody,
} from '../../../shared/schemas/data-requests';
import { contentDisposition } from '../../http/content-disposition';
import { serviceContext } from '../../http/context';
import * as audit from '../audit/audit.service';
import * as dataRequests from './data-requests.service';
import { holderData, holderWorkbook } from './holder-export';

/**
 * /api/data-requests: Configuración → 'Solicitudes de titulares' (administrators; decision 0027).
 * `ledgerDir`: where the backups are (embedded database), for the ledger of suppressions (0054);
 * `mailDir`: where the .eml copies of notices are (0055).
 */
export const dataRequestsRoutes: FastifyPluginAsyncZod<{
  ledgerDir: string | null;
  mailDir: string | null;
}> = async (app, { ledgerDir, mailDir }) => {
  const tags = ['data-requests'];

  app.get(
    '/',
    {
      config: { access: { action: 'dataRequests.manage' } },
      schema: { tags, querystring: dataRequestListQuery, response: { 200: dataRequestPage } },
    },
    async (request) => dataRequests.list(serviceContext(request), request.query),
  );

  app.post(
    '/',
    {
      config: { access: { action: 'dataRequests.manage' } },
      schema: { tags, body: dataRequestBody, response: { 201: dataRequestAnswer } },
    },
    async (request, reply) => {
      const created = await dataRequests.create(serviceContext(request), request.body);
      return reply.status(201).send({ request: created });
    },
  );

  app.get(
    '/retention',
    {
      config: { access: { action: 'dataRequests.manage' } },
      schema: { tags, querystring: retentionQuery, response: { 200: retentionPage } },
    },
    async (request) => dataRequests.retention(serviceContext(request), request.query),
  );

  app.get(
    '/settings',
    {
      config: { access: { action: 'dataRequests.manage' } },
      schema: { tags, response: { 200: privacySettingsAnswer } },
    },
    async (request) => ({
      settings: await dataRequests.settings(serviceContext(request)),
    }),
  );

  app.put(
    '/settings',
    {
      config: { access: { action: 'dataRequests.manage' } },
      schema: { tags, body: privacySettingsBody, response: { 200: privacySettingsAnswer } },
    },
    async (request) => ({
      settings: await dataRequests.updateSettings(serviceContext(request), request.body),
    }),
  );

  app.get(
    '/:id',
    {
      config: { access: { action: 'dataRequests.manage' } },
      schema: { tags, params: idParams, response: { 200: dataRequestAnswer } },
    },
    async (request) => ({ request: await dataRequests.get(serviceContext(request), request.params.id) }),
  );

  app.put(
    '/:id',
    {
      config: { access: { action: 'dataRequests.manage' } },
      schema: { tags, params: idParams, body: dataRequestUpdateBody, response: { 200: dataRequestAnswer } },
    },
    async (request) => ({
      request: await dataRequests.update(serviceContext(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/:id/suppress',
    {
      config: { access: { action: 'dataRequests.manage' } },
      schema: { tags, params: idParams, body: suppressionBody, response: { 200: suppressionAnswer } },
    },
    async (request) => {
      const ctx = serviceContext(request);
      return { suppression: await dataRequests.suppress(ctx, request.params.id, { ledgerDir, mailDir }) };
    },
  );

  app.post(
    '/:id/restrict',
    {
      config: { access: { action: 'dataRequests.manage' } },
      schema: { tags, params: idParams, response: { 200: dataRequestAnswer } },
    },
    async (request) => ({ request: await dataRequests.restrict(serviceContext(request), request.params.id) }),
  );

  // The holder's data (access, portability), from the client's record or a request: JSON or XLSX.
  app.get(
    '/holders/:id/export',
    {
      config: { access: { action: 'dataRequests.manage' }, heavy: 'export' },
      schema: { tags, params: idParams, querystring: holderExportQuery },
    },
    async (request, reply) => {
      const ctx = serviceContext(request);
      const data = await holderData(ctx, request.params.id);
      const day = santiagoDateOf(ctx.now);
      const rows = data.reservas.length + data.comentarios.length + data.historial.length + 1;
      await audit.recordExport(ctx, {
        name: 'datos_titular',
        title: 'Datos del titular',
        format: request.query.format,
        rows,
        filters: { titular: request.params.id },
      });
      if (request.query.format === 'xlsx') {
        return reply
          .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('content-disposition', contentDisposition('attachment', `datos_titular_${day}.xlsx`))
          .send(await holderWorkbook(data));
      }
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', contentDisposition('attachment', `datos_titular_${day}.json`))
        .send(JSON.stringify(data, null, 2));
    },
  );

  app.get(
    '/holders/:id/blocked-values',
    {
      config: { access: { action: 'dataRequests.manage' } },
      schema: { tags, params: idParams, response: { 200: blockedValuesAnswer } },
    },
    async (request) => ({
      values: await dataRequests.blockedValues(serviceContext(request), request.params.id),
    }),
  );

  app.delete(
    '/holders/:id/restriction',
    {
      config: { access: { action: 'dataRequests.manage' } },
      schema: { tags, params: idParams, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await dataRequests.liftRestriction(serviceContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
