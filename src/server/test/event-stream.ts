import type { FastifyInstance } from 'fastify';
import { TEST_ORIGIN } from './app';

export interface StreamEvent {
  type: string;
  data: Record<string, unknown>;
}

/** How long a test waits for an event before it fails (never a timing assertion: a bound). */
const WAIT_MS = 15_000;

/**
 * A browser tab's /api/events stream on a listening app: `next(type)` resolves with the next event of
 * that type (earlier ones of other types are passed over), `close()` leaves like a closed tab.
 */
export async function openEventStream(app: FastifyInstance, cookie: string | undefined) {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app must listen on a port');
  const controller = new AbortController();
  const response = await fetch(`http://127.0.0.1:${address.port}/api/events`, {
    headers: { origin: TEST_ORIGIN, accept: 'text/event-stream', ...(cookie ? { cookie } : {}) },
    signal: controller.signal,
  });
  const queue: StreamEvent[] = [];
  const waiting: (() => void)[] = [];
  let ended = false;
  const decoder = new TextDecoder();
  let buffer = '';
  const pump = async () => {
    const reader = response.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let boundary = buffer.indexOf('\n\n');
        while (boundary >= 0) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          const type = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (type) queue.push({ type, data: data ? JSON.parse(data) : {} });
          boundary = buffer.indexOf('\n\n');
        }
        for (const wake of waiting.splice(0)) wake();
      }
    } catch {
      // Aborted by close().
    } finally {
      ended = true;
      for (const wake of waiting.splice(0)) wake();
    }
  };
  const pumped = response.ok ? pump() : Promise.resolve();

  return {
    response,
    /** The next event of the type, or an error if the stream ends or nothing comes in time. */
    async next(type: string, match: (event: StreamEvent) => boolean = () => true): Promise<StreamEvent> {
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const index = queue.findIndex((event) => event.type === type && match(event));
        if (index >= 0) return queue.splice(index, 1)[0]!;
        if (ended) throw new Error(`the stream ended before a '${type}' event`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no '${type}' event within ${WAIT_MS} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    /** Events received and not yet taken by `next`. */
    pending: () => [...queue],
    /** Resolves when the server ended the stream. */
    ended: () => pumped.then(() => ended),
    close() {
      controller.abort();
      return pumped;
    },
  };
}
