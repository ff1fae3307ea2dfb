import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginBody, registerBody, userResponse } from '../../../shared/schemas/auth';
import type { Database } from '../../db/client';
import {
  clearSessionCookie,
  currentUser,
  type SessionCookieSettings,
  sessionToken,
  setSessionCookie,
} from '../../http/session';
import * as auth from './auth.service';
import { loginThrottleLimits } from './login-throttle';

export interface AuthRoutesOptions {
  db: Database;
  settings: auth.AuthSettings;
  cookie: SessionCookieSettings;
  login: { maxAttempts: number; windowMs: number };
  register: { maxPerHour: number };
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { db, settings, cookie, login, register },
) => {
  app.post(
    '/register',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], body: registerBody, response: { 201: userResponse } },
    },
    async (request, reply) => {
      try {
        await auth.admitRegistration(
          db,
          throttle,
          register.maxPerHour,
          request.ip,
          request.server.dependencies.now(),
        );
      } catch (error) {
        if (error instanceof auth.RegistrationThrottled) reply.header('retry-after', error.waitSeconds);
        throw error;
      }
      const user = await auth.register(
        db,
        settings,
        request.body,
        request.id,
        request.server.dependencies.permissionGrants.current(),
      );
      return reply.status(201).send({ user });
    },
  );

  // The register page asks first, so a closed registration says so instead of showing a form.
  app.get(
    '/registration',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], response: { 200: z.object({ isOpen: z.boolean() }) } },
    },
    async () => ({ isOpen: await auth.registrationIsOpen(db, settings) }),
  );

  // Failed sign-ins are throttled per e-mail + client, per client and per account, and
  // self-registrations per client, counted in the database so every instance sees them
  // (login-throttle.ts).
  const throttle = loginThrottleLimits(login);

  app.post(
    '/login',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], body: loginBody, response: { 200: userResponse } },
    },
    async (request, reply) => {
      try {
        const result = await auth.login(db, settings, throttle, request.body, {
          userAgent: request.headers['user-agent'] ?? null,
          ip: request.ip,
          requestId: request.id,
          previousToken: sessionToken(request, cookie),
          now: request.server.dependencies.now(),
          grants: request.server.dependencies.permissionGrants.current(),
        });
        setSessionCookie(reply, cookie, result.token);
        return { user: result.user };
      } catch (error) {
        if (error instanceof auth.LoginThrottled) reply.header('retry-after', error.waitSeconds);
        throw error;
      }
    },
  );

  app.post(
    '/logout',
    { config: { access: 'staff' }, schema: { tags: ['auth'], response: { 204: z.null() } } },
    async (request, reply) => {
      const { events } = request.server.dependencies;
      await auth.logout(db, events, currentUser(request), request.sessionId!, request.id);
      clearSessionCookie(reply, cookie);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/me',
    { config: { access: 'staff' }, schema: { tags: ['auth'], response: { 200: userResponse } } },
    async (request) => {
      return { user: currentUser(request) };
    },
  );
};
