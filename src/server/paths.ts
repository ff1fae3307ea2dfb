import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root, found by walking up from this module until our package.json. Works from
 * the sources (tsx, vitest) and from the bundled server in dist/server alike.
 */
function findProjectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate) && JSON.parse(readFileSync(candidate, 'utf8')).name === 'inmoflujo') return dir;
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

export const projectRoot = findProjectRoot();
export const migrationsFolder = resolve(projectRoot, 'drizzle');
export const clientDistFolder = resolve(projectRoot, 'dist/client');
