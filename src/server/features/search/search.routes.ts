import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchQuery, searchResponse } from '../../../shared/schemas/search';
import { serviceContext } from '../../http/context';
import * as search from './search.service';

export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/',
    {
      config: { access: 'staff' },
      schema: { tags: ['search'], querystring: searchQuery, response: { 200: searchResponse } },
    },
    async (request) => search.globalSearch(serviceContext(request), request.query.q),
  );
};
