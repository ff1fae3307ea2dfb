import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginBody, registerBody, userResponse } from '../../../shared/schemas/auth';
import type { Database } from '../../db/client';
import { AppError } from '../../http/app-error';
import {
  clearSessionCookie,
  currentUser,
  type SessionCookieSettings,
  sessionToken,
  setSessionCookie,
} from '../../http/session';
import * as auth from './auth.service';

export interface AuthRoutesOptions {
  db: Database;
  settings: auth.AuthSettings;
  cookie: SessionCookieSettings;
  login: { maxAttempts: number; windowMs: number };
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { db, settings, cookie, login },
) => {
  app.post(
    '/register',
    {
      config: { public: true },
      schema: { tags: ['auth'], body: registerBody, response: { 201: userResponse } },
    },
    async (request, reply) => {
      const user = await auth.register(db, settings, request.body);
      return reply.status(201).send({ user });
    },
  );

  // Throttled per e-mail (so one account cannot be guessed at) and, more loosely, per IP
  // (an office shares one address; a single machine spraying many e-mails is still stopped).
  const limits = [
    app.createRateLimit({
      max: login.maxAttempts,
      timeWindow: login.windowMs,
      keyGenerator: (request) =>
        `login-email:${String((request.body as { email?: unknown })?.email ?? '')
          .trim()
          .toLowerCase()}`,
    }),
    app.createRateLimit({
      max: login.maxAttempts * 10,
      timeWindow: login.windowMs,
      keyGenerator: (request) => `login-ip:${request.ip}`,
    }),
  ];
  const throttleLogin = async (request: FastifyRequest, reply: FastifyReply) => {
    for (const limit of limits) {
      const result = await limit(request);
      if (!result.isAllowed && result.isExceeded) {
        reply.header('retry-after', result.ttlInSeconds);
        throw new AppError('RATE_LIMITED');
      }
    }
  };

  app.post(
    '/login',
    {
      config: { public: true },
      preHandler: throttleLogin,
      schema: { tags: ['auth'], body: loginBody, response: { 200: userResponse } },
    },
    async (request, reply) => {
      const result = await auth.login(db, settings, request.body, {
        userAgent: request.headers['user-agent'] ?? null,
        ip: request.ip,
        previousToken: sessionToken(request, cookie),
      });
      setSessionCookie(reply, cookie, result.token);
      return { user: result.user };
    },
  );

  app.post('/logout', { schema: { tags: ['auth'], response: { 204: z.null() } } }, async (request, reply) => {
    currentUser(request);
    await auth.logout(db, request.sessionId!);
    clearSessionCookie(reply, cookie);
    return reply.status(204).send(null);
  });

  app.get('/me', { schema: { tags: ['auth'], response: { 200: userResponse } } }, async (request) => {
    return { user: currentUser(request) };
  });
};
