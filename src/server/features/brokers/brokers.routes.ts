import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bankVerifyBody,
  brokerAnswer,
  brokerBody,
  brokerKams,
  brokerListQuery,
  brokerPage,
  brokerUpdateBody,
} from '../../../shared/schemas/brokers';
import { idParams } from '../../../shared/schemas/common';
import { serviceContext } from '../../http/context';
import * as brokers from './brokers.service';

export const brokersRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['brokers'];

  app.get(
    '/',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: brokerListQuery, response: { 200: brokerPage } },
    },
    async (request) => brokers.list(serviceContext(request), request.query),
  );

  app.get(
    '/kams',
    { config: { access: 'staff' }, schema: { tags, response: { 200: brokerKams } } },
    async (request) => ({
      kams: await brokers.listKams(serviceContext(request)),
    }),
  );

  app.get(
    '/:id',
    { config: { access: 'staff' }, schema: { tags, params: idParams, response: { 200: brokerAnswer } } },
    async (request) => ({ broker: await brokers.get(serviceContext(request), request.params.id) }),
  );

  app.post(
    '/',
    {
      config: { access: { policy: 'bankAccounts.change' } },
      schema: { tags, body: brokerBody, response: { 201: brokerAnswer } },
    },
    async (request, reply) => {
      const broker = await brokers.create(serviceContext(request), request.body);
      return reply.status(201).send({ broker });
    },
  );

  app.put(
    '/:id',
    {
      config: { access: { policy: 'bankAccounts.change' } },
      schema: { tags, params: idParams, body: brokerUpdateBody, response: { 200: brokerAnswer } },
    },
    async (request) => ({
      broker: await brokers.update(serviceContext(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/:id/bank-account/verify',
    {
      config: { access: { policy: 'bankAccounts.verify' } },
      schema: { tags, params: idParams, body: bankVerifyBody, response: { 200: brokerAnswer } },
    },
    async (request) => ({
      broker: await brokers.verifyBank(serviceContext(request), request.params.id, request.body.version),
    }),
  );
};
