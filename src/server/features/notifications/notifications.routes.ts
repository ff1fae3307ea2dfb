import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  followUpQuery,
  inboxResponse,
  mentionParams,
  mentionReadResponse,
  mentionsQuery,
  mentionsReadAllResponse,
  mentionsResponse,
  notificationCountResponse,
  notificationsQuery,
} from '../../../shared/schemas/notifications';
import { serviceContext } from '../../http/context';
import * as notifications from './notifications.service';

export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/count',
    {
      config: { access: 'staff' },
      schema: { tags: ['notifications'], response: { 200: notificationCountResponse } },
    },
    async (request) => notifications.counts(serviceContext(request)),
  );

  // /notificaciones 'Menciones': the signed-in user's own mentions, newest first (decision 0030).
  app.get(
    '/mentions',
    {
      config: { access: 'staff' },
      schema: { tags: ['notifications'], querystring: mentionsQuery, response: { 200: mentionsResponse } },
    },
    async (request) => notifications.listMentions(serviceContext(request), request.query),
  );

  app.post(
    '/mentions/read-all',
    {
      config: { access: 'staff' },
      schema: { tags: ['notifications'], response: { 200: mentionsReadAllResponse } },
    },
    async (request) => notifications.markAllMentionsRead(serviceContext(request)),
  );

  app.post(
    '/mentions/:commentId/read',
    {
      config: { access: 'staff' },
      schema: { tags: ['notifications'], params: mentionParams, response: { 200: mentionReadResponse } },
    },
    async (request) => notifications.markMentionRead(serviceContext(request), request.params.commentId),
  );

  // /notificaciones: the signed-in user's own pending tasks, a page of every stage group or of one.
  app.get(
    '/',
    {
      config: { access: 'staff' },
      schema: { tags: ['notifications'], querystring: notificationsQuery, response: { 200: inboxResponse } },
    },
    async (request) => notifications.listMine(serviceContext(request), request.query),
  );

  // /seguimiento: everyone's pending tasks (administrators) or the signed-in user's own.
  app.get(
    '/follow-up',
    {
      config: { access: { policy: 'tasks.readOf' } },
      schema: { tags: ['notifications'], querystring: followUpQuery, response: { 200: inboxResponse } },
    },
    async (request) => notifications.listFollowUp(serviceContext(request), request.query),
  );
};
