import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { actingAs } from '../db/actor';
import type { Database } from '../db/client';
import type { EventBus } from '../events/event-bus';
import type { GrantsStore } from '../features/permissions/grants-store';
import { currentUser } from './session';

/** What the app gives every service: one database, one clock, one event bus, the office's grants. */
export interface AppDependencies {
  db: Database;
  now: () => Date;
  events: EventBus;
  /** Who holds the catalogue's grantable actions on this instance (decision 0061). */
  permissionGrants: GrantsStore;
}

declare module 'fastify' {
  interface FastifyInstance {
    dependencies: AppDependencies;
  }
}

export function registerDependencies(app: FastifyInstance, dependencies: AppDependencies) {
  app.decorate('dependencies', dependencies);
}

/**
 * The service context of a signed-in request (401 without a session): routes pass it to services.
 * Its database declares the user and the request as the author of every transaction it opens, which
 * the audit trail records (decision 0024).
 */
export function serviceContext(request: FastifyRequest): ServiceContext {
  const { db, now, events } = request.server.dependencies;
  const user = currentUser(request);
  const at = now();
  return { db: actingAs(db, { userId: user.id, requestId: request.id, at }), user, now: at, events };
}
