import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ufDateParams,
  ufDayBody,
  ufDayResponse,
  ufImportBody,
  ufImportResponse,
  ufMonthQuery,
  ufMonthResponse,
} from '../../../shared/schemas/uf-values';
import { serviceContext } from '../../http/context';
import * as ufValues from './uf-values.service';

/** /api/uf-values: Configuración → 'Valores UF' (reads for everyone signed in, writes for administrators). */
export const ufValuesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['uf-values'];
  app.get(
    '/',
    { schema: { tags, querystring: ufMonthQuery, response: { 200: ufMonthResponse } } },
    async (request) => ufValues.listMonth(serviceContext(request), request.query.month),
  );
  app.put(
    '/:date',
    { schema: { tags, params: ufDateParams, body: ufDayBody, response: { 200: ufDayResponse } } },
    async (request) => ({
      ufValue: await ufValues.saveDay(serviceContext(request), request.params.date, request.body),
    }),
  );
  app.post(
    '/import',
    { bodyLimit: 1024 * 1024, schema: { tags, body: ufImportBody, response: { 200: ufImportResponse } } },
    async (request) => ({ import: await ufValues.importFile(serviceContext(request), request.body) }),
  );
};
