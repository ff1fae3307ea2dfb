import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../../shared/schemas/common';
import {
  createReservationBody,
  reservationFormOptions,
  reservationListQuery,
  reservationListResponse,
  reservationResponse,
  updateReservationBody,
} from '../../../shared/schemas/reservations';
import { serviceContext } from '../../http/context';
import * as reservations from './reservations.service';

const tags = ['reservations'];

export const reservationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: reservationListQuery, response: { 200: reservationListResponse } },
    },
    async (request) => reservations.list(serviceContext(request), request.query),
  );

  app.get(
    '/form-options',
    { config: { access: 'staff' }, schema: { tags, response: { 200: reservationFormOptions } } },
    async (request) => reservations.formOptions(serviceContext(request)),
  );

  app.get(
    '/:id',
    {
      config: { access: 'staff' },
      schema: { tags, params: idParams, response: { 200: reservationResponse } },
    },
    async (request) => ({ reservation: await reservations.get(serviceContext(request), request.params.id) }),
  );

  app.post(
    '/',
    {
      config: { access: { policy: 'reservations.overridePolicy' } },
      schema: { tags, body: createReservationBody, response: { 201: reservationResponse } },
    },
    async (request, reply) => {
      const reservation = await reservations.create(serviceContext(request), request.body);
      return reply.status(201).send({ reservation });
    },
  );

  app.put(
    '/:id',
    {
      config: { access: { policy: 'reservations.overridePolicy' } },
      schema: { tags, params: idParams, body: updateReservationBody, response: { 200: reservationResponse } },
    },
    async (request) => ({
      reservation: await reservations.update(serviceContext(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    {
      config: { access: { action: 'reservations.delete' } },
      schema: { tags, params: idParams, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await reservations.remove(serviceContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
