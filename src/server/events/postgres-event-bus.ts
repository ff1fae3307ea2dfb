import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type EventBus, type FlowChangedEvent, type LiveEvent, localListeners } from './event-bus';

/** The channel every server instance of one database listens on. */
export const LIVE_EVENTS_CHANNEL = 'inmoflujo_live_events';

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more: larger events travel in parts. */
const MAX_PAYLOAD_BYTES = 7_000;

/** Waits before listening again after the connection was lost (then the last, repeatedly). */
const RECONNECT_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000];

interface Envelope {
  /** The instance that raised the event: it delivered it to its own streams already. */
  from: string;
  event: LiveEvent;
}

export interface PostgresEventBusOptions {
  connectionString: string;
  /** Sends one NOTIFY (through the app's pool: a statement of its own, after the commit). */
  notify(channel: string, payload: string): Promise<void>;
  log: { warn(object: object, message: string): void; info(object: object, message: string): void };
}

/**
 * Live events across server instances on one PostgreSQL database (decision 0021): an event is
 * delivered at once to this instance's streams and sent with NOTIFY; one LISTEN connection per
 * instance (not per stream) hears the others' and delivers them here. When that connection drops it
 * listens again with growing waits and tells every open tab to refresh (events of the gap are lost;
 * the tabs' periodic refresh covers the time it is down).
 */
export async function postgresEventBus(options: PostgresEventBusOptions): Promise<EventBus> {
  const instanceId = randomUUID();
  const local = localListeners();
  let client: pg.Client | null = null;
  let closed = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;

  const hear = (message: pg.Notification) => {
    if (message.channel !== LIVE_EVENTS_CHANNEL || !message.payload) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message.payload) as Envelope;
    } catch {
      return;
    }
    if (envelope.from !== instanceId) local.emit(envelope.event);
  };

  const listen = async (): Promise<void> => {
    const connection = new pg.Client({ connectionString: options.connectionString });
    connection.on('notification', hear);
    connection.on('error', (error) => {
      options.log.warn({ err: error }, 'live events: the LISTEN connection failed');
      lost(connection);
    });
    connection.on('end', () => lost(connection));
    await connection.connect();
    await connection.query(`listen ${LIVE_EVENTS_CHANNEL}`);
    if (closed) {
      await connection.end();
      return;
    }
    client = connection;
    const reconnected = attempt > 0;
    attempt = 0;
    if (reconnected) {
      options.log.info({}, 'live events: listening again');
      local.emit({ type: 'resync' });
    }
  };

  const lost = (connection: pg.Client) => {
    if (client !== connection || closed) return;
    client = null;
    connection.removeAllListeners('notification');
    connection.end().catch(() => {});
    schedule();
  };

  const schedule = () => {
    if (closed || retry) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    attempt += 1;
    retry = setTimeout(() => {
      retry = undefined;
      listen().catch((error) => {
        options.log.warn({ err: error, attempt }, 'live events: could not listen again');
        schedule();
      });
    }, delay);
    retry.unref();
  };

  // The first connection must work: a server that cannot listen starts with the problem visible.
  await listen();

  return {
    publish(event) {
      local.emit(event);
      for (const part of envelopes(event)) {
        options
          .notify(LIVE_EVENTS_CHANNEL, JSON.stringify({ from: instanceId, event: part } satisfies Envelope))
          .catch((error) => options.log.warn({ err: error }, 'live events: NOTIFY failed'));
      }
    },
    subscribe: local.subscribe,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const connection = client;
      client = null;
      await connection?.end().catch(() => {});
    },
  };
}

/** The event as NOTIFY payloads under PostgreSQL's limit: its users split over several when needed. */
export function envelopes(event: LiveEvent): LiveEvent[] {
  if (event.type !== 'flow-changed') return [event];
  const size = Buffer.byteLength(JSON.stringify({ from: randomUUID(), event }));
  if (size < MAX_PAYLOAD_BYTES) return [event];
  // A user id is 36 characters and its quotes and comma 3: parts that fit with room for the rest.
  const perPart = Math.max(1, Math.floor((MAX_PAYLOAD_BYTES - 400) / 39));
  const parts: FlowChangedEvent[] = [];
  for (let from = 0; from < event.userIds.length; from += perPart) {
    parts.push({ ...event, userIds: event.userIds.slice(from, from + perPart) });
  }
  return parts;
}
