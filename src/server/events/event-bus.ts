import { EventEmitter } from 'node:events';

/**
 * What changed, for the users who see it (DESIGN §12): raised after a commit, delivered to their open
 * tabs. `userIds` are the users whose pending tasks (badge, inboxes) may have changed.
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

export type LiveEvent = FlowChangedEvent | ResyncEvent;

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
