import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  brokerBody,
  brokerKams,
  brokerListQuery,
  brokerPage,
  brokerResponse,
  brokerUpdateBody,
} from '../../../shared/schemas/brokers';
import { idParams } from '../../../shared/schemas/common';
import type { Database } from '../../db/client';
import { currentUser } from '../../http/session';
import * as brokers from './brokers.service';

export const brokersRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  const tags = ['brokers'];

  app.get(
    '/',
    { schema: { tags, querystring: brokerListQuery, response: { 200: brokerPage } } },
    async (request) => brokers.list(db, request.query),
  );

  app.get('/kams', { schema: { tags, response: { 200: brokerKams } } }, async () => ({
    kams: await brokers.listKams(db),
  }));

  app.get(
    '/:id',
    { schema: { tags, params: idParams, response: { 200: brokerResponse } } },
    async (request) => brokers.get(db, request.params.id),
  );

  app.post(
    '/',
    { schema: { tags, body: brokerBody, response: { 201: brokerResponse } } },
    async (request, reply) => {
      const broker = await brokers.create(db, currentUser(request), request.body);
      return reply.status(201).send(broker);
    },
  );

  app.put(
    '/:id',
    { schema: { tags, params: idParams, body: brokerUpdateBody, response: { 200: brokerResponse } } },
    async (request) => brokers.update(db, currentUser(request), request.params.id, request.body),
  );
};
