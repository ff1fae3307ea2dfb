import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { repeatedDeflate, writeZip } from '../test/corpus/zip-writer';
import {
  budgetOf,
  bufferSource,
  type InflateBounds,
  inflateAll,
  inflateEntry,
  inflateWhole,
  zipEntries,
} from './zip';

const MB = 1024 * 1024;
const BOUNDS: InflateBounds = { entryBytes: 8 * MB, totalBytes: 12 * MB, ratio: 100, ratioFloor: MB };

async function inflated(bytes: Buffer, bounds = BOUNDS) {
  const source = bufferSource(bytes);
  const budget = budgetOf(bounds);
  const sizes: number[] = [];
  for (const entry of await zipEntries(source)) {
    let size = 0;
    for await (const piece of inflateEntry(source, entry, budget)) size += piece.length;
    sizes.push(size);
  }
  return { sizes, spent: budget.spent };
}

describe('zip entries judged by the bytes really inflated', () => {
  it('reads honest entries whole, deflated or stored, whatever order they are in', async () => {
    const noise = randomBytes(300_000);
    const zip = writeZip([
      { name: 'b.xml', data: '<b/>'.repeat(1000) },
      { name: 'a.bin', data: noise, stored: true },
    ]);
    expect((await inflated(zip)).sizes).toEqual([4000, 300_000]);
    const source = bufferSource(zip);
    const [, stored] = await zipEntries(source);
    expect((await inflateWhole(source, stored!, budgetOf(BOUNDS), MB)).equals(noise)).toBe(true);
  });

  it('stops an entry that lies about its size as soon as it passes its bound', async () => {
    // 64 MB of text declared as 10 bytes: refused after inflating about the entry's bound, no more.
    const lying = writeZip([
      { name: 'x.xml', data: repeatedDeflate('<x>', 'y'.repeat(MB), 64, '</x>'), declaredSize: 10 },
    ]);
    const bounds = { ...BOUNDS, ratio: 1_000_000 };
    const source = bufferSource(lying);
    const budget = budgetOf(bounds);
    const [entry] = await zipEntries(source);
    await expect(
      (async () => {
        for await (const _ of inflateEntry(source, entry!, budget)) {
          // Inflating until refused.
        }
      })(),
    ).rejects.toMatchObject({ why: 'expands' });
    expect(budget.spent).toBeGreaterThan(bounds.entryBytes);
    expect(budget.spent).toBeLessThan(bounds.entryBytes + MB);
  });

  it('refuses by ratio once an entry is past the floor, and by the total over all entries', async () => {
    const bomb = writeZip([{ name: 'x.xml', data: repeatedDeflate('', '0'.repeat(MB), 4, '') }]);
    await expect(inflated(bomb)).rejects.toMatchObject({ why: 'expands' });
    // Five honest 3 MB entries of noise: each within its bound, together past the total.
    const many = writeZip(
      Array.from({ length: 5 }, (_, n) => ({ name: `${n}.bin`, data: randomBytes(3 * MB) })),
    );
    await expect(inflated(many)).rejects.toMatchObject({ why: 'expands' });
    await expect(inflateAll(bufferSource(many), { ...BOUNDS, totalBytes: 16 * MB })).resolves.toBeUndefined();
  });

  it('calls a cut or garbled container damaged, and a Zip64 one too big', async () => {
    const zip = writeZip([{ name: 'a.xml', data: '<a/>'.repeat(10_000) }]);
    await expect(zipEntries(bufferSource(zip.subarray(0, zip.length - 30)))).rejects.toMatchObject({
      why: 'damaged',
    });
    const garbled = Buffer.from(zip);
    garbled.fill(0xff, 40, 60);
    await expect(inflated(garbled)).rejects.toMatchObject({ why: 'damaged' });
    const zip64 = Buffer.from(zip);
    zip64.writeUInt32LE(0xffffffff, zip64.length - 6);
    await expect(zipEntries(bufferSource(zip64))).rejects.toMatchObject({ why: 'expands' });
  });

  it('stops inflating when the reader stops early', async () => {
    const big = writeZip([{ name: 'x.xml', data: repeatedDeflate('', 'z'.repeat(MB), 6, '') }]);
    const source = bufferSource(big);
    const budget = budgetOf({ ...BOUNDS, ratio: 1_000_000 });
    const [entry] = await zipEntries(source);
    for await (const _ of inflateEntry(source, entry!, budget)) break;
    expect(budget.spent).toBeLessThan(MB);
  });
});
