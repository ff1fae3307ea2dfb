// Builds client and server when dist/ is missing or older than any source it is built from.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STAMP = 'dist/.build-stamp';
const INPUTS = ['src', 'drizzle', 'package.json', 'vite.config.ts', 'vite.server.config.ts'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when dist/ holds a whole build newer than every source it is built from. */
export function buildIsFresh() {
  const built =
    existsSync(STAMP) && existsSync('dist/server/main.js') && existsSync('dist/client/index.html');
  return built && Math.max(...INPUTS.map(newestMtime)) <= statSync(STAMP).mtimeMs;
}

export function buildIfNeeded({ force = false } = {}) {
  if (!force && buildIsFresh()) return;
  console.log('Building Inmoflujo (client and server)...');
  const result = spawnSync('npm', ['run', 'build'], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(STAMP, new Date().toISOString());
}
