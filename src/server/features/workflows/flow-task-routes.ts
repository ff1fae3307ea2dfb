import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WorkflowKind } from '../../../shared/domain/workflow/types';
import {
  assignBody,
  assigneeParams,
  commentBody,
  commentCreatedResponse,
  datesBody,
  flowParams,
  flowStateResponse,
  flowTaskCommentsResponse,
  flowTaskParams,
  taskStatusBody,
} from '../../../shared/schemas/workflows';
import { FLOW_AUTHORITY } from '../../http/access';
import { serviceContext } from '../../http/context';
import * as workflows from './workflows.service';

/**
 * The task commands both flow screens send, as a plugin the sale-flow and payment features register
 * under their own prefix (`/api/sale-flows`, `/api/payment-flows`); the workflows module has no
 * routes of its own (DESIGN §1). A flow of the other kind answers 404, as an unknown one.
 */
export function flowTaskRoutes(kind: WorkflowKind): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = [kind === 'sale' ? 'sale-flows' : 'payment-flows'];
    const response = { 200: flowStateResponse };

    app.put(
      '/:flowId/tasks/:taskId/status',
      {
        config: { access: FLOW_AUTHORITY },
        schema: { tags, params: flowTaskParams, body: taskStatusBody, response },
      },
      async (request) => {
        const { flowId, taskId } = request.params;
        const { status, completedAt, version } = request.body;
        return workflows.runFlowCommand(
          serviceContext(request),
          kind,
          flowId,
          { type: 'setStatus', taskRowId: taskId, status, ...(completedAt ? { completedAt } : {}) },
          { taskVersion: version },
        );
      },
    );

    // Spec part 2 §5: an assignment without a session answers 'No se ha podido identificar al usuario'.
    const assignment = { access: FLOW_AUTHORITY, unauthenticatedCode: 'USER_NOT_IDENTIFIED' } as const;

    app.post(
      '/:flowId/tasks/:taskId/assignees',
      { config: assignment, schema: { tags, params: flowTaskParams, body: assignBody, response } },
      async (request) =>
        workflows.runFlowCommand(serviceContext(request), kind, request.params.flowId, {
          type: 'assign',
          taskRowId: request.params.taskId,
          userId: request.body.userId,
        }),
    );

    app.delete(
      '/:flowId/tasks/:taskId/assignees/:userId',
      { config: assignment, schema: { tags, params: assigneeParams, response } },
      async (request) =>
        workflows.runFlowCommand(serviceContext(request), kind, request.params.flowId, {
          type: 'unassign',
          taskRowId: request.params.taskId,
          userId: request.params.userId,
        }),
    );

    app.put(
      '/:flowId/tasks/:taskId/dates',
      {
        config: { access: FLOW_AUTHORITY },
        schema: { tags, params: flowTaskParams, body: datesBody, response },
      },
      async (request) =>
        workflows.runFlowCommand(serviceContext(request), kind, request.params.flowId, {
          type: 'editTaskDates',
          taskRowId: request.params.taskId,
          ...request.body,
        }),
    );

    app.put(
      '/:flowId/dates',
      { config: { access: FLOW_AUTHORITY }, schema: { tags, params: flowParams, body: datesBody, response } },
      async (request) =>
        workflows.runFlowCommand(serviceContext(request), kind, request.params.flowId, {
          type: 'editFlowDates',
          ...request.body,
        }),
    );

    app.get(
      '/:flowId/tasks/:taskId/comments',
      {
        config: { access: FLOW_AUTHORITY },
        schema: { tags, params: flowTaskParams, response: { 200: flowTaskCommentsResponse } },
      },
      async (request) => {
        return {
          comments: await workflows.listComments(
            serviceContext(request),
            kind,
            request.params.flowId,
            request.params.taskId,
          ),
        };
      },
    );

    app.post(
      '/:flowId/tasks/:taskId/comments',
      {
        config: { access: FLOW_AUTHORITY },
        schema: {
          tags,
          params: flowTaskParams,
          body: commentBody,
          response: { 201: commentCreatedResponse },
        },
      },
      async (request, reply) => {
        const { commentId } = await workflows.addComment(
          serviceContext(request),
          kind,
          request.params.flowId,
          request.params.taskId,
          request.body,
        );
        return reply.status(201).send({ id: commentId });
      },
    );

    app.delete(
      '/:flowId/comments/:commentId',
      {
        config: { access: FLOW_AUTHORITY },
        schema: {
          tags,
          params: z.strictObject({ flowId: z.uuid(), commentId: z.uuid() }),
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await workflows.deleteComment(
          serviceContext(request),
          kind,
          request.params.flowId,
          request.params.commentId,
        );
        return reply.status(204).send(null);
      },
    );
  };
}
