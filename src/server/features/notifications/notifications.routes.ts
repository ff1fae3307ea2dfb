import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  followUpQuery,
  inboxResponse,
  notificationCountResponse,
  notificationsQuery,
} from '../../../shared/schemas/notifications';
import { serviceContext } from '../../http/context';
import * as notifications from './notifications.service';

export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/count',
    { schema: { tags: ['notifications'], response: { 200: notificationCountResponse } } },
    async (request) => ({ count: await notifications.pendingTaskCount(serviceContext(request)) }),
  );

  // /notificaciones: the signed-in user's own pending tasks, a page of every stage group or of one.
  app.get(
    '/',
    {
      schema: { tags: ['notifications'], querystring: notificationsQuery, response: { 200: inboxResponse } },
    },
    async (request) => notifications.listMine(serviceContext(request), request.query),
  );

  // /seguimiento: everyone's pending tasks (administrators) or the signed-in user's own.
  app.get(
    '/follow-up',
    { schema: { tags: ['notifications'], querystring: followUpQuery, response: { 200: inboxResponse } } },
    async (request) => notifications.listFollowUp(serviceContext(request), request.query),
  );
};
