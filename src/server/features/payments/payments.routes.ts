import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  openedFlowResponse,
  paymentFlowResponse,
  paymentListQuery,
  paymentListResponse,
  reservationParams,
  riskBody,
  riskResponse,
} from '../../../shared/schemas/payments';
import { flowParams, flowStateResponse } from '../../../shared/schemas/workflows';
import { FLOW_AUTHORITY } from '../../http/access';
import { serviceContext } from '../../http/context';
import * as payments from './payments.service';

/** /api/payments: the 'Pagos' list and the payment flows it opens on demand, by reservation. */
export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['payments'];
  app.get(
    '/',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: paymentListQuery, response: { 200: paymentListResponse } },
    },
    async (request) => payments.list(serviceContext(request), request.query),
  );

  app.post(
    '/:reservationId/first-flow',
    {
      config: { access: 'staff' },
      schema: { tags, params: reservationParams, response: { 200: openedFlowResponse } },
    },
    async (request) => payments.openFirstFlow(serviceContext(request), request.params.reservationId),
  );

  app.post(
    '/:reservationId/second-flow',
    {
      config: { access: 'staff' },
      schema: { tags, params: reservationParams, response: { 200: openedFlowResponse } },
    },
    async (request) => payments.openSecondFlow(serviceContext(request), request.params.reservationId),
  );
};

/**
 * /api/payment-flows: a payment flow's detail, 'Proceder con Pago' and the at-risk flag. The task
 * commands are the workflows' plugin, `flowTaskRoutes('payment')`, under the same prefix.
 */
export const paymentFlowsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['payment-flows'];
  app.get(
    '/:flowId',
    {
      config: { access: 'staff' },
      schema: { tags, params: flowParams, response: { 200: paymentFlowResponse } },
    },
    async (request) => ({ flow: await payments.get(serviceContext(request), request.params.flowId) }),
  );

  app.post(
    '/:flowId/start',
    {
      config: { access: FLOW_AUTHORITY },
      schema: { tags, params: flowParams, response: { 200: flowStateResponse } },
    },
    async (request) => payments.start(serviceContext(request), request.params.flowId),
  );

  app.put(
    '/:flowId/risk',
    {
      config: { access: 'staff' },
      schema: { tags, params: flowParams, body: riskBody, response: { 200: riskResponse } },
    },
    async (request) => ({
      commission: await payments.setRisk(serviceContext(request), request.params.flowId, request.body),
    }),
  );
};
