import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../../shared/schemas/common';
import {
  commissionView,
  createReservationBody,
  promotionFields,
  promotionView,
  reservationFormOptions,
  reservationListQuery,
  reservationListResponse,
  reservationResponse,
  saveCommissionBody,
  updatePromotionBody,
  updateReservationBody,
} from '../../../shared/schemas/reservations';
import type { Database } from '../../db/client';
import { currentUser } from '../../http/session';
import * as service from './reservations.service';

const promotionParams = z.strictObject({ id: z.uuid(), promotionId: z.uuid() });
const tags = ['reservations'];

export const reservationsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  const ctx = (request: Parameters<typeof currentUser>[0]) => ({ db, user: currentUser(request) });

  app.get(
    '/',
    { schema: { tags, querystring: reservationListQuery, response: { 200: reservationListResponse } } },
    async (request) => service.listReservations(ctx(request), request.query),
  );

  app.get('/form-options', { schema: { tags, response: { 200: reservationFormOptions } } }, async (request) =>
    service.formOptions(ctx(request)),
  );

  app.get(
    '/:id',
    { schema: { tags, params: idParams, response: { 200: reservationResponse } } },
    async (request) => ({ reservation: await service.getReservation(ctx(request), request.params.id) }),
  );

  app.post(
    '/',
    { schema: { tags, body: createReservationBody, response: { 201: reservationResponse } } },
    async (request, reply) => {
      const reservation = await service.createReservation(ctx(request), request.body);
      return reply.status(201).send({ reservation });
    },
  );

  app.put(
    '/:id',
    {
      schema: { tags, params: idParams, body: updateReservationBody, response: { 200: reservationResponse } },
    },
    async (request) => ({
      reservation: await service.updateReservation(ctx(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    { schema: { tags, params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await service.deleteReservation(ctx(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/:id/commission',
    {
      schema: {
        tags,
        params: idParams,
        body: saveCommissionBody,
        response: { 200: z.object({ commission: commissionView }) },
      },
    },
    async (request) => ({
      commission: await service.saveCommission(ctx(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/:id/promotions',
    {
      schema: {
        tags,
        params: idParams,
        body: promotionFields,
        response: { 201: z.object({ promotion: promotionView }) },
      },
    },
    async (request, reply) => {
      const promotion = await service.addPromotion(ctx(request), request.params.id, request.body);
      return reply.status(201).send({ promotion });
    },
  );

  app.put(
    '/:id/promotions/:promotionId',
    {
      schema: {
        tags,
        params: promotionParams,
        body: updatePromotionBody,
        response: { 200: z.object({ promotion: promotionView }) },
      },
    },
    async (request) => ({
      promotion: await service.updatePromotion(
        ctx(request),
        request.params.id,
        request.params.promotionId,
        request.body,
      ),
    }),
  );

  app.delete(
    '/:id/promotions/:promotionId',
    { schema: { tags, params: promotionParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await service.deletePromotion(ctx(request), request.params.id, request.params.promotionId);
      return reply.status(204).send(null);
    },
  );
};
