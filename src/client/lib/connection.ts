/**
 * Whether the server answers, known to every screen (spec part 1 §9). Any request that cannot reach
 * the server (or a 502/503/504) marks the connection lost at once — the banner shows — and starts
 * probing /api/health with backoff: 1, 2, 5, then every 10 seconds, one probe at a time, however
 * many requests failed. The first answer (a probe, or any other request) marks it back, and the
 * listeners (the query cache) reload what the screens show.
 */
export type ConnectionState = 'online' | 'offline';

/** Delays between probes while the server does not answer (ms). */
export const PROBE_DELAYS_MS = [1_000, 2_000, 5_000, 10_000] as const;

type Listener = () => void;

export interface ConnectionMonitor {
  state(): ConnectionState;
  /** A request could not reach the server. */
  reportFailure(): void;
  /** A request got an answer from the server (of any status but 502-504). */
  reportAnswer(): void;
  subscribe(listener: Listener): () => void;
  /** Called once each time the connection comes back. */
  onRestored(listener: Listener): () => void;
  /** Resolves when the server answers (at once when it already does). */
  whenOnline(): Promise<void>;
  /** Asks the server now; reports the outcome like any request and says whether it answered. */
  check(): Promise<boolean>;
}

export function createConnectionMonitor(
  probe: () => Promise<boolean>,
  timers: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout } = globalThis,
): ConnectionMonitor {
  let state: ConnectionState = 'online';
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let probing = false;
  const listeners = new Set<Listener>();
  const restoredListeners = new Set<Listener>();
  let waiters: (() => void)[] = [];

  const set = (next: ConnectionState) => {
    if (state === next) return;
    state = next;
    for (const listener of listeners) listener();
    if (next === 'online') {
      for (const listener of restoredListeners) listener();
      const ready = waiters;
      waiters = [];
      for (const resolve of ready) resolve();
    }
  };

  const schedule = () => {
    if (timer !== null || probing || state === 'online') return;
    const delay = PROBE_DELAYS_MS[Math.min(attempt, PROBE_DELAYS_MS.length - 1)]!;
    attempt += 1;
    timer = timers.setTimeout(async () => {
      timer = null;
      probing = true;
      const answered = await probe().catch(() => false);
      probing = false;
      if (answered) monitor.reportAnswer();
      else schedule();
    }, delay);
  };

  const monitor: ConnectionMonitor = {
    state: () => state,
    reportFailure() {
      set('offline');
      schedule();
    },
    reportAnswer() {
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
      attempt = 0;
      set('online');
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onRestored(listener) {
      restoredListeners.add(listener);
      return () => restoredListeners.delete(listener);
    },
    whenOnline() {
      if (state === 'online') return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    async check() {
      const answered = await probe().catch(() => false);
      if (answered) monitor.reportAnswer();
      else monitor.reportFailure();
      return answered;
    },
  };
  return monitor;
}

/** The app's one monitor: probes /api/health (which also checks the database). */
export const connection = createConnectionMonitor(async () => {
  const response = await fetch('/api/health', { credentials: 'same-origin', cache: 'no-store' });
  return response.ok;
});
