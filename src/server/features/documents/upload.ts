import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fileTypeFromFile } from 'file-type';
import { DOCUMENT_MAX_BYTES } from '../../../shared/schemas/documents';
import { AppError } from '../../http/app-error';
import { fileSource, type InflateBounds, inflateAll, ZipRefusal } from '../../readers/zip';

/**
 * An upload's bytes, streamed from the request to a private temporary file (decision 0037): counted
 * as they come, refused past DOCUMENT_MAX_BYTES, hashed, and scanned for what judges a PDF, so no
 * request holds a whole file in memory and no transaction waits on a slow network. Only once the
 * whole file is here does a transaction copy it into the database, chunk by chunk.
 */

/** The bytes of one chunk in the database: small enough to hold, large enough to be few. */
export const DOCUMENT_CHUNK_BYTES = 512 * 1024;

/** The request's body, handed over unread: a class (not a plain object) so nothing walks it as data. */
export class UploadBody {
  readonly #stream: Readable;
  constructor(stream: Readable) {
    this.#stream = stream;
  }
  get stream(): Readable {
    return this.#stream;
  }
}

/**
 * Lets the routes of `scope` take a file's raw bytes (`application/octet-stream`, what the browser's
 * fetch of a File sends with our api client) as an unread stream: the route reads it with `spool`.
 * No size limit here: `spool` counts.
 */
export function acceptDocumentBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser(/^application\/octet-stream\s*(?:;|$)/i, (_request, payload, done) =>
    done(null, new UploadBody(payload)),
  );
}

/** A file received in full on disk, with what was learnt reading it. */
export interface SpooledFile {
  path: string;
  byteSize: number;
  sha256: string;
  /** Whether '/Encrypt' appears anywhere (an encrypted PDF: stored, never previewed). */
  mentionsEncrypt: boolean;
  /** Its first and last bytes (a PDF's header and its '%%EOF'). */
  head: Buffer;
  tail: Buffer;
  remove: () => Promise<void>;
}

const ENCRYPT = Buffer.from('/Encrypt');
const EDGE_BYTES = 1024;

/** A spooled file older than this was left by a server that stopped mid-upload. */
const STALE_SPOOL_MS = 6 * 60 * 60 * 1000;
let swept = false;

/**
 * Where uploads wait while they arrive (private to this process's user). The first upload of a
 * process removes what a stopped server left there.
 */
async function spoolDirectory(): Promise<string> {
  const dir = join(tmpdir(), 'inmoflujo-uploads');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (!swept) {
    swept = true;
    const now = Date.now();
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const path = join(dir, name);
      const info = await stat(path).catch(() => null);
      if (info && now - info.mtimeMs > STALE_SPOOL_MS) await rm(path, { force: true });
    }
  }
  return dir;
}

/**
 * Reads the request's body to a temporary file. Over DOCUMENT_MAX_BYTES (by its Content-Length, or
 * counted): 413 DOCUMENT_TOO_LARGE, the partial file removed, the rest of the body left unread; an
 * empty body: 400 DOCUMENT_EMPTY.
 */
export async function spool(request: FastifyRequest): Promise<SpooledFile> {
  const body = request.body;
  if (!(body instanceof UploadBody)) throw new AppError('DOCUMENT_TYPE_REFUSED');
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > DOCUMENT_MAX_BYTES) {
    body.stream.resume();
    throw new AppError('DOCUMENT_TOO_LARGE');
  }
  const path = join(await spoolDirectory(), randomUUID());
  const remove = () => rm(path, { force: true });
  const hash = createHash('sha256');
  const file = createWriteStream(path, { mode: 0o600 });
  const stream = body.stream;
  let byteSize = 0;
  let head = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  let mentionsEncrypt = false;
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) => {
        // What is still coming is read and dropped (never destroyed: the client hears the 413).
        stream.removeListener('data', onData);
        stream.on('data', () => {});
        stream.resume();
        reject(error);
      };
      const onData = (piece: Buffer) => {
        byteSize += piece.length;
        if (byteSize > DOCUMENT_MAX_BYTES) return fail(new AppError('DOCUMENT_TOO_LARGE'));
        hash.update(piece);
        if (head.length < EDGE_BYTES)
          head = Buffer.concat([head, piece.subarray(0, EDGE_BYTES - head.length)]);
        // The marker may straddle two pieces: the piece itself, then the seam with the last one's end
        // (a few bytes copied, never the piece: an upload leaves no garbage the size of the file).
        if (!mentionsEncrypt) {
          const seam = Buffer.concat([
            tail.subarray(Math.max(0, tail.length - ENCRYPT.length + 1)),
            piece.subarray(0, ENCRYPT.length - 1),
          ]);
          mentionsEncrypt = piece.includes(ENCRYPT) || seam.includes(ENCRYPT);
        }
        tail =
          piece.length >= EDGE_BYTES
            ? Buffer.from(piece.subarray(piece.length - EDGE_BYTES))
            : Buffer.concat([tail, piece]).subarray(-EDGE_BYTES);
        if (!file.write(piece)) {
          stream.pause();
          file.once('drain', () => stream.resume());
        }
      };
      let ended = false;
      stream.on('data', onData);
      stream.once('error', fail);
      file.once('error', fail);
      stream.once('end', () => {
        ended = true;
        file.end(() => resolve());
      });
      // A client that goes away mid-upload: its partial file is removed, nothing is stored.
      stream.once('close', () => {
        if (!ended) fail(new Error('the upload was interrupted'));
      });
    });
  } catch (error) {
    file.destroy();
    await remove();
    throw error;
  }
  if (byteSize === 0) {
    await remove();
    throw new AppError('DOCUMENT_EMPTY');
  }
  return { path, byteSize, sha256: hash.digest('hex'), mentionsEncrypt, head, tail, remove };
}

/** The types taken, by what file-type reads in the bytes; the content type they are stored and served as. */
const ACCEPTED: Record<string, { contentType: string; previewable: boolean }> = {
  'application/pdf': { contentType: 'application/pdf', previewable: true },
  'image/png': { contentType: 'image/png', previewable: true },
  'image/jpeg': { contentType: 'image/jpeg', previewable: true },
  'image/gif': { contentType: 'image/gif', previewable: true },
  'image/webp': { contentType: 'image/webp', previewable: true },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    previewable: false,
  },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    previewable: false,
  },
};

/**
 * Word 97-2003 and Excel 97-2003 share one container (OLE2, also an installer's): what is inside says
 * which, and it must agree with the name's extension. The root entry's class id says it when the
 * writer set one (Word and Excel do); otherwise the main stream's name ('WordDocument', 'Workbook').
 */
const OLE_KINDS = {
  doc: { contentType: 'application/msword', classIds: [0x00020906, 0x00020900], streams: ['WordDocument'] },
  xls: {
    contentType: 'application/vnd.ms-excel',
    classIds: [0x00020820, 0x00020810],
    streams: ['Workbook', 'Book'],
  },
} as const;

const OLE_DIRECTORY_ENTRY_BYTES = 128;

/** Which Office 97-2003 file an OLE2 container is, read from its first directory sector. */
async function oleKindOf(path: string): Promise<keyof typeof OLE_KINDS | null> {
  const handle = await open(path, 'r');
  try {
    const header = Buffer.alloc(512);
    await handle.read(header, 0, 512, 0);
    const sectorSize = 1 << header.readUInt16LE(0x1e);
    const directorySector = header.readInt32LE(0x30);
    if (sectorSize !== 512 && sectorSize !== 4096) return null;
    if (directorySector < 0) return null;
    const directory = Buffer.alloc(sectorSize);
    const { bytesRead } = await handle.read(directory, 0, sectorSize, (directorySector + 1) * sectorSize);
    // The root entry comes first: its class id, when set, names the application.
    const classId = directory.readUInt32LE(0x50);
    for (const [kind, { classIds }] of Object.entries(OLE_KINDS))
      if ((classIds as readonly number[]).includes(classId)) return kind as keyof typeof OLE_KINDS;
    if (classId !== 0) return null;
    for (
      let offset = 0;
      offset + OLE_DIRECTORY_ENTRY_BYTES <= bytesRead;
      offset += OLE_DIRECTORY_ENTRY_BYTES
    ) {
      const nameBytes = Math.min(64, Math.max(0, directory.readUInt16LE(offset + 0x40) - 2));
      const name = directory.toString('utf16le', offset, offset + nameBytes);
      for (const [kind, { streams }] of Object.entries(OLE_KINDS))
        if ((streams as readonly string[]).includes(name)) return kind as keyof typeof OLE_KINDS;
    }
    return null;
  } finally {
    await handle.close();
  }
}

/** Word and Excel files are zips: judged by what they really inflate to before they are kept. */
const ZIP_CONTAINERS = new Set([
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
]);

/**
 * A 20 MB document of an office (images stored, text deflated ~10:1) inflates to tens of MB; a zip
 * bomb, honest or lying about its sizes, is stopped at these bounds, inflating off the main thread
 * from the spooled file (decision 0049).
 */
const DOCUMENT_BOUNDS: InflateBounds = {
  entryBytes: 256 * 1024 * 1024,
  totalBytes: 512 * 1024 * 1024,
  ratio: 200,
  ratioFloor: 4 * 1024 * 1024,
};

async function judgeInflated(file: SpooledFile): Promise<void> {
  const source = await fileSource(file.path);
  try {
    await inflateAll(source, DOCUMENT_BOUNDS);
  } catch (error) {
    if (!(error instanceof ZipRefusal)) throw error;
    throw new AppError(error.why === 'expands' ? 'DOCUMENT_EXPANDS' : 'DOCUMENT_DAMAGED', { cause: error });
  } finally {
    await source.close();
  }
}

export interface JudgedFile {
  contentType: string;
  isPreviewable: boolean;
}

/**
 * What the file is, by its bytes: a PDF, an image (PNG, JPEG, GIF, WebP), Word or Excel; anything
 * else (HTML or a script whatever its name, an executable, an archive) is refused. A PDF without its
 * header and end marker (damaged, truncated) or encrypted is kept, but only for download.
 */
export async function judge(file: SpooledFile, fileName: string): Promise<JudgedFile> {
  const detected = await fileTypeFromFile(file.path).catch(() => undefined);
  if (!detected) throw new AppError('DOCUMENT_TYPE_REFUSED');
  if (detected.mime === 'application/x-cfb') {
    const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
    const kind = await oleKindOf(file.path);
    if (kind === null || kind !== extension) throw new AppError('DOCUMENT_TYPE_REFUSED');
    return { contentType: OLE_KINDS[kind].contentType, isPreviewable: false };
  }
  const accepted = ACCEPTED[detected.mime];
  if (!accepted) throw new AppError('DOCUMENT_TYPE_REFUSED');
  if (ZIP_CONTAINERS.has(detected.mime)) await judgeInflated(file);
  if (accepted.contentType === 'application/pdf') {
    const wellFormed =
      file.head.subarray(0, 5).toString('latin1') === '%PDF-' && file.tail.includes(Buffer.from('%%EOF'));
    return { contentType: accepted.contentType, isPreviewable: wellFormed && !file.mentionsEncrypt };
  }
  return { contentType: accepted.contentType, isPreviewable: accepted.previewable };
}

/**
 * The spooled file's bytes in database-sized chunks, read one at a time into one buffer reused for
 * every chunk (each is consumed — turned into the statement — before the next is read), so copying a
 * file into the database allocates no Buffer the size of the file.
 */
export async function* chunksOf(file: SpooledFile): AsyncIterable<Buffer> {
  const handle = await open(file.path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(DOCUMENT_CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, DOCUMENT_CHUNK_BYTES, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}
