import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  clientAnswer,
  clientBody,
  clientListQuery,
  clientPage,
  clientUpdateBody,
} from '../../../shared/schemas/clients';
import { idParams } from '../../../shared/schemas/common';
import { serviceContext } from '../../http/context';
import * as clients from './clients.service';

export const clientsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['clients'];

  app.get(
    '/',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: clientListQuery, response: { 200: clientPage } },
    },
    async (request) => clients.list(serviceContext(request), request.query),
  );

  app.get(
    '/:id',
    { config: { access: 'staff' }, schema: { tags, params: idParams, response: { 200: clientAnswer } } },
    async (request) => ({ client: await clients.get(serviceContext(request), request.params.id) }),
  );

  app.post(
    '/',
    { config: { access: 'staff' }, schema: { tags, body: clientBody, response: { 201: clientAnswer } } },
    async (request, reply) => {
      const client = await clients.create(serviceContext(request), request.body);
      return reply.status(201).send({ client });
    },
  );

  app.put(
    '/:id',
    {
      config: { access: 'staff' },
      schema: { tags, params: idParams, body: clientUpdateBody, response: { 200: clientAnswer } },
    },
    async (request) => ({
      client: await clients.update(serviceContext(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    {
      config: { access: { action: 'clients.delete' } },
      schema: { tags, params: idParams, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await clients.remove(serviceContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
