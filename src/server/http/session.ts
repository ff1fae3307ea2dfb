import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../shared/schemas/auth';
import type { Database } from '../db/client';
import { type AuthSettings, resolveSession } from '../features/auth/auth.service';
import { AppError } from './app-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a session (login, register, health). Everything else is denied by default. */
    public?: boolean;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    sessionId: string | null;
  }
}

export interface SessionCookieSettings {
  secure: boolean;
  maxAgeSeconds: number;
}

/** `__Host-` binds the cookie to this exact origin over HTTPS; plain name for local HTTP. */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-inmoflujo_session' : 'inmoflujo_session';
}

export function setSessionCookie(reply: FastifyReply, settings: SessionCookieSettings, token: string) {
  reply.setCookie(sessionCookieName(settings.secure), token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    path: '/',
    maxAge: settings.maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply, settings: SessionCookieSettings) {
  reply.clearCookie(sessionCookieName(settings.secure), {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    path: '/',
  });
}

export function sessionToken(request: FastifyRequest, settings: SessionCookieSettings): string | undefined {
  return request.cookies[sessionCookieName(settings.secure)];
}

/** The signed-in user of a request that passed the session hook. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError('UNAUTHENTICATED');
  return request.user;
}

/**
 * Deny by default: every /api route needs a live session unless its config says `public`.
 * The user is resolved once per request (one indexed query) and hung on `request.user`.
 */
export function registerSessionHook(
  app: FastifyInstance,
  db: Database,
  auth: AuthSettings,
  cookie: SessionCookieSettings,
) {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    const token = sessionToken(request, cookie);
    if (token) {
      const session = await resolveSession(db, auth, token);
      if (session) {
        request.user = session.user;
        request.sessionId = session.sessionId;
      } else {
        clearSessionCookie(reply, cookie);
      }
    }
    if (!request.user && !request.routeOptions.config.public) throw new AppError('UNAUTHENTICATED');
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(value: string | undefined): string | null {
  if (!value) return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/**
 * Every state-changing request must come from the app itself: its Origin (or, failing that, its
 * Referer) must be the server's own origin or one of ALLOWED_ORIGINS. Otherwise 403.
 */
export function registerOriginCheck(app: FastifyInstance, allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins.map(originOf).filter((origin): origin is string => origin !== null));
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
    const origin = originOf(request.headers.origin) ?? originOf(request.headers.referer);
    const own = originOf(`${request.protocol}://${request.host}`);
    if (!origin || (origin !== own && !allowed.has(origin))) throw new AppError('CROSS_ORIGIN');
  });
}
