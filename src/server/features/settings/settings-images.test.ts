import { count } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES } from '../../../shared/schemas/settings';
import { buildApp } from '../../app';
import { storedFiles } from '../../db/schema';
import { Agent, errorOf, loginAs, useTestApp } from '../../test/app';
import { createProject, createUser } from '../../test/builders';

const OCTET = { 'content-type': 'application/octet-stream' };

function image(format: 'png' | 'gif' | 'jpeg', width = 64, height = 48) {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    [format]()
    .toBuffer();
}

/** A PNG whose header claims `width`×`height` (its CRC fixed), with almost no pixel data behind it. */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await image('png', 1, 1));
  // IHDR data starts at byte 16: width, height (big-endian), then its CRC over type + data.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

describe('settings: logos and avatars', () => {
  const ctx = useTestApp();
  const storedCount = async () => (await ctx.db.select({ n: count() }).from(storedFiles))[0]!.n;

  it('stores a project logo through the server, serves it with nosniff, replaces and removes it', async () => {
    const admin = await loginAs(ctx);
    const project = await createProject(ctx.db);
    const uploaded = await admin.put(`/api/settings/projects/${project.id}/logo`, await image('png'), OCTET);
    expect(uploaded.statusCode).toBe(200);
    const { logoUrl, version } = uploaded.json().project;
    expect(logoUrl).toMatch(/^\/api\/files\/[0-9a-f-]{36}\.webp$/);
    expect(version).toBe(2);
    const served = await admin.get(logoUrl);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');
    // The list shows it.
    const listed = (await admin.get('/api/settings/projects')).json().rows[0];
    expect(listed.logoUrl).toBe(logoUrl);

    // A new logo replaces the old one, whose file is gone with it.
    const replaced = await admin.put(`/api/settings/projects/${project.id}/logo`, await image('jpeg'), OCTET);
    expect(replaced.json().project.logoUrl).not.toBe(logoUrl);
    expect((await admin.get(logoUrl)).statusCode).toBe(404);
    expect(await storedCount()).toBe(1);
    const removed = await admin.delete(`/api/settings/projects/${project.id}/logo`);
    expect(removed.json().project.logoUrl).toBeNull();
    expect(await storedCount()).toBe(0);
  });

  it('judges the type by the bytes: a GIF named .png is stored, an SVG is refused', async () => {
    const admin = await loginAs(ctx);
    const user = await createUser(ctx.db, { userType: 'KAM' });
    const gif = await image('gif');
    const asPng = await admin.put(`/api/settings/users/${user.id}/avatar`, gif, {
      'content-type': 'image/png',
      'content-disposition': 'attachment; filename="foto.png"',
    });
    expect(asPng.statusCode).toBe(200);
    expect(asPng.json().user.avatarUrl).toMatch(/\.webp$/);

    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="9" height="9"/></svg>',
    );
    for (const headers of [OCTET, { 'content-type': 'image/svg+xml' }]) {
      const refused = await admin.put(`/api/settings/users/${user.id}/avatar`, svg, headers);
      expect(refused.statusCode).toBe(400);
      expect(errorOf(refused).message).toBe('Por favor seleccione un archivo de imagen válido');
    }
    expect(await storedCount()).toBe(1);
    expect((await admin.get(`/api/settings/users/${user.id}`)).json().user.avatarUrl).toBe(
      asPng.json().user.avatarUrl,
    );
  });

  it('refuses 2,097,153 bytes with 413 and the spec message, storing nothing', async () => {
    const admin = await loginAs(ctx);
    const user = await createUser(ctx.db, { userType: 'KAM' });
    const png = await image('png');
    const oversized = Buffer.concat([png, Buffer.alloc(IMAGE_MAX_BYTES + 1 - png.length)]);
    expect(oversized.length).toBe(2_097_153);
    const refused = await admin.put(`/api/settings/users/${user.id}/avatar`, oversized, OCTET);
    expect(refused.statusCode).toBe(413);
    expect(errorOf(refused).message).toBe('La imagen no debe superar los 2MB');
    expect(await storedCount()).toBe(0);
    expect((await admin.get(`/api/settings/users/${user.id}`)).json().user).toMatchObject({
      avatarUrl: null,
      version: 1,
    });
  });

  it('refuses a 20000×20000 image (a pixel flood) without decoding it', async () => {
    const admin = await loginAs(ctx);
    const project = await createProject(ctx.db);
    const flood = await pngClaiming(20_000, 20_000);
    expect((await sharp(flood, { limitInputPixels: false }).metadata()).width).toBe(20_000);
    const refused = await admin.put(`/api/settings/projects/${project.id}/logo`, flood, OCTET);
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).code).toBe('IMAGE_TOO_MANY_PIXELS');
    expect(await storedCount()).toBe(0);
  });

  it('serves an image stored through one server instance from another on the same database', async () => {
    const admin = await loginAs(ctx);
    const project = await createProject(ctx.db);
    const uploaded = await admin.put(`/api/settings/projects/${project.id}/logo`, await image('png'), OCTET);
    const { logoUrl } = uploaded.json().project;
    // A second instance: nothing of the first one's memory, only the database (DESIGN §14).
    const other = await buildApp({
      db: ctx.db,
      serveClient: false,
      env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    });
    try {
      const elsewhere = new Agent(other);
      elsewhere.cookie = admin.cookie;
      const served = await elsewhere.get(logoUrl);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals((await admin.get(logoUrl)).rawPayload)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('refuses an upload to a project that does not exist, and an empty body', async () => {
    const admin = await loginAs(ctx);
    const missing = await admin.put(
      '/api/settings/projects/00000000-0000-4000-8000-000000000000/logo',
      await image('png'),
      OCTET,
    );
    expect(missing.statusCode).toBe(404);
    const project = await createProject(ctx.db);
    const empty = await admin.put(`/api/settings/projects/${project.id}/logo`, Buffer.alloc(0), OCTET);
    expect(empty.statusCode).toBe(400);
    expect(await storedCount()).toBe(0);
  });
});
