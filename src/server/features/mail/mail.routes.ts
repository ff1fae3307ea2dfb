import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../../shared/schemas/common';
import {
  holiday,
  holidayBody,
  holidayList,
  holidayListQuery,
  holidayParams,
  mailListQuery,
  mailPage,
  mailPreferences,
  mailPreferencesResponse,
  mailRetryResponse,
  mailTestResponse,
} from '../../../shared/schemas/mail';
import { serviceContext } from '../../http/context';
import * as mail from './mail.service';
import type { MailSender } from './mail-sender';

/**
 * /api/mail: Configuración → 'Correos' (administrators: the services check), the signed-in user's
 * choice of notices, the holidays. A retried or test message is handed to the sender at once.
 */
export const mailRoutes: FastifyPluginAsyncZod<{ sender: MailSender; transport: 'smtp' | 'files' }> = async (
  app,
  options,
) => {
  const tags = ['mail'];

  app.get(
    '/messages',
    {
      config: { access: { action: 'mail.manage' } },
      schema: { tags, querystring: mailListQuery, response: { 200: mailPage } },
    },
    async (request) => ({
      ...(await mail.list(serviceContext(request), request.query)),
      transport: options.transport,
    }),
  );

  app.post(
    '/messages/:id/retry',
    {
      config: { access: { action: 'mail.manage' } },
      schema: { tags, params: idParams, response: { 200: mailRetryResponse } },
    },
    async (request) => {
      const result = await mail.retry(serviceContext(request), request.params.id);
      options.sender.wake();
      return result;
    },
  );

  app.post(
    '/test',
    { config: { access: { action: 'mail.manage' } }, schema: { tags, response: { 201: mailTestResponse } } },
    async (request, reply) => {
      const result = await mail.sendTest(serviceContext(request));
      options.sender.wake();
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/preferences',
    { config: { access: 'staff' }, schema: { tags, response: { 200: mailPreferencesResponse } } },
    async (request) => ({
      preferences: await mail.preferences(serviceContext(request)),
    }),
  );

  app.put(
    '/preferences',
    {
      config: { access: 'staff' },
      schema: { tags, body: mailPreferences, response: { 200: mailPreferencesResponse } },
    },
    async (request) => ({
      preferences: await mail.updatePreferences(serviceContext(request), request.body),
    }),
  );

  app.get(
    '/holidays',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: holidayListQuery, response: { 200: holidayList } },
    },
    async (request) => ({ holidays: await mail.listHolidays(serviceContext(request), request.query.year) }),
  );

  app.post(
    '/holidays',
    {
      config: { access: { action: 'mail.manage' } },
      schema: { tags, body: holidayBody, response: { 201: holiday } },
    },
    async (request, reply) =>
      reply.status(201).send(await mail.addHoliday(serviceContext(request), request.body)),
  );

  app.delete(
    '/holidays/:date',
    {
      config: { access: { action: 'mail.manage' } },
      schema: { tags, params: holidayParams, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await mail.removeHoliday(serviceContext(request), request.params.date);
      return reply.status(204).send(null);
    },
  );
};
