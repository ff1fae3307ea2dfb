/**
 * A consistent copy of the embedded database's directory while the server keeps serving
 * (decision 0031).
 *
 * PGlite runs PostgreSQL in this process and writes its files through plain system calls: between
 * two statements nothing is half-written in memory, and a copy of the directory taken while no
 * statement runs is what a power cut at that instant would leave — PostgreSQL's own crash recovery
 * (replaying the write-ahead log from the last checkpoint) opens it, with every committed
 * transaction and none of the rest. Holding the database for a whole copy would make users wait
 * for as long as the copy takes, so the copy is made in two passes, like rsync:
 *   1. with the database open to everyone, copy every file (asynchronous I/O: the event loop keeps
 *      running) and remember its size and modification time;
 *   2. holding PGlite's transaction and statement locks (no transaction open, no statement
 *      running), copy again only what changed since — a few pages' files and the WAL segment.
 * A CHECKPOINT first keeps what the restore has to replay short.
 */
import { type BigIntStats, constants, statSync } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

interface Seen {
  size: bigint;
  mtimeNs: bigint;
  /** When it was looked at: a change within the file system's clock tick after that could go unseen. */
  seenAtNs: bigint;
}

// A file's modification time has the kernel's coarse clock resolution (a few ms): a write in the
// same tick as our stat leaves it unchanged. Files modified this close to our look are copied again.
const CLOCK_SLACK_NS = 2_000_000_000n;

async function filesOf(root: string): Promise<{ files: string[]; directories: string[] }> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files: string[] = [];
  const directories: string[] = [];
  for (const entry of entries) {
    const path = relative(root, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (entry.isDirectory()) directories.push(path);
    else if (entry.isFile()) files.push(path);
  }
  return { files, directories };
}

async function copyOne(source: string, target: string): Promise<Seen | null> {
  const before = await stat(source, { bigint: true }).catch(() => null);
  if (!before) return null;
  const seenAtNs = BigInt(Date.now()) * 1_000_000n;
  // A reflink where the file system has them (instant); a copy on libuv's thread pool otherwise.
  await copyFile(source, target, constants.COPYFILE_FICLONE);
  return { size: before.size, mtimeNs: before.mtimeNs, seenAtNs };
}

/** Runs `work` on every item, `width` at a time (the I/O goes to libuv's thread pool in parallel). */
async function eachInParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}

const PARALLEL_FILES = 16;

async function copyPass(source: string, target: string, seen: Map<string, Seen> | null, held = false) {
  const { files, directories } = await filesOf(source);
  for (const directory of directories) await mkdir(join(target, directory), { recursive: true });
  const next = new Map<string, Seen>();
  let copied = 0;
  // What changed since the last pass. While the database is held the files are looked at
  // synchronously: a thousand stat calls cost a few ms on the main thread, where one by one through
  // the thread pool they took 100 ms with every request waiting. Otherwise through the thread pool,
  // several at a time, so the event loop keeps turning.
  const isUnchanged = (file: string, now: BigIntStats | undefined): boolean => {
    const earlier = seen?.get(file);
    const unchanged =
      now !== undefined &&
      earlier !== undefined &&
      now.size === earlier.size &&
      now.mtimeNs === earlier.mtimeNs &&
      earlier.seenAtNs - now.mtimeNs > CLOCK_SLACK_NS;
    if (unchanged) next.set(file, earlier);
    return unchanged;
  };
  let changed: string[] = files;
  if (seen && held) {
    changed = files.filter(
      (file) => !isUnchanged(file, statSync(join(source, file), { bigint: true, throwIfNoEntry: false })),
    );
  } else if (seen) {
    changed = [];
    await eachInParallel(files, PARALLEL_FILES, async (file) => {
      const now = await stat(join(source, file), { bigint: true }).catch(() => undefined);
      if (!isUnchanged(file, now)) changed.push(file);
    });
  }
  await eachInParallel(changed, PARALLEL_FILES, async (file) => {
    const result = await copyOne(join(source, file), join(target, file));
    if (result) {
      next.set(file, result);
      copied++;
    }
  });
  if (seen) {
    // Files the database removed since the last pass must not come back to life.
    const present = new Set(files);
    for (const file of seen.keys()) if (!present.has(file)) await rm(join(target, file), { force: true });
  }
  return { seen: next, copied, files: files.length };
}

export interface SnapshotStats {
  files: number;
  /** Files copied again while the database was held. */
  recopied: number;
  /** How long the database was held (no statement could run), in ms. */
  heldMs: number;
}

/** Copies the running PGlite's directory `dbDir` into `target` (created; must not exist). */
export async function snapshotPglite(client: PGlite, dbDir: string, target: string): Promise<SnapshotStats> {
  await mkdir(target, { recursive: true });
  await client.exec('checkpoint');
  const first = await copyPass(dbDir, target, null);
  // Again while users work: what changed during the long first pass, so the held pass is short.
  const second = await copyPass(dbDir, target, first.seen);
  // Both locks: the transaction lock waits for an open transaction to end, the statement lock for a
  // running statement; while held, the files on disk are a crash-consistent image.
  let heldMs = 0;
  const held = await client._runExclusiveTransaction(() =>
    client.runExclusive(async () => {
      const began = performance.now();
      try {
        return await copyPass(dbDir, target, second.seen, true);
      } finally {
        heldMs = performance.now() - began;
      }
    }),
  );
  return { files: held.files, recopied: held.copied, heldMs };
}
