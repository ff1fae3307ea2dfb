import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../shared/schemas/auth';
import type { PortalUser } from '../../shared/schemas/portal';
import type { Database } from '../db/client';
import { type AuthSettings, resolveSession } from '../features/auth/auth.service';
import * as portal from '../features/portal/portal.service';
import { AppError } from './app-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The refusal a route answers without a session, when the spec words its own (401 either way). */
    unauthenticatedCode?: 'USER_NOT_IDENTIFIED';
  }
  interface FastifyRequest {
    user: SessionUser | null;
    sessionId: string | null;
    /** A broker user of the portal (routes declared `access: 'broker'` only). */
    portalUser: PortalUser | null;
    portalSessionId: string | null;
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

/** The portal's cookie (decision 0069): a name of its own, so no staff session is ever a portal one. */
export function portalCookieName(secure: boolean): string {
  return secure ? '__Host-inmoflujo_portal' : 'inmoflujo_portal';
}

export function setPortalCookie(reply: FastifyReply, settings: SessionCookieSettings, token: string) {
  reply.setCookie(portalCookieName(settings.secure), token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    path: '/',
    maxAge: settings.maxAgeSeconds,
  });
}

export function clearPortalCookie(reply: FastifyReply, settings: SessionCookieSettings) {
  reply.clearCookie(portalCookieName(settings.secure), {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    path: '/',
  });
}

export function portalToken(request: FastifyRequest, settings: SessionCookieSettings): string | undefined {
  return request.cookies[portalCookieName(settings.secure)];
}

/** The broker user of a request that passed the session hook on a portal route. */
export function currentPortalUser(request: FastifyRequest): PortalUser {
  if (!request.portalUser) throw new AppError('UNAUTHENTICATED');
  return request.portalUser;
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
  scope.decorateRequest('portalUser', null);
  scope.decorateRequest('portalSessionId', null);
  scope.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access;
    // The portal's routes know only the portal's cookie; a staff session does not reach them (decision 0069).
    if (access === 'broker') {
      const session = await portalSession(request, reply);
      if (!session) throw new AppError('UNAUTHENTICATED');
      request.portalUser = session.user;
      request.portalSessionId = session.sessionId;
      return;
    }
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
    if (!request.user && access !== 'public') {
      // A broker user signed in to the portal is known, and refused: staff routes are not theirs.
      if (await portalSession(request, reply)) throw new AppError('FORBIDDEN');
      throw new AppError(request.routeOptions.config.unauthenticatedCode ?? 'UNAUTHENTICATED');
    }
  });

  async function portalSession(request: FastifyRequest, reply: FastifyReply) {
    const token = portalToken(request, cookie);
    if (!token) return null;
    const session = await portal.resolveSession(db, auth, token);
    if (!session) clearPortalCookie(reply, cookie);
    return session;
  }
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
