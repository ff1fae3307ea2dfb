import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APPROVAL_EXPORT_COLUMNS,
  approvalDetailResponse,
  approvalExportQuery,
  approvalKindsResponse,
  approvalListQuery,
  approvalListResponse,
  approvalParams,
  approveResponse,
  bulkApproveBody,
  bulkApproveResponse,
  rejectBody,
  rejectResponse,
} from '../../../shared/schemas/approvals';
import { sendExport } from '../../exports';
import { serviceContext } from '../../http/context';
import * as audit from '../audit/audit.service';
import * as approvals from './approvals.service';

/** /api/approvals: the signed-in user's approvals inbox, an approval's detail, approve and reject. */
export const approvalsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['approvals'];
  app.get(
    '/',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: approvalListQuery, response: { 200: approvalListResponse } },
    },
    async (request) => approvals.list(serviceContext(request), request.query),
  );

  app.get(
    '/export',
    {
      config: { access: { action: 'reports.export' }, heavy: 'export' },
      schema: { tags, querystring: approvalExportQuery },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const ctx = serviceContext(request);
      const exported = await approvals.exportRows(ctx, query);
      const record = audit.exportRecorder(ctx, { fileName: exported.fileName, format, filters: query });
      return sendExport(reply, { format, columns: APPROVAL_EXPORT_COLUMNS, ...exported, record });
    },
  );

  app.get(
    '/kinds',
    { config: { access: 'staff' }, schema: { tags, response: { 200: approvalKindsResponse } } },
    async (request) => approvals.kinds(serviceContext(request)),
  );

  app.post(
    '/approve',
    {
      config: { access: 'staff' },
      schema: { tags, body: bulkApproveBody, response: { 200: bulkApproveResponse } },
    },
    async (request) =>
      approvals.approveMany(serviceContext(request), request.body.taskIds, (error, taskId) =>
        request.log.error({ err: error, taskId }, 'bulk approval: unexpected failure'),
      ),
  );

  app.get(
    '/:taskId',
    {
      config: { access: 'staff' },
      schema: { tags, params: approvalParams, response: { 200: approvalDetailResponse } },
    },
    async (request) => ({ approval: await approvals.get(serviceContext(request), request.params.taskId) }),
  );

  app.post(
    '/:taskId/approve',
    {
      config: { access: 'staff' },
      schema: { tags, params: approvalParams, response: { 200: approveResponse } },
    },
    async (request) => ({
      approval: await approvals.approve(serviceContext(request), request.params.taskId),
    }),
  );

  app.post(
    '/:taskId/reject',
    {
      config: { access: 'staff' },
      schema: { tags, params: approvalParams, body: rejectBody, response: { 200: rejectResponse } },
    },
    async (request) => ({
      approval: await approvals.reject(serviceContext(request), request.params.taskId, request.body.reason),
    }),
  );
};
