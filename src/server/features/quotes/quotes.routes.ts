import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../../shared/schemas/common';
import {
  createQuoteBody,
  projectIdParams,
  quoteListQuery,
  quoteListResponse,
  quoteResponse,
  quoteSettingsView,
  reserveQuoteBody,
  saveQuoteSettingsBody,
} from '../../../shared/schemas/quotes';
import { serviceContext } from '../../http/context';
import * as quotes from './quotes.service';

const tags = ['quotes'];

/** Cotizaciones (issue 59): staff quote, list, duplicate and reserve; administrators set the per-project terms. */
export const quotesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: quoteListQuery, response: { 200: quoteListResponse } },
    },
    async (request) => quotes.list(serviceContext(request), request.query),
  );

  app.post(
    '/',
    {
      config: { access: 'staff' },
      schema: { tags, body: createQuoteBody, response: { 201: quoteResponse } },
    },
    async (request, reply) => {
      const quote = await quotes.create(serviceContext(request), request.body);
      return reply.status(201).send({ quote });
    },
  );

  app.get(
    '/:id',
    { config: { access: 'staff' }, schema: { tags, params: idParams, response: { 200: quoteResponse } } },
    async (request) => ({ quote: await quotes.get(serviceContext(request), request.params.id) }),
  );

  app.post(
    '/:id/duplicate',
    { config: { access: 'staff' }, schema: { tags, params: idParams, response: { 201: quoteResponse } } },
    async (request, reply) => {
      const quote = await quotes.duplicate(serviceContext(request), request.params.id);
      return reply.status(201).send({ quote });
    },
  );

  app.post(
    '/:id/reserve',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        params: idParams,
        body: reserveQuoteBody,
        response: { 201: quoteResponse.extend({ reservationId: z.string() }) },
      },
    },
    async (request, reply) => {
      const { reservationId, quote } = await quotes.reserve(
        serviceContext(request),
        request.params.id,
        request.body,
      );
      return reply.status(201).send({ quote, reservationId });
    },
  );

  app.get(
    '/settings/:projectId',
    {
      config: { access: 'staff' },
      schema: { tags, params: projectIdParams, response: { 200: quoteSettingsView } },
    },
    async (request) => quotes.settings(serviceContext(request), request.params.projectId),
  );

  app.put(
    '/settings/:projectId',
    {
      config: { access: { action: 'quotes.configure' } },
      schema: {
        tags,
        params: projectIdParams,
        body: saveQuoteSettingsBody,
        response: { 200: quoteSettingsView },
      },
    },
    async (request) => quotes.saveSettings(serviceContext(request), request.params.projectId, request.body),
  );
};
