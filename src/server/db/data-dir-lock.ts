import { closeSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join, relative, resolve } from 'node:path';

/** Raised when another live process already holds the data directory. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number | null,
  ) {
    const pid = ownerPid === null ? '' : ` (PID ${ownerPid})`;
    super(
      `El directorio de datos ${dataDir} está en uso por otro servidor de Inmoflujo${pid}. Detenga ese ` +
        'servidor primero, o use otro DATA_DIR. No se cambió nada. / ' +
        `The data directory ${dataDir} is already in use by another Inmoflujo server${pid}. ` +
        'Stop that server first, or start this one with another DATA_DIR. Nothing was changed.',
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  release(): void;
}

/** The longest path a Unix-domain socket address holds (108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 103;

function socketPath(dataDir: string): string {
  const absolute = resolve(dataDir, 'inmoflujo.lock');
  const fromHere = relative(process.cwd(), absolute);
  const path = fromHere.length < absolute.length ? fromHere : absolute;
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    throw new Error(
      `DATA_DIR está demasiado anidado para su candado (${absolute}): use una ruta más corta. / ` +
        `DATA_DIR is too deep for its lock (${absolute}): use a shorter path.`,
    );
  }
  return path;
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    // Exclusive: in a cluster worker (decision 0051) the socket is this process's own, not one the
    // primary opens and shares, so it closes when this process ends, however it ends.
    server.listen({ path, exclusive: true }, () => {
      server.off('error', fail);
      done();
    });
  });
}

/** The PID a live holder answers with; null when nobody listens (the holder died). */
function holderOf(path: string): Promise<number | null | 'alive'> {
  return new Promise((done) => {
    const socket = connect(path);
    let answer = '';
    socket.setTimeout(2000, () => socket.destroy());
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('end', () => {
      const pid = Number.parseInt(answer, 10);
      done(Number.isFinite(pid) ? pid : 'alive');
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      done(
        error.code === 'ECONNREFUSED' || error.code === 'ENOENT' || error.code === 'ENOTSOCK'
          ? null
          : 'alive',
      ),
    );
    socket.on('timeout', () => done('alive'));
  });
}

/**
 * Takes the data directory for this process. The embedded database holds one process per
 * directory: a second server must refuse to start and touch nothing.
 *
 * The lock is a Unix-domain socket this process listens on, `<dataDir>/inmoflujo.lock`. The kernel
 * closes it when the process ends, however it ends (kill -9 included), so a lock left behind is
 * recognised by a refused connection — never by a PID, which in a container is 1 after every
 * restart and always belongs to a live process. A holder answers with its PID for the message.
 * Taking over a dead holder's socket is itself serialised by an exclusive-create file, so two
 * servers starting at once cannot both take it.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const path = socketPath(dataDir);
  const takeover = join(dataDir, 'inmoflujo.lock.takeover');
  for (let attempt = 0; attempt < 5; attempt++) {
    const server = createServer((socket) => socket.end(`${process.pid}\n`));
    try {
      await listen(server, path);
      // The lock must not keep the process alive by itself.
      server.unref();
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          server.close(); // also removes the socket file
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
    const holder = await holderOf(path);
    if (holder !== null) throw new DataDirLockedError(dataDir, holder === 'alive' ? null : holder);
    // The holder is gone: remove its socket, one taker at a time.
    let guard: number;
    try {
      guard = openSync(takeover, 'wx');
    } catch {
      // Another server is taking over right now (or one died doing it, long ago: clear that).
      const stale = statSync(takeover, { throwIfNoEntry: false });
      if (stale && Date.now() - stale.mtimeMs > 10_000) rmSync(takeover, { force: true });
      await new Promise((wait) => setTimeout(wait, 100));
      continue;
    }
    try {
      if ((await holderOf(path)) === null) rmSync(path, { force: true });
    } finally {
      closeSync(guard);
      rmSync(takeover, { force: true });
    }
  }
  throw new DataDirLockedError(dataDir, null);
}
