import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../shared/errors';
import { AppError } from './app-error';
import { carriesFileHeaders } from './door-gate';

/**
 * Heavy work (issue 52, decision 0050): the downloads that read and write a whole file (exports,
 * errors workbooks, PDFs, holders' exports, backups) and the uploads. Each route that does one says
 * so in its config (`config: { heavy: 'export' }`); an upload is any request whose body is a file
 * (not JSON), whatever its route. Beyond the limits, per user and per instance, the request is
 * refused before any work with a polite 429 and `Retry-After`, and nothing is changed.
 */
export type HeavyKind = 'export' | 'errors' | 'pdf' | 'backup' | 'upload';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is heavy work of this kind: it takes a slot of the heavy-jobs limiter. */
    heavy?: Exclude<HeavyKind, 'upload'>;
  }
}

export interface HeavyLimits {
  /** At once per user, per kind. */
  perUser: Record<HeavyKind, number>;
  /** At once in this instance, downloads of every kind together. */
  downloads: number;
  /** At once in this instance, uploads. */
  uploads: number;
  /** The `Retry-After` of a refusal, in seconds. */
  retryAfterSeconds: number;
}

/**
 * Two at once per user of each kind (an export in CSV and in Excel side by side), six downloads at
 * once in all: on the 2-core office server each one is a chunked loop sharing the one main thread
 * with every other request, and 35 at once held `/api/health` 11.6 s (issue 52).
 */
export const DEFAULT_HEAVY_LIMITS: HeavyLimits = {
  perUser: { export: 2, errors: 1, pdf: 2, backup: 1, upload: 3 },
  downloads: 6,
  uploads: 12,
  retryAfterSeconds: 5,
};

const BUSY: Record<HeavyKind, ErrorCode> = {
  export: 'HEAVY_EXPORT_BUSY',
  errors: 'HEAVY_ERRORS_BUSY',
  pdf: 'HEAVY_PDF_BUSY',
  backup: 'HEAVY_BACKUP_BUSY',
  upload: 'HEAVY_UPLOAD_BUSY',
};

/** The running heavy jobs of one instance, counted per user and kind and in all. */
export class HeavyJobs {
  private readonly running = new Map<string, number>();
  private downloads = 0;
  private uploads = 0;

  constructor(readonly limits: HeavyLimits = DEFAULT_HEAVY_LIMITS) {}

  /** How many jobs of this kind the user runs now. */
  countOf(userId: string, kind: HeavyKind): number {
    return this.running.get(`${kind}:${userId}`) ?? 0;
  }

  /** How many downloads and uploads run now in this instance. */
  totals(): { downloads: number; uploads: number } {
    return { downloads: this.downloads, uploads: this.uploads };
  }

  /**
   * Takes a slot, or throws the kind's (or the instance's) 429. The returned function gives it back
   * (once, however often it is called).
   */
  acquire(userId: string, kind: HeavyKind): () => void {
    const key = `${kind}:${userId}`;
    const mine = this.running.get(key) ?? 0;
    if (mine >= this.limits.perUser[kind]) throw new AppError(BUSY[kind]);
    const upload = kind === 'upload';
    if (upload ? this.uploads >= this.limits.uploads : this.downloads >= this.limits.downloads)
      throw new AppError('HEAVY_SERVER_BUSY');
    this.running.set(key, mine + 1);
    if (upload) this.uploads++;
    else this.downloads++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(key) ?? 1) - 1;
      if (left > 0) this.running.set(key, left);
      else this.running.delete(key);
      if (upload) this.uploads--;
      else this.downloads--;
    };
  }
}

/** A body that is a file (an import, a document, an image, an XML): not JSON and not empty. */
function carriesFile(request: FastifyRequest): boolean {
  return carriesFileHeaders(request.method, request.headers);
}

function take(jobs: HeavyJobs, request: FastifyRequest, reply: FastifyReply, kind: HeavyKind): void {
  const user = request.user;
  if (!user) return; // the session hook refused it already
  let release: () => void;
  try {
    release = jobs.acquire(user.id, kind);
  } catch (error) {
    reply.header('retry-after', String(jobs.limits.retryAfterSeconds));
    throw error;
  }
  // The slot is held until the answer is written or the client goes away (a streamed file included).
  reply.raw.once('close', release);
  reply.raw.once('finish', release);
}

/**
 * The idle timeout (IDLE_TIMEOUT_SECONDS) is for clients that stop sending; a heavy download whose
 * server works longer before its first byte (a backup that scrubs first, at scale) is not idle. Its
 * socket waits without that timeout until the answer is written, then gets it back for keep-alive.
 */
function keepSocketWhileWorking(request: FastifyRequest, reply: FastifyReply): void {
  const socket = request.raw.socket;
  const idleMs = request.server.server.timeout;
  if (!socket || !idleMs) return;
  socket.setTimeout(0);
  const restore = () => {
    if (!socket.destroyed) socket.setTimeout(idleMs);
  };
  reply.raw.once('finish', restore);
}

/**
 * Registers the limiter in the API scope (after the session hook): uploads are counted before their
 * body is read (`preParsing`), downloads once the request is known valid (`preHandler`).
 */
export function registerHeavyJobs(scope: FastifyInstance, jobs: HeavyJobs): void {
  scope.addHook('preParsing', async (request, reply, payload) => {
    if (carriesFile(request)) take(jobs, request, reply, 'upload');
    return payload;
  });
  scope.addHook('preHandler', async (request, reply) => {
    const kind = request.routeOptions.config.heavy;
    if (!kind) return;
    take(jobs, request, reply, kind);
    keepSocketWhileWorking(request, reply);
  });
}
