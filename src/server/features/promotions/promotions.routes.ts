import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bankVerifyBody } from '../../../shared/schemas/brokers';
import { idParams } from '../../../shared/schemas/common';
import { promotionFields, promotionView, updatePromotionBody } from '../../../shared/schemas/reservations';
import { serviceContext } from '../../http/context';
import * as promotions from './promotions.service';

const promotionParams = z.strictObject({ id: z.uuid(), promotionId: z.uuid() });
const tags = ['promotions'];

/** Registered under /api/reservations: promotions belong to their reservation. */
export const promotionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/:id/promotions',
    {
      config: { access: { policy: 'bankAccounts.change' } },
      schema: {
        tags,
        params: idParams,
        body: promotionFields,
        response: { 201: z.object({ promotion: promotionView }) },
      },
    },
    async (request, reply) => {
      const promotion = await promotions.add(serviceContext(request), request.params.id, request.body);
      return reply.status(201).send({ promotion });
    },
  );

  app.put(
    '/:id/promotions/:promotionId',
    {
      config: { access: { policy: 'bankAccounts.change' } },
      schema: {
        tags,
        params: promotionParams,
        body: updatePromotionBody,
        response: { 200: z.object({ promotion: promotionView }) },
      },
    },
    async (request) => ({
      promotion: await promotions.update(
        serviceContext(request),
        request.params.id,
        request.params.promotionId,
        request.body,
      ),
    }),
  );

  // 'Verificar cuenta' (issue 53, decision 0063): another payments user or an administrator.
  app.post(
    '/:id/promotions/:promotionId/account/verify',
    {
      config: { access: { policy: 'bankAccounts.verify' } },
      schema: {
        tags,
        params: promotionParams,
        body: bankVerifyBody,
        response: { 200: z.object({ promotion: promotionView }) },
      },
    },
    async (request) => ({
      promotion: await promotions.verifyAccount(
        serviceContext(request),
        request.params.id,
        request.params.promotionId,
        request.body.version,
      ),
    }),
  );

  app.delete(
    '/:id/promotions/:promotionId',
    {
      config: { access: { action: 'promotions.delete' } },
      schema: { tags, params: promotionParams, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await promotions.remove(serviceContext(request), request.params.id, request.params.promotionId);
      return reply.status(204).send(null);
    },
  );
};
