import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notificationCountResponse } from '../../../shared/schemas/notifications';
import { serviceContext } from '../../http/context';
import * as notifications from './notifications.service';

export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/count',
    { schema: { tags: ['notifications'], response: { 200: notificationCountResponse } } },
    async (request) => ({ count: await notifications.pendingTaskCount(serviceContext(request)) }),
  );
};
