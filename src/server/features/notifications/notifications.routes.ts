import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notificationCountResponse } from '../../../shared/schemas/notifications';
import type { Database } from '../../db/client';
import { currentUser } from '../../http/session';
import * as notifications from './notifications.service';

export const notificationsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/count',
    { schema: { tags: ['notifications'], response: { 200: notificationCountResponse } } },
    async (request) => ({ count: await notifications.pendingTaskCount(db, currentUser(request)) }),
  );
};
