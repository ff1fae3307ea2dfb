import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../shared/schemas/auth';
import type { Database } from '../db/client';
import { type AuthSettings, resolveSession } from '../features/auth/auth.service';
import { AppError } from './app-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The refusal a route answers without a session, when the spec words its own (401 either way). */
    unauthenticatedCode?: 'USER_NOT_IDENTIFIED';
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
 * Deny by default: every route of the scope this is registered in (the /api plugin) needs a live
 * session unless its own config declares `access: 'public'` (http/access.ts). Access is decided from the route the router matched
 * (and the scope's not-found handler), never by testing the URL's spelling: `/%61pi/clients`, an
 * absolute-form target or a doubled slash reach the same route and the same check.
 * The user is resolved once per request (one indexed query) and hung on `request.user`.
 */
export function registerSessionHook(
  scope: FastifyInstance,
  db: Database,
  auth: AuthSettings,
  cookie: SessionCookieSettings,
) {
  scope.decorateRequest('user', null);
  scope.decorateRequest('sessionId', null);
  scope.addHook('onRequest', async (request, reply) => {
    const token = sessionToken(request, cookie);
    if (token) {
      const session = await resolveSession(
        db,
        auth,
        token,
        request.server.dependencies.permissionGrants.current(),
      );
      if (session) {
        request.user = session.user;
        request.sessionId = session.sessionId;
      } else {
        clearSessionCookie(reply, cookie);
      }
    }
    if (!request.user && request.routeOptions.config.access !== 'public') {
      throw new AppError(request.routeOptions.config.unauthenticatedCode ?? 'UNAUTHENTICATED');
    }
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Loopback names: never an attacker's domain, so DNS rebinding cannot borrow them. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function originOf(value: string | undefined): URL | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Every state-changing request of the scope must come from the app itself: its Origin (or, failing
 * that, its Referer) must be a loopback origin (the server on this machine, the dev server) or one
 * of ALLOWED_ORIGINS (the public origin). Never the request's own Host: a page on an attacker's
 * domain that resolves to this server (DNS rebinding) would pass that test. Otherwise 403.
 */
export function registerOriginCheck(scope: FastifyInstance, allowedOrigins: readonly string[]) {
  const allowed = new Set(
    allowedOrigins.map(originOf).flatMap((origin) => (origin === null ? [] : [origin.origin])),
  );
  scope.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = originOf(request.headers.origin) ?? originOf(request.headers.referer);
    if (!origin || !(LOOPBACK_HOSTS.has(origin.hostname) || allowed.has(origin.origin))) {
      throw new AppError('CROSS_ORIGIN');
    }
  });
}
