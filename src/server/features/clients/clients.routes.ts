import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  clientBody,
  clientListQuery,
  clientPage,
  clientResponse,
  clientUpdateBody,
} from '../../../shared/schemas/clients';
import { idParams } from '../../../shared/schemas/common';
import type { Database } from '../../db/client';
import { currentUser } from '../../http/session';
import * as clients from './clients.service';

export const clientsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  const tags = ['clients'];

  app.get(
    '/',
    { schema: { tags, querystring: clientListQuery, response: { 200: clientPage } } },
    async (request) => clients.list(db, request.query),
  );

  app.get(
    '/:id',
    { schema: { tags, params: idParams, response: { 200: clientResponse } } },
    async (request) => clients.get(db, request.params.id),
  );

  app.post(
    '/',
    { schema: { tags, body: clientBody, response: { 201: clientResponse } } },
    async (request, reply) => {
      const client = await clients.create(db, currentUser(request), request.body);
      return reply.status(201).send(client);
    },
  );

  app.put(
    '/:id',
    { schema: { tags, params: idParams, body: clientUpdateBody, response: { 200: clientResponse } } },
    async (request) => clients.update(db, currentUser(request), request.params.id, request.body),
  );

  app.delete(
    '/:id',
    { schema: { tags, params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await clients.remove(db, currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
