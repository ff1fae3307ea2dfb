import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Knows when the API writes. Every POST, PUT, PATCH and DELETE counts as a write from the moment it
 * arrives until its reply is produced (its transaction is over by then). `stamp()` is a generation
 * number that changes after every write, or null while a write is in flight.
 *
 * On the embedded database this process is the only writer (the data-directory lock), so a result
 * computed under a stamp stays true for as long as `stamp()` returns that same value: expensive
 * read-only figures may be memoised on it (decision 0011). Nothing else may rely on it.
 */
export class WriteTracker {
  private generation = 0;
  private inFlight = 0;

  stamp(): number | null {
    return this.inFlight === 0 ? this.generation : null;
  }

  begin(): void {
    this.inFlight += 1;
  }

  end(): void {
    this.inFlight -= 1;
    this.generation += 1;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const tracked = new WeakSet<FastifyRequest>();

export function registerWriteTracker(app: FastifyInstance): WriteTracker {
  const tracker = new WriteTracker();
  app.addHook('onRequest', async (request) => {
    if (!WRITE_METHODS.has(request.method)) return;
    tracked.add(request);
    tracker.begin();
  });
  // The reply is produced after the handler's work (and transaction) ended; onResponse is the
  // fallback for a reply that never reaches onSend. Each write ends once.
  const finish = async (request: FastifyRequest) => {
    if (tracked.delete(request)) tracker.end();
  };
  app.addHook('onSend', async (request) => finish(request));
  app.addHook('onResponse', async (request) => finish(request));
  return tracker;
}
