import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { type Action, can } from '../../shared/permissions';
import type { RegisteredRoute } from '../app';
import type { Access } from '../http/access';
import { TEST_ORIGIN } from './app';

/**
 * The generated matrix of issue 56 (decision 0060): every route the app registered × every principal ×
 * the route's declared rule. A principal is allowed past the gate where the declaration says so — any
 * answer but 401/403 (a 400 of validation counts as past the gate: the gate runs before validation) —
 * and refused (401, 403 or 404) everywhere else.
 */

/**
 * Who knocks: staff of a user type, a deactivated user's old session, nobody, a broker user of the
 * portal (decision 0069) or a deactivated one's old session.
 */
export interface Principal {
  name: string;
  kind: 'staff' | 'deactivated' | 'anonymous' | 'broker' | 'broker-deactivated';
  /** The session cookie it sends, if any. */
  cookie?: string;
  /** The actions a staff principal holds (its session's list). */
  actions: readonly string[];
}

export type Expectation = 'allowed' | 'refused' | 'either';

/** What the declaration promises this principal on this route. */
export function expectationOf(access: Access | undefined, principal: Principal): Expectation {
  if (access === 'public') return 'allowed';
  // The portal's routes take live broker sessions only; broker sessions reach nothing else.
  if (access === 'broker') return principal.kind === 'broker' ? 'allowed' : 'refused';
  if (principal.kind !== 'staff') return 'refused';
  if (access === 'staff') return 'allowed';
  if (access === undefined) return 'refused';
  if ('policy' in access) return 'either';
  const needed = (typeof access.action === 'string' ? [access.action] : access.action) as readonly Action[];
  return needed.every((action) => can(principal, action)) ? 'allowed' : 'refused';
}

const REFUSALS = new Set([401, 403, 404]);
const FAKE_ID = '00000000-0000-4000-8000-000000000000';

/**
 * A request that proves the gate and little else: parameters a well-formed id, an unknown query
 * field and an unknown body field (strict schemas answer 400 past the gate, so nothing is written).
 */
function probe(route: RegisteredRoute) {
  const url = `${route.url.replace(/:[A-Za-z]+/g, FAKE_ID).replace('*', 'x')}?matrixProbe=1`;
  const hasBody = route.method !== 'GET' && route.method !== 'HEAD' && route.method !== 'DELETE';
  return { method: route.method as 'GET', url, payload: hasBody ? { matrixProbe: 1 } : undefined };
}

/** Signing out ends the principal's session: walked last. */
const LAST = new Set(['POST /api/auth/logout', 'POST /api/portal/auth/logout']);

export interface MatrixResult {
  problems: string[];
  /** Requests made (routes × principals). */
  requests: number;
}

/**
 * Walks every route as every principal and returns what disagrees with the declarations: a route
 * without one, an allowed principal refused, a refused principal let through.
 */
export async function walkMatrix(
  app: { inject(options: InjectOptions): Promise<LightMyRequestResponse> },
  routes: readonly RegisteredRoute[],
  principals: readonly Principal[],
): Promise<MatrixResult> {
  const problems: string[] = [];
  const walked = routes
    .filter((route) => route.url.startsWith('/api/') && route.method !== 'HEAD' && route.method !== 'OPTIONS')
    .sort((a, b) => Number(LAST.has(`${a.method} ${a.url}`)) - Number(LAST.has(`${b.method} ${b.url}`)));
  let requests = 0;
  for (const route of walked) {
    const name = `${route.method} ${route.url}`;
    if (route.access === undefined) problems.push(`${name} declares no access`);
    for (const principal of principals) {
      const expected = expectationOf(route.access, principal);
      const response = await app.inject({
        ...probe(route),
        headers: { origin: TEST_ORIGIN, ...(principal.cookie ? { cookie: principal.cookie } : {}) },
      });
      requests += 1;
      const status = response.statusCode;
      if (expected === 'allowed' && (status === 401 || status === 403))
        problems.push(`${name}: ${principal.name} refused (${status}) but the declaration allows it`);
      if (expected === 'refused' && !REFUSALS.has(status))
        problems.push(`${name}: ${principal.name} let through (${status}) but the declaration refuses it`);
      // Issue 58: a broker session on a staff route is known and refused (403), not taken for signed out.
      if (
        principal.kind === 'broker' &&
        route.access !== 'public' &&
        route.access !== 'broker' &&
        status !== 403
      )
        problems.push(`${name}: ${principal.name} answered ${status}, not 403`);
      if (expected === 'either' && principal.kind === 'staff' && status === 401)
        problems.push(`${name}: ${principal.name} treated as signed out (401)`);
    }
  }
  return { problems, requests };
}
