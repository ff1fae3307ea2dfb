import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginBody } from '../../../shared/schemas/auth';
import {
  brokerParams,
  brokerUserAnswer,
  brokerUserInviteBody,
  brokerUserList,
  brokerUserParams,
  portalOperationsPage,
  portalOperationsQuery,
  portalPasswordBody,
  portalUserAnswer,
} from '../../../shared/schemas/portal';
import type { Database } from '../../db/client';
import { serviceContext } from '../../http/context';
import {
  clearPortalCookie,
  currentPortalUser,
  portalToken,
  type SessionCookieSettings,
  setPortalCookie,
} from '../../http/session';
import { type AuthSettings, loginThrottleLimits } from '../auth/auth.service';
import * as portal from './portal.service';

/** Brokers → 'Portal' (staff): a broker's portal accounts (issue 58, decision 0069). */
export const brokerUsersRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['portal'];

  app.get(
    '/:brokerId/portal-users',
    {
      config: { access: 'staff' },
      schema: { tags, params: brokerParams, response: { 200: brokerUserList } },
    },
    async (request) => portal.list(serviceContext(request), request.params.brokerId),
  );

  // An administrator (or whoever the office grants it) or the broker's KAM: the service decides.
  app.post(
    '/:brokerId/portal-users',
    {
      config: { access: { policy: 'brokerUsers.manage' } },
      schema: { tags, params: brokerParams, body: brokerUserInviteBody, response: { 201: brokerUserAnswer } },
    },
    async (request, reply) => {
      const user = await portal.invite(serviceContext(request), request.params.brokerId, request.body);
      return reply.status(201).send({ user });
    },
  );

  for (const [path, isActive] of [
    ['deactivate', false],
    ['reactivate', true],
  ] as const) {
    app.post(
      `/:brokerId/portal-users/:id/${path}`,
      {
        config: { access: { policy: 'brokerUsers.manage' } },
        schema: { tags, params: brokerUserParams, response: { 200: brokerUserAnswer } },
      },
      async (request) => ({
        user: await portal.setActive(
          serviceContext(request),
          request.params.brokerId,
          request.params.id,
          isActive,
        ),
      }),
    );
  }
};

export interface PortalRoutesOptions {
  db: Database;
  settings: AuthSettings;
  cookie: SessionCookieSettings;
  login: { maxAttempts: number; windowMs: number };
}

/** The portal's own API (/api/portal): its sign-in, its link, and what a broker user sees. */
export const portalRoutes: FastifyPluginAsyncZod<PortalRoutesOptions> = async (
  app,
  { db, settings, cookie, login },
) => {
  const tags = ['portal'];
  const throttle = loginThrottleLimits(login);

  app.post(
    '/auth/login',
    { config: { access: 'public' }, schema: { tags, body: loginBody, response: { 200: portalUserAnswer } } },
    async (request, reply) => {
      try {
        const previousToken = portalToken(request, cookie);
        const result = await portal.login(db, settings, throttle, request.body, {
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
          requestId: request.id,
          ...(previousToken ? { previousToken } : {}),
          now: request.server.dependencies.now(),
        });
        setPortalCookie(reply, cookie, result.token);
        return { user: result.user };
      } catch (error) {
        if (error instanceof portal.PortalSignInThrottled) reply.header('retry-after', error.waitSeconds);
        throw error;
      }
    },
  );

  // The invitation's link: the password is set once, then the person signs in.
  app.post(
    '/auth/password',
    { config: { access: 'public' }, schema: { tags, body: portalPasswordBody, response: { 204: z.null() } } },
    async (request, reply) => {
      await portal.setPassword(db, request.body, request.server.dependencies.now(), request.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/logout',
    { config: { access: 'broker' }, schema: { tags, response: { 204: z.null() } } },
    async (request, reply) => {
      await portal.logout(db, currentPortalUser(request), request.portalSessionId!, request.id);
      clearPortalCookie(reply, cookie);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/me',
    { config: { access: 'broker' }, schema: { tags, response: { 200: portalUserAnswer } } },
    async (request) => ({ user: currentPortalUser(request) }),
  );

  app.get(
    '/operations',
    {
      config: { access: 'broker' },
      schema: { tags, querystring: portalOperationsQuery, response: { 200: portalOperationsPage } },
    },
    async (request) => portal.operations(db, currentPortalUser(request), request.query),
  );
};
