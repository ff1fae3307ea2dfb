import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { IMAGE_FORMATS } from '../../../shared/domain/images';
import { IMAGE_MAX_BYTES } from '../../../shared/schemas/settings';
import type { ReadContext } from '../../context';
import type { Executor } from '../../db/client';
import { AppError } from '../../http/app-error';
import { IMAGE_BODY_TYPE } from '../../http/error-handler';
import * as queries from './files.queries';

/**
 * Uploaded images (project logos, user avatars), kept in the database (decision 0016). An upload is
 * judged by its bytes, never by its name or declared type, and never served as sent: it is decoded
 * and re-encoded as a small WebP without metadata, under a name the server makes.
 */

/** The largest image decoded, in megapixels: a bigger one is refused from its header, before decoding. */
export const IMAGE_MAX_MEGAPIXELS = 40;

/** Where stored files are served (files.routes.ts, under /api/files). */
export const FILES_URL_PREFIX = '/api/files/';

/** A server-made file name: a random UUID and the stored format's extension. */
export const STORED_FILE_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$/;

export type ImagePurpose = 'logo' | 'avatar';

/** The largest side of the stored image: it fits inside this square, never enlarged. */
const BOUNDS: Record<ImagePurpose, number> = { logo: 512, avatar: 256 };

/**
 * The types accepted, by their magic bytes (file-type's MIME type), and sharp's name for each: the
 * shared list the pickers judge and describe files by (`domain/images`). SVG never.
 */
const ACCEPTED_FORMATS: Record<string, string> = Object.fromEntries(
  IMAGE_FORMATS.flatMap((format) => format.mimeTypes.map((mimeType) => [mimeType, format.decoder])),
);

const STORED_CONTENT_TYPE = 'image/webp';

/** An image decoded and re-encoded, ready to be stored. */
export interface PreparedImage {
  bytes: Buffer;
  contentType: string;
  width: number;
  height: number;
}

/**
 * Checks and re-encodes uploaded bytes, outside any transaction: size (≤ IMAGE_MAX_BYTES), type by
 * magic bytes (PNG, JPEG, GIF, WebP), pixel count from the header (≤ IMAGE_MAX_MEGAPIXELS), then
 * decode, apply the EXIF orientation, fit inside the purpose's square and encode as WebP (keeps
 * transparency; metadata is dropped, sharp's default). An animated GIF or WebP keeps its first frame.
 */
export async function prepareImage(bytes: Buffer, purpose: ImagePurpose): Promise<PreparedImage> {
  if (bytes.length === 0) throw new AppError('IMAGE_TYPE_INVALID');
  if (bytes.length > IMAGE_MAX_BYTES) throw new AppError('IMAGE_TOO_LARGE');
  const detected = await fileTypeFromBuffer(bytes).catch(() => undefined);
  const format = detected ? ACCEPTED_FORMATS[detected.mime] : undefined;
  if (!format) throw new AppError('IMAGE_TYPE_INVALID');
  try {
    // failOn 'error': corrupt or truncated data is refused; a decoder's warning (a PNG's odd colour
    // profile, say) is not.
    const image = sharp(bytes, { limitInputPixels: IMAGE_MAX_MEGAPIXELS * 1_000_000, failOn: 'error' });
    const header = await image.metadata();
    // libvips picks its decoder by its own sniffing: it must agree with what file-type saw.
    if (header.format !== format) throw new AppError('IMAGE_TYPE_INVALID');
    const bound = BOUNDS[purpose];
    const { data, info } = await image
      .autoOrient()
      .resize({ width: bound, height: bound, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType: STORED_CONTENT_TYPE, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new AppError('IMAGE_TOO_MANY_PIXELS', { params: { megapixels: IMAGE_MAX_MEGAPIXELS } });
    }
    throw new AppError('IMAGE_TYPE_INVALID', { cause: error });
  }
}

/** Stores a prepared image in the caller's transaction; returns its public URL (`/api/files/<name>`). */
export async function storePreparedImage(
  tx: Executor,
  image: PreparedImage,
  createdBy: string,
): Promise<string> {
  const name = `${randomUUID()}.webp`;
  await queries.insertStoredFile(tx, { name, ...image, createdBy });
  return `${FILES_URL_PREFIX}${name}`;
}

/**
 * Checks, re-encodes and stores an uploaded image in the caller's transaction (so the file exists
 * exactly when the record pointing to it does); returns its public URL. Refusals: IMAGE_TOO_LARGE,
 * IMAGE_TYPE_INVALID, IMAGE_TOO_MANY_PIXELS. Decoding takes tens of milliseconds: a caller that
 * would rather not hold its transaction that long calls `prepareImage` first, then `storePreparedImage`.
 */
export async function storeImage(
  tx: Executor,
  bytes: Buffer,
  options: { purpose: ImagePurpose; createdBy: string },
): Promise<string> {
  const image = await prepareImage(bytes, options.purpose);
  return storePreparedImage(tx, image, options.createdBy);
}

/**
 * Lets the routes of `scope` (a plugin's own instance) take an image's raw bytes as
 * `request.body: Buffer`: `application/octet-stream` or any `image/*` body, at most IMAGE_MAX_BYTES
 * (over it: 413 IMAGE_TOO_LARGE, by the error handler). The declared type is not trusted:
 * `storeImage` judges the bytes. Other scopes keep refusing these types (415).
 */
export function acceptImageBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    IMAGE_BODY_TYPE,
    { parseAs: 'buffer', bodyLimit: IMAGE_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
}

/** The stored file's name in one of our URLs; null for null and anything else. */
export function storedFileNameOf(url: string | null): string | null {
  if (url === null || !url.startsWith(FILES_URL_PREFIX)) return null;
  const name = url.slice(FILES_URL_PREFIX.length);
  return STORED_FILE_NAME.test(name) ? name : null;
}

/** Removes, in the caller's transaction, the file one of our URLs names (null and foreign URLs: nothing). */
export async function deleteStoredFile(tx: Executor, url: string | null): Promise<void> {
  const name = storedFileNameOf(url);
  if (name !== null) await queries.deleteStoredFileByName(tx, name);
}

/** A stored file's type and bytes by name; FILE_NOT_FOUND when there is none. */
export async function getFile(ctx: ReadContext, name: string): Promise<queries.StoredFileContent> {
  const file = await queries.findStoredFileContent(ctx.db, name);
  if (!file) throw new AppError('FILE_NOT_FOUND');
  return file;
}

/** Whether a file exists, without reading its bytes (a browser revalidating its copy). */
export function fileExists(ctx: ReadContext, name: string): Promise<boolean> {
  return queries.storedFileExists(ctx.db, name);
}
