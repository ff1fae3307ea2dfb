/**
 * The backup file (decision 0031): a 4 KiB header, then the payload.
 *
 *   INMOFLUJO-BACKUP 1\n{ header JSON }   (padded with spaces to 4,095 bytes, then \n)
 *   payload: tar of the database directory, gzip-compressed, optionally AES-256-GCM encrypted
 *
 * The header is written LAST, at offset 0, once the payload's SHA-256 is known; the file is written
 * under a hidden temporary name, fsynced and renamed. A file cut short by kill -9 or a full disk has
 * a zeroed header (never "INMOFLUJO-BACKUP") and a hidden name, so it can never pass for a backup.
 * Unencrypted, the payload is a standard tar.gz: `tail -c +4097 <file> | tar -xz` reads it.
 */
import {
  type CipherGCM,
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { z } from 'zod';

export const HEADER_BYTES = 4096;
const MAGIC = 'INMOFLUJO-BACKUP 1\n';

export const BACKUP_KINDS = ['nightly', 'manual', 'pre-migration'] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];

const encryptionSchema = z.object({
  cipher: z.literal('aes-256-gcm'),
  kdf: z.literal('scrypt'),
  salt: z.string(),
  iv: z.string(),
  tag: z.string(),
  /** SHA-256 of the second half of the derived key: tells a wrong key apart before decrypting. */
  keyCheck: z.string(),
});

export const backupHeaderSchema = z.object({
  format: z.literal(1),
  createdAt: z.string(),
  kind: z.enum(BACKUP_KINDS),
  /** The migrations applied in the backed-up database: restore migrates forward from here. */
  schema: z.object({ migrations: z.number().int().nonnegative(), last: z.string().nullable() }),
  /** Bytes of the database directory that went into the archive. */
  sourceBytes: z.number().int().nonnegative(),
  payload: z.object({
    bytes: z.number().int().nonnegative(),
    sha256: z.string().length(64),
    compression: z.literal('gzip'),
    encryption: encryptionSchema.nullable(),
  }),
});
export type BackupHeader = z.infer<typeof backupHeaderSchema>;

/** A refusal whose message is for the person at the console or on the screen (Spanish, then English). */
export class BackupError extends Error {
  constructor(
    readonly code:
      | 'BACKUP_NOT_A_BACKUP'
      | 'BACKUP_TRUNCATED'
      | 'BACKUP_CORRUPTED'
      | 'BACKUP_KEY_REQUIRED'
      | 'BACKUP_KEY_WRONG'
      | 'BACKUP_DISK_FULL'
      | 'BACKUP_WRITE_FAILED'
      | 'BACKUP_IN_PROGRESS'
      | 'BACKUP_TARGET_NOT_EMPTY'
      | 'BACKUP_LEDGER_MISSING'
      | 'BACKUP_NOT_FOUND',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BackupError';
  }
}

// --- Keys ---------------------------------------------------------------------------------------

const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** 64 bytes from the passphrase: the AES key, then the key check's secret. Off the main thread. */
function deriveKey(passphrase: string, salt: Buffer): Promise<{ key: Buffer; check: string }> {
  return new Promise((resolve, reject) => {
    scrypt(passphrase, salt, 64, SCRYPT, (error, derived) => {
      if (error) return reject(error);
      resolve({
        key: derived.subarray(0, 32),
        check: createHash('sha256').update(derived.subarray(32)).digest('hex'),
      });
    });
  });
}

// --- tar (POSIX ustar: regular files and directories are all a database directory holds) ---------

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function tarHeader(name: string, size: number, mtime: number, isDirectory: boolean): Buffer {
  const header = Buffer.alloc(512);
  let path = name;
  let prefix = '';
  if (Buffer.byteLength(path) > 100) {
    const cut = path.lastIndexOf('/', path.length - 2);
    prefix = path.slice(0, cut);
    path = path.slice(cut + 1);
    if (Buffer.byteLength(path) > 100 || Buffer.byteLength(prefix) > 155)
      throw new Error(`Path too long: ${name}`);
  }
  header.write(path, 0, 100, 'utf8');
  header.write(octal(isDirectory ? 0o755 : 0o600, 8), 100, 'ascii');
  header.write(octal(0, 8), 108, 'ascii');
  header.write(octal(0, 8), 116, 'ascii');
  header.write(octal(size, 12), 124, 'ascii');
  header.write(octal(Math.floor(mtime / 1000), 12), 136, 'ascii');
  header.write('        ', 148, 'ascii');
  header.write(isDirectory ? '5' : '0', 156, 'ascii');
  header.write('ustar\0', 257, 'ascii');
  header.write('00', 263, 'ascii');
  header.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return header;
}

async function listTree(root: string): Promise<{ path: string; isDirectory: boolean }[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .map((entry) => ({
      path: relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'),
      isDirectory: entry.isDirectory(),
    }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The directory as a tar stream, read in chunks (never a whole file in memory). */
async function* tarOf(root: string): AsyncGenerator<Buffer> {
  for (const entry of await listTree(root)) {
    const full = join(root, entry.path);
    const info = await stat(full);
    if (entry.isDirectory) {
      yield tarHeader(`${entry.path}/`, 0, info.mtimeMs, true);
      continue;
    }
    yield tarHeader(entry.path, info.size, info.mtimeMs, false);
    let written = 0;
    // Reads of at most the file's size: a stream allocates a whole `highWaterMark` for every read, and
    // most of a database directory's ~1,000 files are a few pages (1 MB each was seconds of GC).
    const highWaterMark = Math.min(1 << 20, Math.max(info.size, 1));
    for await (const chunk of createReadStream(full, { highWaterMark })) {
      written += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
    // The snapshot is not written to while it is archived: a size change means something is wrong.
    if (written !== info.size) throw new Error(`${entry.path} changed while it was archived`);
    const padding = (512 - (info.size % 512)) % 512;
    if (padding) yield Buffer.alloc(padding);
  }
  yield Buffer.alloc(1024);
}

/** Writes a tar stream's regular files and directories under `root`, refusing any path that leaves it. */
function untarInto(root: string): Writable {
  let buffered: Buffer = Buffer.alloc(0);
  let current: { remaining: number; padding: number; out: WriteStream | null } | null = null;
  let ended = false;
  const writeTo = (out: WriteStream, data: Buffer) =>
    new Promise<void>((resolve, reject) => {
      out.write(data, (error) => (error ? reject(error) : resolve()));
    });
  const closeOut = (out: WriteStream) =>
    new Promise<void>((resolve, reject) => {
      out.once('error', reject);
      out.end(resolve);
    });
  const consume = async () => {
    for (;;) {
      if (current) {
        if (current.remaining > 0) {
          if (buffered.length === 0) return;
          const take = Math.min(current.remaining, buffered.length);
          if (current.out) await writeTo(current.out, buffered.subarray(0, take));
          buffered = buffered.subarray(take);
          current.remaining -= take;
          if (current.remaining > 0) return;
          if (current.out) await closeOut(current.out);
        }
        if (buffered.length < current.padding) return;
        buffered = buffered.subarray(current.padding);
        current = null;
      }
      if (ended || buffered.length < 512) return;
      const header = buffered.subarray(0, 512);
      buffered = buffered.subarray(512);
      if (header.every((byte) => byte === 0)) {
        ended = true;
        return;
      }
      const field = (start: number, length: number) =>
        header
          .subarray(start, start + length)
          .toString('utf8')
          .replace(/\0.*$/s, '');
      const name = [field(345, 155), field(0, 100)].filter(Boolean).join('/');
      const size = Number.parseInt(field(124, 12).trim() || '0', 8);
      const type = field(156, 1) || '0';
      const target = join(root, name);
      if (!`${target}${sep}`.startsWith(`${root}${sep}`) || name.includes('..')) {
        throw new Error(`Refused path in archive: ${name}`);
      }
      if (type === '5') {
        await mkdir(target, { recursive: true });
        current = { remaining: 0, padding: 0, out: null };
      } else if (type === '0') {
        await mkdir(dirname(target), { recursive: true });
        current = { remaining: size, padding: (512 - (size % 512)) % 512, out: createWriteStream(target) };
        if (size === 0 && current.out) await closeOut(current.out);
      } else {
        throw new Error(`Unexpected entry type ${type} in archive`);
      }
    }
  };
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      consume().then(() => callback(), callback);
    },
    final(callback) {
      if (!ended || current) return callback(new Error('the archive ends early'));
      callback();
    },
  });
}

// --- Writing ------------------------------------------------------------------------------------

/** Counts and hashes what passes through. */
function meter() {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  return { stream, result: () => ({ bytes, sha256: hash.digest('hex') }) };
}

export type OutputFactory = (path: string, start: number) => Writable;
const fileOutput: OutputFactory = (path, start) => createWriteStream(path, { start, flags: 'w' });

function isDiskFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG';
}

async function fsyncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export interface WriteBackupOptions {
  /** The directory to archive (a consistent copy of the database directory). */
  source: string;
  /** The backup's final path; it appears only complete. */
  target: string;
  kind: BackupKind;
  createdAt: Date;
  schema: BackupHeader['schema'];
  passphrase?: string;
  /** Where the bytes go (tests inject a failing disk). */
  output?: OutputFactory;
}

/** Archives `source` into `target` (gzip, optional AES-256-GCM, SHA-256), atomically; returns its header. */
export async function writeBackupFile(options: WriteBackupOptions): Promise<BackupHeader> {
  const directory = dirname(options.target);
  await mkdir(directory, { recursive: true });
  const temporary = join(directory, `.${options.target.slice(directory.length + 1)}.partial`);
  let sourceBytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sourceBytes += chunk.length;
      callback(null, chunk);
    },
  });
  let encryption: BackupHeader['payload']['encryption'] = null;
  let cipher: CipherGCM | null = null;
  let keyCheck = '';
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  if (options.passphrase) {
    const derived = await deriveKey(options.passphrase, salt);
    cipher = createCipheriv('aes-256-gcm', derived.key, iv);
    keyCheck = derived.check;
  }
  const metered = meter();
  const stages: (NodeJS.ReadableStream | NodeJS.WritableStream | NodeJS.ReadWriteStream)[] = [
    Readable.from(tarOf(options.source)),
    counted,
    // zlib compresses on libuv's thread pool: the event loop only moves buffers.
    createGzip({ level: 6 }),
  ];
  if (cipher) stages.push(cipher);
  stages.push(metered.stream, (options.output ?? fileOutput)(temporary, HEADER_BYTES));
  try {
    await (pipeline as (...streams: unknown[]) => Promise<void>)(...stages);
    const payload = metered.result();
    if (cipher) {
      encryption = {
        cipher: 'aes-256-gcm',
        kdf: 'scrypt',
        salt: salt.toString('hex'),
        iv: iv.toString('hex'),
        tag: cipher.getAuthTag().toString('hex'),
        keyCheck,
      };
    }
    const header: BackupHeader = {
      format: 1,
      createdAt: options.createdAt.toISOString(),
      kind: options.kind,
      schema: options.schema,
      sourceBytes,
      payload: { ...payload, compression: 'gzip', encryption },
    };
    const handle = await open(temporary, 'r+');
    try {
      await handle.write(encodeHeader(header), 0, HEADER_BYTES, 0);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, options.target);
    await fsyncDirectory(directory);
    return header;
  } catch (error) {
    await rm(temporary, { force: true });
    if (isDiskFull(error)) {
      throw new BackupError(
        'BACKUP_DISK_FULL',
        `No queda espacio en disco en ${directory}: el respaldo no se creó y nada más cambió. ` +
          `Libere espacio o apunte BACKUP_DIR a otro disco. / The disk holding ${directory} is full: ` +
          'no backup was written and nothing else changed.',
        { cause: error },
      );
    }
    throw error;
  }
}

function encodeHeader(header: BackupHeader): Buffer {
  const text = `${MAGIC}${JSON.stringify(header)}`;
  const bytes = Buffer.byteLength(text);
  if (bytes > HEADER_BYTES - 1) throw new Error('Backup header too large');
  return Buffer.from(`${text}${' '.repeat(HEADER_BYTES - 1 - bytes)}\n`);
}

// --- Reading ------------------------------------------------------------------------------------

function notABackup(path: string, cause?: unknown): BackupError {
  return new BackupError(
    'BACKUP_NOT_A_BACKUP',
    `${path} no es un respaldo de Inmoflujo o su encabezado está dañado. / ${path} is not an Inmoflujo ` +
      'backup, or its header is damaged.',
    { cause },
  );
}

/** The header of a backup file, or a BackupError when the file is not a complete backup. */
export async function readBackupHeader(path: string): Promise<{ header: BackupHeader; fileBytes: number }> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new BackupError(
      'BACKUP_NOT_FOUND',
      `No se encontró el respaldo ${path}. / Backup file ${path} not found.`,
      { cause: error },
    );
  }
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    if (bytesRead < HEADER_BYTES || !text.startsWith(MAGIC)) throw notABackup(path);
    let header: BackupHeader;
    try {
      header = backupHeaderSchema.parse(JSON.parse(text.slice(MAGIC.length)));
    } catch (error) {
      throw notABackup(path, error);
    }
    if (size !== HEADER_BYTES + header.payload.bytes) {
      throw new BackupError(
        'BACKUP_TRUNCATED',
        `El respaldo ${path} está incompleto (${size} bytes de ${HEADER_BYTES + header.payload.bytes}): ` +
          `no se restauró nada. / The backup is truncated; nothing was restored.`,
      );
    }
    return { header, fileBytes: size };
  } finally {
    await handle.close();
  }
}

/** Checks the payload's SHA-256 against the header (reads the whole file, streaming). */
export async function verifyChecksum(path: string, header: BackupHeader): Promise<void> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { start: HEADER_BYTES })) hash.update(chunk as Buffer);
  if (hash.digest('hex') !== header.payload.sha256) {
    throw new BackupError(
      'BACKUP_CORRUPTED',
      `El respaldo ${path} está dañado (su suma de verificación no coincide): no se restauró nada. / ` +
        'The backup is corrupted (checksum mismatch); nothing was restored.',
    );
  }
}

/** The AES key of an encrypted backup, refusing a missing or wrong passphrase before any byte is decrypted. */
export async function unlockBackup(
  header: BackupHeader,
  passphrase: string | undefined,
): Promise<Buffer | null> {
  const encryption = header.payload.encryption;
  if (!encryption) return null;
  if (!passphrase) {
    throw new BackupError(
      'BACKUP_KEY_REQUIRED',
      'Este respaldo está cifrado: defina BACKUP_KEY con la clave con que se creó. / This backup is ' +
        'encrypted: set BACKUP_KEY to the key it was made with.',
    );
  }
  const derived = await deriveKey(passphrase, Buffer.from(encryption.salt, 'hex'));
  const expected = Buffer.from(encryption.keyCheck, 'hex');
  const actual = Buffer.from(derived.check, 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    throw new BackupError(
      'BACKUP_KEY_WRONG',
      'La clave BACKUP_KEY no es la de este respaldo: no se restauró nada. / BACKUP_KEY is not the key ' +
        'this backup was encrypted with; nothing was restored.',
    );
  }
  return derived.key;
}

/** Unpacks a verified backup's payload into `directory` (which must be empty or absent). */
export async function extractBackup(
  path: string,
  header: BackupHeader,
  key: Buffer | null,
  directory: string,
) {
  await mkdir(directory, { recursive: true });
  const stages: (NodeJS.ReadableStream | NodeJS.WritableStream | NodeJS.ReadWriteStream)[] = [
    createReadStream(path, { start: HEADER_BYTES }),
  ];
  const encryption = header.payload.encryption;
  if (encryption && key) {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(encryption.iv, 'hex'));
    decipher.setAuthTag(Buffer.from(encryption.tag, 'hex'));
    stages.push(decipher);
  }
  stages.push(createGunzip(), untarInto(directory));
  try {
    await (pipeline as (...streams: unknown[]) => Promise<void>)(...stages);
  } catch (error) {
    throw new BackupError(
      'BACKUP_CORRUPTED',
      `No se pudo leer el contenido del respaldo ${path} (${(error as Error).message}): no se restauró ` +
        'nada. / The backup content could not be read; nothing was restored.',
      { cause: error },
    );
  }
}

/** Size in bytes of every file under `directory`. */
export async function directoryBytes(directory: string): Promise<number> {
  let total = 0;
  for (const entry of await listTree(directory)) {
    if (!entry.isDirectory) total += (await stat(join(directory, entry.path))).size;
  }
  return total;
}
