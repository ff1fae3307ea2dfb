import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '../../../shared/schemas/common';
import {
  rescissionBody,
  rescissionPreviewResponse,
  rescissionResponse,
} from '../../../shared/schemas/payments';
import { serviceContext } from '../../http/context';
import * as rescissions from './rescissions.service';

const tags = ['rescissions'];

/** Registered under /api/reservations: a rescission is of a reservation (administrators). */
export const rescissionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:id/rescission-preview',
    {
      config: { access: { action: 'reservations.rescind' } },
      schema: { tags, params: idParams, response: { 200: rescissionPreviewResponse } },
    },
    async (request) => ({ preview: await rescissions.preview(serviceContext(request), request.params.id) }),
  );

  app.post(
    '/:id/rescission',
    {
      config: { access: { action: 'reservations.rescind' } },
      schema: { tags, params: idParams, body: rescissionBody, response: { 200: rescissionResponse } },
    },
    async (request) => ({
      rescission: await rescissions.rescind(serviceContext(request), request.params.id, request.body),
    }),
  );
};
