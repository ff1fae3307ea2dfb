// The initial JavaScript of the built client: what index.html loads at once (its entry script and the
// modulepreloads), gzip -9. DESIGN §6 sets its budget; `npm test` checks it from the build's files
// (a size, the same on every machine), and `npm run bench` reports it beside its measures.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** DESIGN §6 (part 2): the initial JavaScript stays within 165 KB gzip; later parts add lazy routes only. */
export const INITIAL_JS_BUDGET_KB = 165;

/** The gzip size of the JavaScript the built index.html loads at once (entry + modulepreloads). */
export function initialJavaScript(clientDir = 'dist/client') {
  const html = readFileSync(join(clientDir, 'index.html'), 'utf8');
  const paths = new Set();
  for (const match of html.matchAll(/<script[^>]*\bsrc="([^"]+\.js)"/g)) paths.add(match[1]);
  for (const match of html.matchAll(/<link[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+\.js)"/g))
    paths.add(match[1]);
  for (const match of html.matchAll(/<link[^>]*\bhref="([^"]+\.js)"[^>]*\brel="modulepreload"/g))
    paths.add(match[1]);
  const files = [...paths].map((path) => {
    const content = readFileSync(join(clientDir, path.replace(/^\//, '')));
    return { file: path, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
  });
  return { files, gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0) };
}

/** `npm test`'s check: one line with the size and the budget; exit code 1 when over it. */
export function checkInitialJavaScript(clientDir = 'dist/client') {
  const { files, gzipBytes } = initialJavaScript(clientDir);
  const kb = gzipBytes / 1000;
  const met = kb <= INITIAL_JS_BUDGET_KB;
  console.log(
    `Initial JavaScript (entry + ${files.length - 1} modulepreloads, gzip -9): ${kb.toFixed(1)} KB, budget ${INITIAL_JS_BUDGET_KB} KB: ${met ? 'met' : 'OVER BUDGET'}`,
  );
  if (!met)
    for (const file of [...files].sort((a, b) => b.gzipBytes - a.gzipBytes))
      console.log(`  ${(file.gzipBytes / 1000).toFixed(1).padStart(7)} KB  ${file.file}`);
  return met;
}
