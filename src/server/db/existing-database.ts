import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The command-line tools that work on an existing embedded database (`npm run backup`, `import`) open
 * it only when it is there: opening a data directory creates a database in it, so a mistyped DATA_DIR
 * would have produced a backup of a new, empty one, or an import into it. `npm run restore` makes the
 * database, but only inside a data directory that exists.
 */
export class NoDatabaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoDatabaseError';
  }
}

/** PostgreSQL's own marker of a data directory: written first when a database is created. */
function holdsDatabase(dataDir: string): boolean {
  return existsSync(join(dataDir, 'db', 'PG_VERSION'));
}

/** Refuses, changing nothing, when DATA_DIR holds no embedded database. */
export function requireEmbeddedDatabase(dataDir: string): void {
  if (holdsDatabase(dataDir)) return;
  const where = resolve(dataDir);
  throw new NoDatabaseError(
    `No hay una base de datos en ${where}: revise DATA_DIR (o DATABASE_URL para PostgreSQL). No se creó ` +
      `nada. / There is no database in ${where}: check DATA_DIR (or DATABASE_URL). Nothing was created.`,
  );
}

/** Refuses, changing nothing, a restore into a data directory that does not exist (a mistyped path). */
export function requireDataDirectory(dataDir: string): void {
  const where = resolve(dataDir);
  if (existsSync(where) && statSync(where).isDirectory()) return;
  throw new NoDatabaseError(
    `No hay una base de datos en ${where}, ni el directorio: revise DATA_DIR o --data-dir. Para ` +
      `restaurar en un directorio nuevo, créelo primero. No se creó nada. / There is no database in ` +
      `${where}, nor the directory: check DATA_DIR or --data-dir; to restore into a new directory, ` +
      'create it first. Nothing was created.',
  );
}
