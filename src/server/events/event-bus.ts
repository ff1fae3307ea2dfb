import { EventEmitter } from 'node:events';

/**
 * What changed, for the users who see it (DESIGN §12): raised after a commit, delivered to their open
 * tabs. `userIds` are the users whose pending tasks (badge, inboxes) may have changed.
 */
export interface LiveEvent {
  type: 'flow-changed';
  flowId: string;
  reservationId: string;
  userIds: string[];
}

export interface EventBus {
  publish(event: LiveEvent): void;
  subscribe(listener: (event: LiveEvent) => void): () => void;
}

/** Events that travel inside this process (the embedded database has one server process). */
export function inProcessEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(event) {
      emitter.emit('event', event);
    },
    subscribe(listener) {
      emitter.on('event', listener);
      return () => emitter.off('event', listener);
    },
  };
}

/** For scripts and tests that raise no live updates. */
export const silentEventBus: EventBus = { publish() {}, subscribe: () => () => {} };
