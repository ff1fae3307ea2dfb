import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Raised when another live process already holds the data directory. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
  ) {
    super(
      `The data directory ${dataDir} is already in use by another Inmoflujo server (PID ${ownerPid}). ` +
        'Stop that server first, or start this one with another DATA_DIR. Nothing was changed.',
    );
    this.name = 'DataDirLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface DataDirLock {
  release(): void;
}

/**
 * Takes the lock file `<dataDir>/inmoflujo.lock` (exclusive create). The embedded database
 * holds one process per directory: a second server must refuse to start and touch nothing.
 * A lock left behind by a process that no longer runs is taken over.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'inmoflujo.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            if (Number.parseInt(readFileSync(path, 'utf8'), 10) === process.pid) rmSync(path);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const ownerPid = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isFinite(ownerPid) && isAlive(ownerPid)) {
        throw new DataDirLockedError(dataDir, ownerPid);
      }
      rmSync(path, { force: true }); // stale lock of a process that died
    }
  }
  throw new Error(`Could not take the lock on ${dataDir}`);
}
