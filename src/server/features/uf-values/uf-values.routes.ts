import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ufAutomaticResponse,
  ufDateParams,
  ufDayBody,
  ufDayResponse,
  ufFetchAnswer,
  ufImportBody,
  ufImportResponse,
  ufMonthQuery,
  ufMonthResponse,
} from '../../../shared/schemas/uf-values';
import { serviceContext } from '../../http/context';
import type { UfFetchSettings } from './uf-source';
import * as ufValues from './uf-values.service';

/** /api/uf-values: Configuración → 'Valores UF' (reads for everyone signed in, writes for administrators). */
export const ufValuesRoutes: FastifyPluginAsyncZod<{ fetch: UfFetchSettings }> = async (app, options) => {
  const tags = ['uf-values'];
  app.get(
    '/',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: ufMonthQuery, response: { 200: ufMonthResponse } },
    },
    async (request) => ufValues.listMonth(serviceContext(request), request.query.month),
  );
  app.put(
    '/:date',
    {
      config: { access: { action: 'ufValues.manage' } },
      schema: { tags, params: ufDateParams, body: ufDayBody, response: { 200: ufDayResponse } },
    },
    async (request) => ({
      ufValue: await ufValues.saveDay(serviceContext(request), request.params.date, request.body),
    }),
  );
  app.post(
    '/import',
    {
      config: { access: { action: 'ufValues.manage' } },
      bodyLimit: 1024 * 1024,
      schema: { tags, body: ufImportBody, response: { 200: ufImportResponse } },
    },
    async (request) => ({ import: await ufValues.importFile(serviceContext(request), request.body) }),
  );
  // The automatic fetch (off unless UF_API_KEY is set): its state, and an attempt now.
  app.get(
    '/automatic',
    {
      config: { access: { action: 'ufValues.manage' } },
      schema: { tags, response: { 200: ufAutomaticResponse } },
    },
    async (request) => ufValues.automaticStatus(serviceContext(request), options.fetch),
  );
  app.post(
    '/automatic',
    { config: { access: { action: 'ufValues.manage' } }, schema: { tags, response: { 200: ufFetchAnswer } } },
    async (request) => ({
      fetch: await ufValues.fetchNow(serviceContext(request), options.fetch),
    }),
  );
};
