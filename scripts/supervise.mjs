// The office stays up (issue 52, decision 0051): Node's own `node:cluster` primary runs the server as
// one worker and starts it again when it dies, with back-off. This module is the PRIMARY's only: the
// worker runs another file (`exec`, the server's entry), never this one, so a worker can never start
// workers of its own (an earlier attempt re-ran its supervising code in every child).
import cluster from 'node:cluster';

/** A worker that says this before it exits (the data directory is another server's) is not restarted. */
export const DO_NOT_RESTART = 'inmoflujo:do-not-restart';

export const SUPERVISOR_DEFAULTS = {
  /** The first wait before a restart; doubled after each crash in a row, up to `maxBackoffMs`. */
  minBackoffMs: 500,
  maxBackoffMs: 30_000,
  /** A worker that served this long without dying is healthy: the next crash waits `minBackoffMs`. */
  stableMs: 60_000,
  /** More restarts than this within `windowMs` and the supervisor gives up (exit 1: systemd decides). */
  maxRestarts: 10,
  windowMs: 10 * 60_000,
  /** How long a stop waits for the worker to close cleanly before killing it. */
  stopGraceMs: 40_000,
};

function line(message) {
  console.error(`${new Date().toISOString()} [supervisor] ${message}`);
}

/**
 * Runs `exec` as the one worker and keeps it running. SIGINT and SIGTERM are passed on to the worker
 * (which closes the database cleanly); the supervisor exits with the worker's code once it is gone.
 * Returns a promise of the supervisor's own exit code (for tests that run it in-process; the CLI
 * exits with it).
 */
export function supervise(options) {
  if (!cluster.isPrimary) {
    throw new Error('supervise() runs only in the primary process; a worker must never call it.');
  }
  const settings = { ...SUPERVISOR_DEFAULTS, ...options };
  // One worker: the kernel hands it connections directly (no passing through the primary).
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({ exec: settings.exec, execArgv: settings.execArgv ?? process.execArgv, args: [] });

  let worker = null;
  let stopping = false;
  let backoffMs = settings.minBackoffMs;
  let restartTimer = null;
  /** When each restart happened, within the window. */
  const restarts = [];
  let finish;
  const finished = new Promise((resolve) => {
    finish = resolve;
  });

  const start = (restart = false) => {
    restartTimer = null;
    const startedAt = Date.now();
    let doNotRestart = false;
    // A restart says so: the server then skips its start-up housekeeping (serving comes first).
    worker = cluster.fork(restart ? { INMOFLUJO_RESTART: '1' } : {});
    worker.on('message', (message) => {
      if (message === DO_NOT_RESTART) doNotRestart = true;
    });
    worker.on('exit', (code, signal) => {
      worker = null;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (stopping) {
        line(`the server stopped (${how}).`);
        finish(code ?? 0);
        return;
      }
      if (doNotRestart || (code === 0 && !signal)) {
        line(`the server stopped by itself (${how}); not restarted.`);
        finish(code ?? 1);
        return;
      }
      const now = Date.now();
      if (now - startedAt >= settings.stableMs) backoffMs = settings.minBackoffMs;
      while (restarts.length > 0 && now - restarts[0] > settings.windowMs) restarts.shift();
      if (restarts.length >= settings.maxRestarts) {
        line(
          `the server died (${how}) after ${restarts.length} restarts within ` +
            `${Math.round(settings.windowMs / 1000)} s; giving up (see its error above).`,
        );
        finish(1);
        return;
      }
      restarts.push(now);
      line(`the server died (${how}; its error is logged above); starting it again in ${backoffMs} ms.`);
      restartTimer = setTimeout(() => start(true), backoffMs);
      backoffMs = Math.min(backoffMs * 2, settings.maxBackoffMs);
    });
  };

  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    if (restartTimer) {
      clearTimeout(restartTimer);
      restartTimer = null;
    }
    if (!worker) {
      finish(0);
      return;
    }
    line(`${signal}: stopping the server.`);
    worker.process.kill('SIGTERM');
    setTimeout(() => worker?.process.kill('SIGKILL'), settings.stopGraceMs).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  start();
  return finished;
}
