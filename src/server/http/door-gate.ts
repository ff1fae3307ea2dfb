import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorCode, errorCatalog } from '../../shared/errors';

/**
 * The door before Fastify (issue 52, decision 0062). One session opening 3,000 event streams, or
 * 200 uploads that trickle, was refused by the limits of 0050 only after Fastify had routed, run its
 * hooks, built an error and (for an upload) looked the session up in the database: thousands of those
 * held every other user's request for seconds. Here, on the server's own 'request' event, the excess
 * of a session (known by its cookie, no database) is refused with a few bytes before Fastify sees it,
 * and an address holding more connections than any office could is cut at the 'connection' event.
 *
 * The Fastify hooks stay (a request reaching a route by another spelling of its path, and tests that
 * inject without a socket, are counted there): a request counted here is marked and not counted twice.
 */

export interface DoorLimits {
  /** Event streams one session holds at once (0050's MAX_STREAMS_PER_SESSION). */
  streamsPerSession: number;
  /** Uploads one session sends at once (0050's per-user upload limit: a user has ≥ their session's). */
  uploadsPerSession: number;
  /** Open connections from one address; 0 = no cap (behind a reverse proxy every connection is the proxy's). */
  connectionsPerAddress: number;
  /** The `Retry-After` of an upload's refusal, in seconds. */
  retryAfterSeconds: number;
}

/** The event stream's path (events.routes.ts under /api) as browsers request it. */
const STREAM_PATH = /^\/api\/events\/?(?:\?|$)/;
/** How long a refused upload's connection may stay half-closed before it is destroyed. */
const CLOSE_GRACE_MS = 2_000;
/** The raw request was counted by the door: the Fastify hook leaves it alone. */
const counted = new WeakSet<IncomingMessage>();

/** A body that is a file (an import, a document, an image, an XML): not JSON and not empty. */
export function carriesFileHeaders(method: string | undefined, headers: IncomingHttpHeaders): boolean {
  if (method !== 'POST' && method !== 'PUT') return false;
  const type = headers['content-type'];
  if (!type || /^application\/json\s*(?:;|$)/i.test(type)) return false;
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length']) > 0;
}

/** The value of one cookie in a Cookie header, without parsing the others. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    try {
      return decodeURIComponent(value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value);
    } catch {
      return value;
    }
  }
  return undefined;
}

type Kind = 'stream' | 'upload';

/** Counts what each session holds at once, per kind, from a request's arrival to its answer's end. */
export class DoorGate {
  private readonly held = new Map<string, number>();
  private readonly connections = new Map<string, number>();
  /** Refusals so far, by reason (read by tests and the bench's log). */
  readonly refused = { stream: 0, upload: 0, connection: 0 };

  constructor(
    readonly cookieName: string,
    readonly limits: DoorLimits,
  ) {}

  private limitOf(kind: Kind): number {
    return kind === 'stream' ? this.limits.streamsPerSession : this.limits.uploadsPerSession;
  }

  /**
   * Counts the request for its session, or answers false when the session already holds its limit
   * of this kind. Counted once per request (the door and the Fastify hook may both ask); the place is
   * given back when the answer ends or the client goes away.
   */
  enter(kind: Kind, token: string, req: IncomingMessage, res: ServerResponse): boolean {
    if (counted.has(req)) return true;
    const key = `${kind}:${token}`;
    const count = this.held.get(key) ?? 0;
    if (count >= this.limitOf(kind)) {
      this.refused[kind]++;
      return false;
    }
    counted.add(req);
    this.held.set(key, count + 1);
    res.once('close', () => {
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    });
    return true;
  }

  /** How many requests of this kind the session holds now. */
  countOf(kind: Kind, token: string): number {
    return this.held.get(`${kind}:${token}`) ?? 0;
  }

  /**
   * The server's request listener: a session's excess stream or upload refused here with its 429,
   * else the request goes on to Fastify.
   */
  guard(handler: (req: IncomingMessage, res: ServerResponse) => void) {
    return (req: IncomingMessage, res: ServerResponse) => {
      const kind: Kind | null =
        req.method === 'GET' && STREAM_PATH.test(req.url ?? '')
          ? 'stream'
          : carriesFileHeaders(req.method, req.headers)
            ? 'upload'
            : null;
      if (kind) {
        const token = cookieValue(req.headers.cookie, this.cookieName);
        if (token && !this.enter(kind, token, req, res)) {
          if (kind === 'stream') refuse(res, 'EVENT_STREAMS_BUSY', {});
          else {
            // The body is not read: the connection cannot carry another request after it. Ended once
            // the answer is out (a trickling client would otherwise keep it until the request timeout),
            // and destroyed shortly after if the client does not close its side.
            refuse(res, 'HEAVY_UPLOAD_BUSY', {
              'retry-after': String(this.limits.retryAfterSeconds),
              connection: 'close',
            });
            res.once('finish', () => {
              req.socket.end();
              setTimeout(() => req.socket.destroy(), CLOSE_GRACE_MS).unref();
            });
          }
          return;
        }
      }
      handler(req, res);
    };
  }

  /** Caps the open connections of one address (when a cap is set). */
  watchConnections(server: Server): void {
    const cap = this.limits.connectionsPerAddress;
    if (cap <= 0) return;
    server.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? '';
      const open = this.connections.get(address) ?? 0;
      if (open >= cap) {
        this.refused.connection++;
        socket.destroy();
        return;
      }
      this.connections.set(address, open + 1);
      socket.once('close', () => {
        const left = (this.connections.get(address) ?? 1) - 1;
        if (left > 0) this.connections.set(address, left);
        else this.connections.delete(address);
      });
    });
  }
}

/** The same answer the error handler gives (code and Spanish message), in a few bytes. */
function refuse(res: ServerResponse, code: ErrorCode, headers: Record<string, string>): void {
  const { status, message } = errorCatalog[code];
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(body);
}

/** Fastify's own HTTP/1.1 server (getServerInstance in fastify/lib/server.js), with the door in front. */
export function serverWithDoor(
  gate: DoorGate,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: {
    http?: object;
    keepAliveTimeout?: number;
    requestTimeout?: number;
    connectionTimeout?: number;
  },
): Server {
  const server = createServer(options.http ?? {}, gate.guard(handler));
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
  gate.watchConnections(server);
  return server;
}
