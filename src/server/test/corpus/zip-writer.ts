import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A zip written byte by byte, to build the corpus' workbooks and documents exactly as wanted —
 * including what no honest writer does: sizes that lie, and a deflate stream of gigabytes made of
 * one compressed megabyte repeated (never inflated to build it).
 */

export interface ZipPart {
  name: string;
  /** The bytes to deflate, or an already deflated stream with its real inflated size. */
  data: Buffer | string | { deflated: Buffer; inflatedSize: number };
  /** The uncompressed size the headers declare (a lie when it differs from the real one). */
  declaredSize?: number;
  /** Stored, not deflated. */
  stored?: boolean;
}

export function writeZip(parts: readonly ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    let compressed: Buffer;
    let size: number;
    let crc = 0;
    if (typeof part.data === 'object' && !Buffer.isBuffer(part.data)) {
      compressed = part.data.deflated;
      size = part.data.inflatedSize;
    } else {
      const raw = Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, 'utf8');
      compressed = part.stored ? raw : deflateRawSync(raw);
      size = raw.length;
      crc = crc32(raw);
    }
    const declared = part.declaredSize ?? size;
    const method = part.stored ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names in UTF-8
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(declared >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(declared >>> 0, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    directory.push(central, name);
    offset += 30 + name.length + compressed.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directoryBytes, end]);
}

/**
 * A deflate stream of `head`, then `middle` repeated `times`, then `tail`, built from each piece
 * deflated once: a full flush ends a piece on a byte with its history reset, so its bytes may follow
 * themselves any number of times. 1 MB of one letter deflates to ~1 KB: a gigabyte costs a megabyte.
 */
export function repeatedDeflate(
  head: string,
  middle: string,
  times: number,
  tail: string,
): { deflated: Buffer; inflatedSize: number } {
  const flushed = (text: string) =>
    deflateRawSync(Buffer.from(text, 'utf8'), { finishFlush: constants.Z_FULL_FLUSH });
  const middleBytes = flushed(middle);
  const deflated = Buffer.concat([
    flushed(head),
    ...Array.from({ length: times }, () => middleBytes),
    deflateRawSync(Buffer.from(tail, 'utf8')),
  ]);
  const inflatedSize = Buffer.byteLength(head) + Buffer.byteLength(middle) * times + Buffer.byteLength(tail);
  return { deflated, inflatedSize };
}
