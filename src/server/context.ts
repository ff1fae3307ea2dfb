import type { SessionUser } from '../shared/schemas/auth';
import type { Database } from './db/client';
import type { EventBus } from './events/event-bus';

/**
 * What every service function receives first (docs/code-style.md): the database, the signed-in user,
 * the request's instant (one clock per request; tests fix it) and where live updates go.
 */
export interface ServiceContext {
  db: Database;
  user: SessionUser;
  now: Date;
  events: EventBus;
}

/** Reads that need no user (health) or no clock take only what they use. */
export type ReadContext = Pick<ServiceContext, 'db'> & Partial<Omit<ServiceContext, 'db'>>;
