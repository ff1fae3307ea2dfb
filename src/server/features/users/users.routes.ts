import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userOptionsResponse } from '../../../shared/schemas/users';
import { serviceContext } from '../../http/context';
import * as users from './users.service';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/options',
    { config: { access: 'staff' }, schema: { tags: ['users'], response: { 200: userOptionsResponse } } },
    async (request) => ({
      users: await users.listOptions(serviceContext(request)),
    }),
  );
};
