import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_FORMATS, imageFormatOf } from '../../../shared/domain/images';
import { IMAGE_MAX_BYTES } from '../../../shared/schemas/settings';
import { type Database, type Executor, queryRows } from '../../db/client';
import { storedFiles } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { registerErrorHandling } from '../../http/error-handler';
import { registerInputGuard } from '../../http/input-guard';
import { Agent, errorOf, loginAs, type TestContext, useTestApp } from '../../test/app';
import { createUser } from '../../test/builders';
import {
  acceptImageBodies,
  deleteStoredFile,
  FILES_URL_PREFIX,
  IMAGE_MAX_MEGAPIXELS,
  type ImagePurpose,
  prepareImage,
  storeImage,
} from './files.service';

// Fixtures are made here with sharp: no binary file is committed.

function canvas(width: number, height: number, alpha = 1) {
  return sharp({ create: { width, height, channels: 4, background: { r: 200, g: 30, b: 60, alpha } } });
}

const png = (width = 64, height = 48, alpha = 1) => canvas(width, height, alpha).png().toBuffer();
const gif = () => canvas(40, 30).gif().toBuffer();
const webp = () => canvas(40, 30).webp().toBuffer();

/** A 64×32 JPEG with EXIF (camera, owner, GPS-like text) that says "rotate 90°" (orientation 6). */
function jpegWithExif() {
  return canvas(64, 32)
    .jpeg()
    .withExif({ IFD0: { Make: 'Centinela', Copyright: 'Centinela privado', ImageDescription: 'Casa' } })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/**
 * A pixel flood: a real 1×1 PNG whose header (IHDR) claims 20000×20000 pixels — 1.6 GB once
 * decoded — with its checksum fixed so decoders read it. Tiny on the wire; never decoded.
 */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const bytes = Buffer.from(await canvas(1, 1).png().toBuffer());
  // 8-byte signature, then the IHDR chunk: length (4), 'IHDR' (4), width (4), height (4), …, CRC.
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

const SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' +
    '<script>alert(1)</script><rect width="10" height="10"/></svg>',
);

async function storedCount(db: Executor): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from stored_files`);
  return row!.n;
}

async function storedBytes(db: Database, url: string): Promise<Buffer> {
  const name = url.slice(FILES_URL_PREFIX.length);
  const [row] = await db
    .select({ bytes: storedFiles.bytes })
    .from(storedFiles)
    .where(sql`${storedFiles.name} = ${name}`);
  return row!.bytes;
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/**
 * The way the settings routes take uploads, on a small app of its own over the test database: a
 * scope with `acceptImageBodies` and a route that stores the body in a transaction, beside a JSON
 * route of the same scope. The real error handler and input guard.
 */
async function uploadApp(db: Database, createdBy: string): Promise<FastifyInstance> {
  const app = Fastify({ bodyLimit: 1_048_576 });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  await app.register(async (scope) => {
    registerInputGuard(scope);
    acceptImageBodies(scope);
    scope.put<{ Params: { purpose: ImagePurpose }; Body: Buffer }>('/upload/:purpose', async (request) => {
      expect(Buffer.isBuffer(request.body)).toBe(true);
      const url = await db.transaction((tx) =>
        storeImage(tx, request.body, { purpose: request.params.purpose, createdBy }),
      );
      return { url };
    });
    scope.put('/json', async () => ({ ok: true }));
  });
  await app.ready();
  return app;
}

function upload(app: FastifyInstance, body: Buffer | Readable, contentType: string, purpose = 'logo') {
  return app.inject({
    method: 'PUT',
    url: `/upload/${purpose}`,
    payload: body,
    headers: { 'content-type': contentType },
  });
}

describe('storeImage', () => {
  const ctx = useTestApp();

  it('stores PNG, JPEG, GIF and WebP re-encoded as WebP, without metadata, and serves them', async () => {
    const user = await createUser(ctx.db);
    for (const [label, bytes] of [
      ['png', await png()],
      ['jpeg', await jpegWithExif()],
      ['gif', await gif()],
      ['webp', await webp()],
    ] as const) {
      const url = await storeImage(ctx.db, bytes, { purpose: 'avatar', createdBy: user.id });
      expect(url, label).toMatch(/^\/api\/files\/[0-9a-f-]{36}\.webp$/);
      const stored = await storedBytes(ctx.db, url);
      const metadata = await sharp(stored).metadata();
      expect(metadata.format, label).toBe('webp');
      expect(metadata.exif, label).toBeUndefined();
      expect(metadata.icc, label).toBeUndefined();
      expect(metadata.xmp, label).toBeUndefined();
      expect(metadata.orientation, label).toBeUndefined();
      expect(stored.includes('Centinela'), label).toBe(false);
    }
    expect(await storedCount(ctx.db)).toBe(4);
    // The fixture really carried the metadata that was dropped.
    expect((await sharp(await jpegWithExif()).metadata()).exif).toBeDefined();
  });

  it('applies the EXIF orientation, keeps transparency, fits the purpose’s square, never enlarges', async () => {
    const user = await createUser(ctx.db);
    const rows = async (url: string) => {
      const [row] = await ctx.db
        .select({ width: storedFiles.width, height: storedFiles.height, byteSize: storedFiles.byteSize })
        .from(storedFiles)
        .where(sql`${storedFiles.name} = ${url.slice(FILES_URL_PREFIX.length)}`);
      return row!;
    };
    const rotated = await storeImage(ctx.db, await jpegWithExif(), { purpose: 'logo', createdBy: user.id });
    expect(await rows(rotated)).toMatchObject({ width: 32, height: 64 });

    const translucent = await storeImage(ctx.db, await png(64, 48, 0.5), {
      purpose: 'logo',
      createdBy: user.id,
    });
    expect((await sharp(await storedBytes(ctx.db, translucent)).metadata()).hasAlpha).toBe(true);

    const big = await png(1000, 800);
    const logo = await storeImage(ctx.db, big, { purpose: 'logo', createdBy: user.id });
    const avatar = await storeImage(ctx.db, big, { purpose: 'avatar', createdBy: user.id });
    expect(await rows(logo)).toMatchObject({ width: 512, height: 410 });
    expect(await rows(avatar)).toMatchObject({ width: 256, height: 205 });
    const stored = await storedBytes(ctx.db, avatar);
    expect((await rows(avatar)).byteSize).toBe(stored.length);
    expect((await sharp(stored).metadata()).width).toBe(256);

    const small = await storeImage(ctx.db, await png(20, 10), { purpose: 'logo', createdBy: user.id });
    expect(await rows(small)).toMatchObject({ width: 20, height: 10 });
  });

  it('refuses an SVG, an empty body, text and a truncated image as not an image, storing nothing', async () => {
    const user = await createUser(ctx.db);
    const options = { purpose: 'logo', createdBy: user.id } as const;
    const truncated = (await png(300, 300)).subarray(0, 200);
    for (const bytes of [SVG, Buffer.alloc(0), Buffer.from('hola, no soy una imagen'), truncated]) {
      const error = await refusal(storeImage(ctx.db, bytes, options));
      expect(error.code).toBe('IMAGE_TYPE_INVALID');
      expect(error.status).toBe(400);
      expect(error.message).toBe('Por favor seleccione un archivo de imagen válido');
    }
    expect(await storedCount(ctx.db)).toBe(0);
  });

  it('refuses a pixel flood from its header, without decoding it', async () => {
    const user = await createUser(ctx.db);
    const flood = await pngClaiming(20_000, 20_000);
    expect(flood.length).toBeLessThan(200);
    expect((await sharp(flood, { limitInputPixels: false }).metadata()).width).toBe(20_000);
    const error = await refusal(storeImage(ctx.db, flood, { purpose: 'logo', createdBy: user.id }));
    // Decoding would have started and failed on the missing pixel data (IMAGE_TYPE_INVALID): the
    // limit is checked on the header, first. (How long the refusal takes is the bench's: the hostile
    // corpus's 'pixeles.png', bench/hostile.ts.)
    expect(error.code).toBe('IMAGE_TOO_MANY_PIXELS');
    expect(error.message).toBe(
      `La imagen tiene demasiados píxeles (máximo ${IMAGE_MAX_MEGAPIXELS} megapíxeles)`,
    );
    expect(await storedCount(ctx.db)).toBe(0);
  });

  it('refuses more than 2 MB before looking at it', async () => {
    const user = await createUser(ctx.db);
    const tooLarge = Buffer.concat([await png(), Buffer.alloc(IMAGE_MAX_BYTES)]);
    const error = await refusal(storeImage(ctx.db, tooLarge, { purpose: 'logo', createdBy: user.id }));
    expect(error.code).toBe('IMAGE_TOO_LARGE');
    expect(await storedCount(ctx.db)).toBe(0);
  });

  it('stores nothing when the caller’s transaction rolls back', async () => {
    const user = await createUser(ctx.db);
    const bytes = await png();
    await expect(
      ctx.db.transaction(async (tx) => {
        await storeImage(tx, bytes, { purpose: 'logo', createdBy: user.id });
        expect(await storedCount(tx)).toBe(1);
        throw new Error('the record that pointed to it failed');
      }),
    ).rejects.toThrow('the record that pointed to it failed');
    expect(await storedCount(ctx.db)).toBe(0);
  });
});

describe('deleteStoredFile', () => {
  const ctx = useTestApp();

  it('removes the file one of our URLs names; ignores null and foreign URLs', async () => {
    const user = await createUser(ctx.db);
    const kept = await storeImage(ctx.db, await png(), { purpose: 'logo', createdBy: user.id });
    const removed = await storeImage(ctx.db, await gif(), { purpose: 'avatar', createdBy: user.id });
    const name = kept.slice(FILES_URL_PREFIX.length);
    for (const foreign of [
      null,
      `https://example.com${kept}`,
      `${kept}?x=1`,
      `/api/files/../files/${name}`,
      name,
      '/api/files/',
    ]) {
      await deleteStoredFile(ctx.db, foreign);
    }
    expect(await storedCount(ctx.db)).toBe(2);
    await deleteStoredFile(ctx.db, removed);
    expect(await storedCount(ctx.db)).toBe(1);
    await deleteStoredFile(ctx.db, removed);
    expect(await storedCount(ctx.db)).toBe(1);
  });

  it('leaves the file when its creator is deleted (created_by set null)', async () => {
    const user = await createUser(ctx.db);
    await storeImage(ctx.db, await png(), { purpose: 'avatar', createdBy: user.id });
    await queryRows(ctx.db, sql`delete from profiles where id = ${user.id}`);
    const [row] = await ctx.db.select({ createdBy: storedFiles.createdBy }).from(storedFiles);
    expect(row!.createdBy).toBeNull();
  });
});

describe('uploads through a scope that accepts image bodies', () => {
  const ctx = useTestApp();

  async function setUp(context: TestContext) {
    const user = await createUser(context.db);
    return uploadApp(context.db, user.id);
  }

  it('takes the raw bytes and judges them by their content, not the declared type', async () => {
    const app = await setUp(ctx);
    try {
      // A GIF that calls itself a PNG is stored (as the GIF it is, re-encoded).
      const asPng = await upload(app, await gif(), 'image/png');
      expect(asPng.statusCode, asPng.body).toBe(200);
      expect(asPng.json().url).toMatch(/^\/api\/files\/.+\.webp$/);
      const octets = await upload(app, await jpegWithExif(), 'application/octet-stream', 'avatar');
      expect(octets.statusCode, octets.body).toBe(200);
      expect(await storedCount(ctx.db)).toBe(2);

      // An SVG is refused whatever it calls itself.
      for (const type of ['image/svg+xml', 'image/png', 'application/octet-stream']) {
        const response = await upload(app, SVG, type);
        expect(response.statusCode, type).toBe(400);
        expect(errorOf(response)).toEqual({
          code: 'IMAGE_TYPE_INVALID',
          message: 'Por favor seleccione un archivo de imagen válido',
        });
      }
      expect(await storedCount(ctx.db)).toBe(2);
    } finally {
      await app.close();
    }
  });

  it('answers 413 with the image message to a body one byte over 2 MB, and stores nothing', async () => {
    const app = await setUp(ctx);
    try {
      const tooLarge = Buffer.concat([await png(), Buffer.alloc(IMAGE_MAX_BYTES + 1)]).subarray(
        0,
        IMAGE_MAX_BYTES + 1,
      );
      expect(tooLarge.length).toBe(2_097_153);
      const expected = { code: 'IMAGE_TOO_LARGE', message: 'La imagen no debe superar los 2MB' };
      // Refused from its Content-Length, before reading it…
      const declared = await upload(app, tooLarge, 'image/png');
      expect(declared.statusCode).toBe(413);
      expect(errorOf(declared)).toEqual(expected);
      // …and while reading it when no length is declared (a stream).
      const streamed = await upload(app, Readable.from([tooLarge]), 'image/jpeg');
      expect(streamed.statusCode).toBe(413);
      expect(errorOf(streamed)).toEqual(expected);
      expect(await storedCount(ctx.db)).toBe(0);

      // Exactly 2 MB is read (and refused only as not an image: zeros after a PNG's end).
      const atLimit = await upload(app, tooLarge.subarray(0, IMAGE_MAX_BYTES), 'image/png');
      expect(atLimit.statusCode).not.toBe(413);

      // A JSON body over the app's limit keeps the general message.
      const json = await app.inject({
        method: 'PUT',
        url: '/json',
        payload: JSON.stringify({ text: 'x'.repeat(1_100_000) }),
        headers: { 'content-type': 'application/json' },
      });
      expect(json.statusCode).toBe(413);
      expect(errorOf(json)).toEqual({
        code: 'VALIDATION',
        message: 'El contenido enviado es demasiado grande.',
      });
    } finally {
      await app.close();
    }
  });

  it('leaves other scopes refusing image bodies', async () => {
    const admin = await loginAs(ctx);
    const response = await admin.request(
      'PUT',
      '/api/clients/00000000-0000-4000-8000-000000000000',
      await png(),
      {
        'content-type': 'image/png',
      },
    );
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).code).toBe('VALIDATION');
    expect(await storedCount(ctx.db)).toBe(0);
  });
});

describe('GET /api/files/:name', () => {
  const ctx = useTestApp();

  it('serves the stored bytes to a signed-in user with nosniff, its type and a year of private cache', async () => {
    const admin = await loginAs(ctx);
    const url = await storeImage(ctx.db, await png(), { purpose: 'logo', createdBy: admin.user!.id });
    const response = await admin.get(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/webp');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toBe('inline');
    expect(response.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(response.rawPayload.equals(await storedBytes(ctx.db, url))).toBe(true);
    const etag = response.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);

    // A browser revalidating its copy gets 304 and no bytes.
    const again = await admin.get(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect((await admin.get(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('answers 404 to an unknown name, 400 to a name we never make, 401 without a session', async () => {
    const admin = await loginAs(ctx);
    const url = await storeImage(ctx.db, await png(), { purpose: 'logo', createdBy: admin.user!.id });

    const unknown = await admin.get('/api/files/00000000-0000-4000-8000-000000000000.webp');
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toEqual({ code: 'FILE_NOT_FOUND', message: 'El archivo no existe.' });
    expect(unknown.headers['cache-control']).toBe('no-store');
    const revalidated = await admin.get('/api/files/00000000-0000-4000-8000-000000000000.webp', {
      'if-none-match': '"00000000-0000-4000-8000-000000000000.webp"',
    });
    expect(revalidated.statusCode).toBe(404);

    for (const name of ['x.webp', `${url.slice(FILES_URL_PREFIX.length, -5)}.png`, '..%2Fdb', 'a.svg']) {
      const response = await admin.get(`/api/files/${name}`);
      expect(response.statusCode, name).toBe(400);
      expect(errorOf(response).code, name).toBe('VALIDATION');
    }

    const anonymous = await new Agent(ctx.app).get(url);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.rawPayload.includes('RIFF')).toBe(false);
  });
});

describe('the browser’s judge of a chosen image and the server’s (issue 28 §5)', () => {
  it('agree on every accepted format and on what is none: the picker refuses on choosing what the upload would', async () => {
    const samples: [string, Buffer][] = [
      ['png', await png()],
      ['jpeg', await jpegWithExif()],
      ['gif', await gif()],
      ['webp', await webp()],
      ['text named .png', Buffer.from('esto no es una imagen, aunque se llame logo.png')],
      ['svg', SVG],
      ['pdf', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n')],
      // A real image, of a format not taken.
      ['tiff', await canvas(4, 4).tiff().toBuffer()],
    ];
    for (const [label, bytes] of samples) {
      const browser = imageFormatOf(new Uint8Array(bytes));
      const server = await fileTypeFromBuffer(bytes);
      const accepted = await prepareImage(bytes, 'logo').then(
        () => true,
        () => false,
      );
      expect(browser !== null, label).toBe(accepted);
      if (browser) expect(browser.mimeTypes, label).toContain(server?.mime);
    }
    // And the server takes exactly the shared list's types.
    expect(IMAGE_FORMATS.flatMap((format) => format.mimeTypes).sort()).toEqual([
      'image/apng',
      'image/gif',
      'image/jpeg',
      'image/png',
      'image/webp',
    ]);
  });
});
