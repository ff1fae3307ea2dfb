import type { FastifyInstance, RouteOptions } from 'fastify';
import type { ErrorCode } from '../../shared/errors';
import { type Action, can, isAction } from '../../shared/permissions';
import type { PolicyAction } from '../../shared/policies';
import { AppError } from './app-error';

/**
 * Who may call a route, declared in its options (issue 56, DESIGN §21, decision 0060):
 * - `'public'`: anyone, without a session (sign-in, registration, health);
 * - `'staff'`: any signed-in staff user;
 * - `{ action }`: a staff user who holds this action of the catalogue (every one of a list) — refused
 *   here, before the body is parsed or validated, with `refusal` (the route's own words) or 'No tiene
 *   permisos…';
 * - `{ policy }`: any signed-in staff user reaches the service, which decides on the record through
 *   the same catalogue (`allow` of shared/policies.ts, the workflow engine's authority, or an action
 *   needed only by some records — a reservation beyond the commercial policy).
 * - `'broker'`: a broker user of the portal (issue 58, decision 0069), whose broker the session names;
 *   no staff session reaches it, and no portal session reaches any other kind (403).
 */
export type Access =
  | 'public'
  | 'staff'
  | 'broker'
  | { action: Action | readonly Action[]; refusal?: ErrorCode }
  | { policy: PolicyAction | 'flows.authority' | Action };

/** The flows' task commands: the engine's authority decides on the flow's state (decision 0026). */
export const FLOW_AUTHORITY = { policy: 'flows.authority' } as const satisfies Access;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route (see `Access`); a route of the API without it stops the app from starting. */
    access?: Access;
  }
}

function isAccess(value: unknown): value is Access {
  if (value === 'public' || value === 'staff' || value === 'broker') return true;
  if (typeof value !== 'object' || value === null) return false;
  if ('action' in value) {
    const actions: unknown[] = Array.isArray(value.action) ? value.action : [value.action];
    return actions.length > 0 && actions.every((action) => typeof action === 'string' && isAction(action));
  }
  return 'policy' in value && typeof value.policy === 'string';
}

/** The routes of `scope` registered from now on must declare their access, or registering them fails. */
export function requireAccessDeclarations(scope: FastifyInstance) {
  scope.addHook('onRoute', (route: RouteOptions) => {
    if (!isAccess(route.config?.access)) {
      const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
      throw new Error(
        `${methods} ${route.url} declares no access: give it config.access ('public', 'staff', 'broker', { action } or { policy }) — decision 0060`,
      );
    }
  });
}

/**
 * Refuses a route's declared action to a user who does not hold it, after the session hook and before
 * anything else reads the request (a 400 from validation must never hide a missing permission). One
 * property read and one array search per request: the session already carries the user's actions.
 */
export function registerAccessGate(scope: FastifyInstance) {
  // A callback hook, not an async one: no promise per request for a check that never waits.
  scope.addHook('onRequest', (request, _reply, done) => {
    const access = request.routeOptions.config.access;
    const user = request.user;
    if (typeof access !== 'object' || !('action' in access) || !user) return done();
    const needed: readonly Action[] = typeof access.action === 'string' ? [access.action] : access.action;
    done(
      needed.every((action) => can(user, action)) ? undefined : new AppError(access.refusal ?? 'FORBIDDEN'),
    );
  });
}
