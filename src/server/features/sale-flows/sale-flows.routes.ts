import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  saleFlowListQuery,
  saleFlowListResponse,
  saleFlowParams,
  saleFlowReservationBody,
  saleFlowResponse,
} from '../../../shared/schemas/sale-flows';
import { serviceContext } from '../../http/context';
import * as saleFlows from './sale-flows.service';

const tags = ['sale-flows'];

/**
 * /api/sale-flows: the list and the detail of the sale flows, the reservation fields the detail
 * edits. The task commands (status, assignees, dates, comments) are the workflows' plugin,
 * `flowTaskRoutes('sale')`, registered under the same prefix.
 */
export const saleFlowsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: saleFlowListQuery, response: { 200: saleFlowListResponse } },
    },
    async (request) => saleFlows.list(serviceContext(request), request.query),
  );

  app.get(
    '/:flowId',
    {
      config: { access: 'staff' },
      schema: { tags, params: saleFlowParams, response: { 200: saleFlowResponse } },
    },
    async (request) => ({ flow: await saleFlows.get(serviceContext(request), request.params.flowId) }),
  );

  app.patch(
    '/:flowId/reservation',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        params: saleFlowParams,
        body: saleFlowReservationBody,
        response: { 200: saleFlowResponse },
      },
    },
    async (request) => ({
      flow: await saleFlows.updateReservation(serviceContext(request), request.params.flowId, request.body),
    }),
  );
};
