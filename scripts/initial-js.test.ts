import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { checkInitialJavaScript, INITIAL_JS_BUDGET_KB, initialJavaScript } from './initial-js.mjs';

const client = mkdtempSync(join(tmpdir(), 'inmoflujo-client-'));
afterAll(() => rmSync(client, { recursive: true, force: true }));

/** A built client: index.html loading an entry and a modulepreload; a lazy chunk it does not load. */
function built(entryBytes: Buffer): void {
  mkdirSync(join(client, 'assets'), { recursive: true });
  writeFileSync(join(client, 'assets', 'index.js'), entryBytes);
  writeFileSync(join(client, 'assets', 'vendor.js'), 'export const vendor = 1;');
  writeFileSync(join(client, 'assets', 'lazy.js'), Buffer.alloc(500_000, 'x'));
  writeFileSync(
    join(client, 'index.html'),
    `<script type="module" crossorigin src="/assets/index.js"></script>
     <link rel="modulepreload" crossorigin href="/assets/vendor.js">`,
  );
}

describe('the initial JavaScript budget, from the build’s files', () => {
  it('sums the gzip of the entry and its modulepreloads, not the lazy chunks', () => {
    const entry = Buffer.from('console.log("hola");'.repeat(100));
    built(entry);
    const { files, gzipBytes } = initialJavaScript(client);
    expect(files.map((file) => file.file)).toEqual(['/assets/index.js', '/assets/vendor.js']);
    const vendor = gzipSync(Buffer.from('export const vendor = 1;'), { level: 9 }).length;
    expect(gzipBytes).toBe(gzipSync(entry, { level: 9 }).length + vendor);
  });

  it('fails, naming the files, once the entry is over the budget', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      built(Buffer.from('export const ok = true;'));
      expect(checkInitialJavaScript(client)).toBe(true);
      // Random bytes do not compress: a little over the budget in gzip.
      const random = randomBytes((INITIAL_JS_BUDGET_KB + 5) * 1000);
      built(random);
      expect(checkInitialJavaScript(client)).toBe(false);
      expect(log.mock.calls.flat().join('\n')).toMatch(/OVER BUDGET[\s\S]*\/assets\/index\.js/);
    } finally {
      log.mockRestore();
    }
  });
});
