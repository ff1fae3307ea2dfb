import type { FastifyInstance, RouteHandlerMethod } from 'fastify';

/** How long a stop waits for handlers still running before it closes the database under them. */
export const STOP_GRACE_MS = 10_000;

/**
 * Makes `app.close()` wait for the route handlers still running, not only for the open connections.
 * A handler whose client has gone (a closed tab, a proxy's timeout) keeps running: its transaction
 * commits, then it reads back and publishes a live event. Fastify's close waits for sockets alone, so
 * such a handler met a database already closed ("Cannot use a pool after calling end on the pool").
 * Every route's handler is counted from its call to the end of its promise; the close waits for the
 * count to reach nought, at most `graceMs`, then logs what it left. Must be called before any route.
 */
export function waitForRunningHandlersOnClose(app: FastifyInstance, graceMs = STOP_GRACE_MS): void {
  let running = 0;
  let whenIdle: (() => void) | undefined;
  const ended = () => {
    running -= 1;
    if (running === 0) whenIdle?.();
  };
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function countedHandler(this: FastifyInstance, request, reply) {
      running += 1;
      let result: unknown;
      try {
        result = handler.call(this, request, reply);
      } catch (error) {
        ended();
        throw error;
      }
      // A handler returning its reply (`return reply.send(…)`) has sent: the reply is thenable, but
      // waiting on it would wait for the client, not for the handler.
      if (result !== reply && typeof (result as PromiseLike<unknown> | undefined)?.then === 'function')
        return Promise.resolve(result as PromiseLike<unknown>).finally(ended);
      ended();
      return result;
    } as RouteHandlerMethod;
  });
  app.addHook('onClose', async () => {
    if (running === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const idle = new Promise<boolean>((resolve) => {
      whenIdle = () => resolve(true);
      timer = setTimeout(() => resolve(false), graceMs);
    });
    app.log.info({ running }, 'waiting for running requests before closing');
    const allEnded = await idle;
    clearTimeout(timer);
    whenIdle = undefined;
    if (!allEnded) app.log.warn({ running, graceMs }, 'closing with requests still running');
  });
}
