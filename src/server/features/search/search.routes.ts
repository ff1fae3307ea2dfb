import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchQuery, searchResponse } from '../../../shared/schemas/search';
import type { Database } from '../../db/client';
import * as search from './search.service';

export const searchRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/',
    { schema: { tags: ['search'], querystring: searchQuery, response: { 200: searchResponse } } },
    async (request) => search.globalSearch(db, request.query.q),
  );
};
