import { useEffect, useSyncExternalStore } from 'react';
import { connection } from './connection';

/**
 * The tab's live updates (decision 0021): one EventSource on /api/events, opened while a signed-in
 * screen is shown. EventSource reconnects by itself after a drop (the server says how soon); while
 * the stream is down, `useLiveEventsConnected()` is false and the screens that depend on it fall
 * back to refreshing on a timer (the bell badge every 60 s). When the server says the session ended
 * (signed out, deactivated, a new password) the stream is closed for good: reconnecting would only be
 * refused.
 */

export interface FlowChanged {
  flowId: string;
  reservationId: string;
  /** The signed-in user's pending tasks or mentions may have changed (badge, inboxes). */
  mine: boolean;
}

export interface LiveEventHandlers {
  flowChanged(event: FlowChanged): void;
  /** Only the signed-in user's own inbox changed (their mentions read in another tab). */
  inboxChanged(): void;
  /** A project's units changed (blocked, edited, priced): its Disponibilidad and pickers refresh. */
  stockChanged(): void;
  /** The office granted or withdrew an action: the session (its actions) is read again. */
  permissionsChanged(): void;
  /** Events may have been missed (the stream came back, or the server's listener did). */
  resync(): void;
  /** The session ended: the stream is closed and stays so; the session check decides what next. */
  sessionEnded(): void;
}

export const LIVE_EVENTS_URL = '/api/events';

type Listener = () => void;

export interface LiveEventsConnection {
  connected(): boolean;
  subscribe(listener: Listener): () => void;
  close(): void;
  /** The session is being ended by this tab (a sign-out): its 'session-ended' needs no check. */
  expectEnd(expected: boolean): void;
}

/**
 * Opens the stream. `ready` (the server's first event) marks it connected; an error marks it down
 * until the next `ready`. Every `ready` after the first resyncs: what happened meanwhile was missed.
 */
export function openLiveEvents(
  handlers: LiveEventHandlers,
  create: (url: string) => EventSource = (url) => new EventSource(url),
  // Asked once per loss; while the monitor already probes (offline) it is left to its back-off.
  onLost: () => void = () => {
    if (connection.state() === 'online') void connection.check();
  },
): LiveEventsConnection {
  const source = create(LIVE_EVENTS_URL);
  let connected = false;
  let endExpected = false;
  let readyBefore = false;
  const listeners = new Set<Listener>();
  const set = (next: boolean) => {
    if (connected === next) return;
    connected = next;
    for (const listener of listeners) listener();
  };
  source.addEventListener('ready', () => {
    set(true);
    if (readyBefore) handlers.resync();
    readyBefore = true;
  });
  source.addEventListener('flow-changed', (event) => {
    try {
      handlers.flowChanged(JSON.parse((event as MessageEvent<string>).data) as FlowChanged);
    } catch (error) {
      console.error('Evento en vivo ilegible', error);
    }
  });
  source.addEventListener('inbox-changed', () => handlers.inboxChanged());
  source.addEventListener('stock-changed', () => handlers.stockChanged());
  source.addEventListener('permissions-changed', () => handlers.permissionsChanged());
  source.addEventListener('resync', () => handlers.resync());
  source.addEventListener('session-ended', () => {
    source.close();
    set(false);
    // This tab signing out said it first: there is no session to check (it would only answer 401).
    if (!endExpected) handlers.sessionEnded();
  });
  // A drop (EventSource tries again by itself) or a refusal (it gives up: the timer takes over). A
  // stream that was up and broke says the server may be gone while nobody clicks: the connection
  // monitor is asked at once, and probes with its back-off until the server answers (issue 28).
  source.addEventListener('error', () => {
    const wasConnected = connected;
    set(false);
    if (wasConnected) onLost();
  });
  return {
    connected: () => connected,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      source.close();
      set(false);
    },
    expectEnd(expected) {
      endExpected = expected;
    },
  };
}

// The tab's one connection, shared by every component that asks whether it is up.
let current: LiveEventsConnection | null = null;
const stateListeners = new Set<Listener>();
const notify = () => {
  for (const listener of stateListeners) listener();
};

/** Keeps the tab's stream open while the calling component is mounted (the signed-in shell). */
export function useLiveEvents(handlers: LiveEventHandlers) {
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const stream = openLiveEvents(handlers);
    current = stream;
    const unsubscribe = stream.subscribe(notify);
    notify();
    return () => {
      unsubscribe();
      stream.close();
      if (current === stream) current = null;
      notify();
    };
  }, [handlers]);
}

/**
 * This tab is signing out (`useSignOut`): the stream's 'session-ended' then closes it without
 * asking who is signed in, the sign-out's own news. `cancel()` when the sign-out failed.
 */
export function expectSessionEnd(): { cancel: () => void } {
  const stream = current;
  stream?.expectEnd(true);
  return { cancel: () => stream?.expectEnd(false) };
}

/** Whether live updates arrive now (false: refresh on a timer instead). */
export function useLiveEventsConnected(): boolean {
  return useSyncExternalStore(
    (listener) => {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    () => current?.connected() ?? false,
  );
}
