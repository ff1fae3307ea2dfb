import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

/**
 * Zip containers (XLSX, DOCX) judged by the bytes really inflated (DESIGN §20, decision 0049). The
 * central directory is read for names and where each entry's compressed bytes are; its declared
 * sizes are never trusted: each entry inflates through a counting stream that stops as soon as the
 * entry, the whole file or the entry's ratio passes its bound, before any reader keeps anything.
 * Inflation is zlib's, off the main thread; the bytes come from memory or from a file on disk.
 */

/** Why a zip was refused: it expands past a bound, or it is not a zip we can read. */
export class ZipRefusal extends Error {
  constructor(
    readonly why: 'expands' | 'damaged',
    message: string,
  ) {
    super(message);
  }
}

/** Random access to the container's bytes. */
export interface ZipSource {
  size: number;
  read(position: number, length: number): Promise<Buffer>;
}

export function bufferSource(bytes: Buffer): ZipSource {
  return {
    size: bytes.length,
    read: async (position, length) => bytes.subarray(position, Math.min(bytes.length, position + length)),
  };
}

/** A file on disk read in pieces (an upload spooled by the documents door): never whole in memory. */
export async function fileSource(path: string): Promise<ZipSource & { close(): Promise<void> }> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  return {
    size,
    read: async (position, length) => {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      return buffer.subarray(0, bytesRead);
    },
    close: () => handle.close(),
  };
}

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  /** What the central directory says: told, never trusted. */
  declaredSize: number;
  localOffset: number;
}

/** More entries than any workbook or document of an office (Excel writes a dozen). */
export const MAX_ZIP_ENTRIES = 2_000;
const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;

/** The central directory: names and where their bytes are, nothing inflated. */
export async function zipEntries(source: ZipSource): Promise<ZipEntry[]> {
  const damaged = () => new ZipRefusal('damaged', 'the central directory is not readable');
  // The end record is in the last 22 bytes plus a comment of at most 65,535.
  const tailStart = Math.max(0, source.size - 65_557);
  const tail = await source.read(tailStart, source.size - tailStart);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === END_OF_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw damaged();
  const count = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  // 0xFFFF / 0xFFFFFFFF: the real values are in a Zip64 record — no workbook or document of ours is one.
  if (count === 0xffff || directoryOffset === 0xffffffff) throw new ZipRefusal('expands', 'zip64');
  if (count > MAX_ZIP_ENTRIES) throw new ZipRefusal('expands', `more than ${MAX_ZIP_ENTRIES} entries`);
  if (directoryOffset + directorySize > source.size) throw damaged();
  const directory = await source.read(directoryOffset, directorySize);
  const entries: ZipEntry[] = [];
  let offset = 0;
  for (let n = 0; n < count; n++) {
    if (offset + 46 > directory.length || directory.readUInt32LE(offset) !== DIRECTORY_ENTRY) throw damaged();
    const nameLength = directory.readUInt16LE(offset + 28);
    const extraLength = directory.readUInt16LE(offset + 30);
    const commentLength = directory.readUInt16LE(offset + 32);
    if (offset + 46 + nameLength > directory.length) throw damaged();
    const entry: ZipEntry = {
      flags: directory.readUInt16LE(offset + 8),
      method: directory.readUInt16LE(offset + 10),
      compressedSize: directory.readUInt32LE(offset + 20),
      declaredSize: directory.readUInt32LE(offset + 24),
      localOffset: directory.readUInt32LE(offset + 42),
      name: directory.toString('utf8', offset + 46, offset + 46 + nameLength),
    };
    if (entry.compressedSize === 0xffffffff || entry.declaredSize === 0xffffffff) {
      throw new ZipRefusal('expands', 'zip64 entry');
    }
    entries.push(entry);
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** How far a container may expand: per entry, in all, and by ratio once an entry is past a floor. */
export interface InflateBounds {
  entryBytes: number;
  totalBytes: number;
  /** Inflated bytes per compressed byte an entry may reach once it has inflated `ratioFloor` bytes. */
  ratio: number;
  ratioFloor: number;
}

/** The bytes inflated so far, shared by every entry read from one container. */
export interface InflateBudget {
  bounds: InflateBounds;
  spent: number;
}

export function budgetOf(bounds: InflateBounds): InflateBudget {
  return { bounds, spent: 0 };
}

/** Inflated bytes handed on at a time. */
const SLICE_BYTES = 64 * 1024;
/** Compressed bytes fed to the inflater at a time: small, so the ratio so far is known closely. */
const FEED_BYTES = 16 * 1024;

async function dataStart(source: ZipSource, entry: ZipEntry): Promise<number> {
  const header = await source.read(entry.localOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== LOCAL_ENTRY) {
    throw new ZipRefusal('damaged', `no local header for ${entry.name}`);
  }
  const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (start + entry.compressedSize > source.size)
    throw new ZipRefusal('damaged', `${entry.name} is cut short`);
  return start;
}

/**
 * An entry's inflated bytes, a piece at a time, each counted against the budget: past the entry's
 * bound, the container's, or the ratio, the inflater is stopped and `ZipRefusal('expands')` thrown.
 * Stopping the iteration early stops the inflater too.
 */
export async function* inflateEntry(
  source: ZipSource,
  entry: ZipEntry,
  budget: InflateBudget,
): AsyncGenerator<Buffer> {
  if (entry.flags & 0x01) throw new ZipRefusal('damaged', `${entry.name} is encrypted`);
  if (entry.method !== 0 && entry.method !== 8) {
    throw new ZipRefusal('damaged', `${entry.name} uses compression method ${entry.method}`);
  }
  const start = await dataStart(source, entry);
  const { bounds } = budget;
  // A size declared past the bounds is believed (a small one never is): refused before inflating.
  const declared = entry.declaredSize;
  if (
    declared > bounds.entryBytes ||
    (declared > bounds.ratioFloor && declared > bounds.ratio * Math.max(1, entry.compressedSize))
  ) {
    throw new ZipRefusal('expands', `${entry.name} declares ${declared} bytes`);
  }
  let inflated = 0;
  /**
   * Counts a piece against the bounds. The ratio is the inflated bytes over the compressed bytes fed
   * so far (in small slices), not over the entry's whole size: a bomb is stopped within its first
   * megabytes, not after 200 times its compressed size.
   */
  const count = (piece: Buffer, fed: number) => {
    inflated += piece.length;
    budget.spent += piece.length;
    if (
      inflated > bounds.entryBytes ||
      budget.spent > bounds.totalBytes ||
      (inflated > bounds.ratioFloor && inflated > bounds.ratio * Math.max(1, fed))
    ) {
      throw new ZipRefusal('expands', `${entry.name} expands past its bounds`);
    }
  };
  async function* compressed() {
    for (let at = 0; at < entry.compressedSize; at += FEED_BYTES) {
      yield await source.read(start + at, Math.min(FEED_BYTES, entry.compressedSize - at));
    }
  }
  if (entry.method === 0) {
    for await (const piece of compressed()) {
      count(piece, inflated + piece.length);
      yield piece;
    }
    return;
  }
  const input = Readable.from(compressed());
  const inflater = createInflateRaw({ chunkSize: SLICE_BYTES });
  input.on('error', (error) => inflater.destroy(error));
  input.pipe(inflater);
  try {
    for await (const piece of inflater as AsyncIterable<Buffer>) {
      count(piece, inflater.bytesWritten);
      yield piece;
    }
  } catch (error) {
    if (error instanceof ZipRefusal) throw error;
    throw new ZipRefusal('damaged', `${entry.name} does not inflate: ${(error as Error).message}`);
  } finally {
    input.destroy();
    inflater.destroy();
  }
}

/** A small entry whole (a workbook's list of sheets, its relationships), within `maxBytes`. */
export async function inflateWhole(
  source: ZipSource,
  entry: ZipEntry,
  budget: InflateBudget,
  maxBytes: number,
): Promise<Buffer> {
  const pieces: Buffer[] = [];
  let length = 0;
  for await (const piece of inflateEntry(source, entry, budget)) {
    length += piece.length;
    if (length > maxBytes) throw new ZipRefusal('expands', `${entry.name} is larger than ${maxBytes} bytes`);
    pieces.push(piece);
  }
  return Buffer.concat(pieces);
}

/**
 * Inflates every entry of a container and keeps nothing: what a stored document (DOCX, XLSX) really
 * expands to, judged before it is accepted.
 */
export async function inflateAll(source: ZipSource, bounds: InflateBounds): Promise<void> {
  const budget = budgetOf(bounds);
  for (const entry of await zipEntries(source)) {
    for await (const _piece of inflateEntry(source, entry, budget)) {
      // Counted by inflateEntry; nothing is kept.
    }
  }
}
