import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUDIT_EXPORT_COLUMNS,
  auditExportQuery,
  auditListQuery,
  auditPage,
  auditUsersResponse,
  historyParams,
  historyQuery,
} from '../../../shared/schemas/audit';
import { sendExport } from '../../exports';
import { serviceContext } from '../../http/context';
import * as audit from './audit.service';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['audit'];

  app.get(
    '/history/:kind/:id',
    {
      config: { access: 'staff' },
      schema: { tags, params: historyParams, querystring: historyQuery, response: { 200: auditPage } },
    },
    async (request) =>
      audit.history(serviceContext(request), request.params.kind, request.params.id, request.query),
  );

  app.get(
    '/',
    {
      config: { access: { action: 'audit.read' } },
      schema: { tags, querystring: auditListQuery, response: { 200: auditPage } },
    },
    async (request) => audit.list(serviceContext(request), request.query),
  );

  app.get(
    '/users',
    { config: { access: { action: 'audit.read' } }, schema: { tags, response: { 200: auditUsersResponse } } },
    async (request) => ({
      users: await audit.users(serviceContext(request)),
    }),
  );

  app.get(
    '/export',
    {
      config: { access: { action: 'audit.read' }, heavy: 'export' },
      schema: { tags, querystring: auditExportQuery },
    },
    async (request, reply) => {
      const { format, ...filters } = request.query;
      const ctx = serviceContext(request);
      const exported = audit.exportRows(ctx, filters);
      const record = audit.exportRecorder(ctx, { fileName: exported.fileName, format, filters });
      return sendExport(reply, { format, columns: AUDIT_EXPORT_COLUMNS, ...exported, record });
    },
  );
};
