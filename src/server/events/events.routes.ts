import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import * as auth from '../features/auth/auth.service';
import { AppError } from '../http/app-error';
import type { DoorGate } from '../http/door-gate';
import { currentUser } from '../http/session';
import { endsSession, type LiveEvent } from './event-bus';

/** A comment line this often keeps proxies and load balancers from closing a quiet stream. */
export const HEARTBEAT_MS = 25_000;
/**
 * A stream ends after this long and the browser opens a new one (EventSource reconnects by
 * itself), so a session that expired stops receiving events within this time (one that was ended —
 * signed out, deactivated, a new password — stops at once: `sessions-ended`).
 */
export const STREAM_LIFETIME_MS = 30 * 60_000;
/** How long the browser waits before reconnecting a dropped stream. */
const RETRY_MS = 2_000;
/** A tab that does not read its stream is cut off rather than buffered without end. */
const MAX_BUFFERED_BYTES = 1_000_000;

/**
 * Streams one session holds at once (a tab each; browsers hold six connections per server over
 * HTTP/1.1). One more is refused (429): that tab refreshes on its timer instead. One session opening
 * 3,000 streams held every other request 4.9 s (issue 52).
 */
export const MAX_STREAMS_PER_SESSION = 8;

export interface EventsRouteOptions {
  heartbeatMs?: number;
  lifetimeMs?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The live-events stream: counted per session cookie by `registerEventStreamGate`. */
    eventStream?: boolean;
  }
}

/**
 * Counts the event-stream requests of each session cookie, from their arrival to the end of their
 * answer (the stream's end, or a refusal), and refuses one beyond the session's limit with a 429
 * before anything else is done. The server's door (http/door-gate.ts, decision 0062) counts and
 * refuses them before Fastify sees them; this hook, before the session hook, counts those that reach
 * the route another way (another spelling of the path, a test's injected request) — with the same
 * counter, so that none is counted twice.
 */
export function registerEventStreamGate(
  scope: FastifyInstance,
  tokenOf: (request: FastifyRequest) => string | undefined,
  gate: DoorGate,
): void {
  scope.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.eventStream !== true) return;
    const token = tokenOf(request);
    if (!token) return; // the session hook answers 401
    if (!gate.enter('stream', token, request.raw, reply.raw)) throw new AppError('EVENT_STREAMS_BUSY');
  });
}

/**
 * GET /api/events: one server-sent events stream per tab (decision 0021), authenticated by the
 * session like every /api route. It says `flow-changed` for every flow changed anywhere (an open
 * flow screen of that flow refreshes; `mine` when the user's pending tasks or mentions may have
 * changed: badge and inboxes refresh), `inbox-changed` when only the user's own inbox did (their
 * mentions marked read in another tab, decision 0030) and `resync` when events may have been missed. Heartbeats keep it open; it
 * is released when the tab goes away or the server closes, and ends with `session-ended` when its
 * session ends (the tab does not reconnect: its session check sends the user to sign in).
 */
export const eventsRoutes: FastifyPluginAsync<EventsRouteOptions> = async (app, options) => {
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const lifetimeMs = options.lifetimeMs ?? STREAM_LIFETIME_MS;
  const open = new Set<() => void>();
  // Before the server waits for its connections to end: open streams would keep it waiting.
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  // The stream takes no parameters (an unknown one is refused like on every route).
  app.get(
    '/',
    {
      config: { access: 'staff', eventStream: true },
      schema: { tags: ['events'], querystring: z.strictObject({}) },
    },
    (request, reply) => {
      const user = currentUser(request);
      const session = { userId: user.id, sessionId: request.sessionId! };
      // Browsers' EventSource asks for a stream; anything else (a link, a script) gets an answer, not
      // a connection held open.
      if (!(request.headers.accept ?? '').includes('text/event-stream'))
        throw new AppError('EVENT_STREAM_ONLY');
      const { events, db } = request.server.dependencies;
      const res: ServerResponse = reply.raw;
      // The reply's headers so far (security headers) go out with the stream's own.
      const headers = { ...(reply.getHeaders() as Record<string, string>) };
      reply.hijack();
      res.writeHead(200, {
        ...headers,
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        // nginx and similar proxies pass each event on at once instead of buffering.
        'X-Accel-Buffering': 'no',
      });
      res.flushHeaders();

      const send = (text: string) => {
        if (res.writableEnded) return;
        if (res.writableLength > MAX_BUFFERED_BYTES) {
          end();
          return;
        }
        res.write(text);
      };
      /** The session ended: the tab is told so (it does not reconnect), then the stream closes. */
      const endSession = () => {
        send('event: session-ended\ndata: {}\n\n');
        end();
      };
      const unsubscribe = events.subscribe((event: LiveEvent) => {
        if (event.type === 'sessions-ended') {
          if (endsSession(event, session)) endSession();
          return;
        }
        if (event.type === 'resync') {
          send('event: resync\ndata: {}\n\n');
          return;
        }
        if (event.type === 'inbox-changed') {
          if (event.userIds.includes(user.id)) send('event: inbox-changed\ndata: {}\n\n');
          return;
        }
        if (event.type === 'permissions-changed') {
          send('event: permissions-changed\ndata: {}\n\n');
          return;
        }
        if (event.type === 'stock-changed') {
          send(`event: stock-changed\ndata: ${JSON.stringify({ projectId: event.projectId })}\n\n`);
          return;
        }
        const data = {
          flowId: event.flowId,
          reservationId: event.reservationId,
          mine: event.userIds.includes(user.id),
        };
        send(`event: flow-changed\ndata: ${JSON.stringify(data)}\n\n`);
      });
      const heartbeat = setInterval(() => send(': latido\n\n'), heartbeatMs);
      const lifetime = setTimeout(() => end(), lifetimeMs);
      let ended = false;
      function end() {
        if (ended) return;
        ended = true;
        open.delete(end);
        unsubscribe();
        clearInterval(heartbeat);
        clearTimeout(lifetime);
        if (!res.writableEnded) res.end();
      }
      open.add(end);
      request.raw.on('close', end);
      res.on('close', end);
      res.on('error', end);
      // The first event says the stream is open: the tab stops its periodic refresh.
      send(`retry: ${RETRY_MS}\nevent: ready\ndata: {}\n\n`);
      // A session ended between the session hook's look-up and the subscription above was announced
      // before this stream listened: one look once it listens leaves no gap.
      auth.sessionIsLive(db, session.sessionId).then(
        (live) => {
          if (!live) endSession();
        },
        (error: unknown) => {
          if (!ended) request.log.warn({ err: error }, 'live events: could not check the session');
        },
      );
    },
  );
};
