import { EventEmitter } from 'node:events';

/**
 * What changed, for the users who see it (DESIGN §12): raised after a commit, delivered to their open
 * tabs. `userIds` are the users whose pending tasks or mentions (badge, inboxes) may have changed.
 */
export interface FlowChangedEvent {
  type: 'flow-changed';
  flowId: string;
  reservationId: string;
  userIds: string[];
}

/**
 * Events may have been missed (the PostgreSQL listener reconnected): every open tab refreshes what
 * live events keep fresh.
 */
export interface ResyncEvent {
  type: 'resync';
}

/**
 * Sessions ended (decision 0017: sign-out, deactivation, a new password), raised after the commit:
 * their open streams, on every instance, say `session-ended` and close. A session is named by its
 * row's id (the SHA-256 of the cookie token, never the token). With `sessionId`, that session only;
 * without, every session of the user but `exceptSessionId` (an administrator who sets their own
 * password keeps the browser that asked).
 */
export interface SessionsEndedEvent {
  type: 'sessions-ended';
  userId: string;
  sessionId?: string;
  exceptSessionId?: string;
}

/**
 * Something of these users' own inboxes changed with no flow changing (their mentions marked read,
 * decision 0030), raised after the commit: their open tabs refresh their badge and inboxes.
 */
export interface InboxChangedEvent {
  type: 'inbox-changed';
  userIds: string[];
}

/**
 * A project's units changed with no flow changing (created, edited, blocked or unblocked, a price
 * list applied), raised after the commit: every open Disponibilidad and unit picker refreshes.
 */
export interface StockChangedEvent {
  type: 'stock-changed';
  projectId: string;
}

/**
 * The office granted or withdrew an action (decision 0061), raised after the commit: every instance
 * reloads its grants, and open tabs read their session again (menus and buttons follow).
 */
export interface PermissionsChangedEvent {
  type: 'permissions-changed';
}

export type LiveEvent =
  | FlowChangedEvent
  | PermissionsChangedEvent
  | InboxChangedEvent
  | ResyncEvent
  | SessionsEndedEvent
  | StockChangedEvent;

/** Whether the event ends the given session of the given user. */
export function endsSession(
  event: SessionsEndedEvent,
  session: { userId: string; sessionId: string },
): boolean {
  if (event.userId !== session.userId) return false;
  if (event.sessionId !== undefined) return event.sessionId === session.sessionId;
  return event.exceptSessionId !== session.sessionId;
}

export interface EventBus {
  publish(event: LiveEvent): void;
  subscribe(listener: (event: LiveEvent) => void): () => void;
  /** Releases what the bus holds (the PostgreSQL listener's connection). */
  close?(): Promise<void>;
}

/** Subscribers of one process: the in-process bus, and the local side of the PostgreSQL bus. */
export function localListeners() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emit(event: LiveEvent) {
      emitter.emit('event', event);
    },
    subscribe(listener: (event: LiveEvent) => void) {
      emitter.on('event', listener);
      return () => {
        emitter.off('event', listener);
      };
    },
  };
}

/** Events that travel inside this process (the embedded database has one server process). */
export function inProcessEventBus(): EventBus {
  const listeners = localListeners();
  return { publish: listeners.emit, subscribe: listeners.subscribe };
}

/** For scripts and tests that raise no live updates. */
export const silentEventBus: EventBus = { publish() {}, subscribe: () => () => {} };
