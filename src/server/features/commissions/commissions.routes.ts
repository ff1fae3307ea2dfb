import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../../shared/schemas/common';
import { commissionView, saveCommissionBody } from '../../../shared/schemas/reservations';
import { serviceContext } from '../../http/context';
import * as commissions from './commissions.service';

/** Registered under /api/reservations: a commission belongs to its reservation. */
export const commissionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/:id/commission',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['commissions'],
        params: idParams,
        body: saveCommissionBody,
        response: { 200: z.object({ commission: commissionView }) },
      },
    },
    async (request) => ({
      commission: await commissions.save(serviceContext(request), request.params.id, request.body),
    }),
  );
};
