import { describe } from 'vitest';
import { testDatabaseUrl } from './database';

/**
 * Tests that need one engine. On the other they are not left out but reported as skipped, the reason
 * in the title (the same in both runs, so `npm test` can tell a test skipped in one run but passed
 * in the other from one that ran nowhere: scripts/test.mjs counts only the latter as skipped).
 */
export const POSTGRES_ONLY = '(solo PostgreSQL: necesita TEST_DATABASE_URL)';
export const EMBEDDED_ONLY = '(solo la base embebida: sin TEST_DATABASE_URL)';

/** A block that runs only where PostgreSQL is the database under test (TEST_DATABASE_URL). */
export function describeOnPostgres(title: string, body: () => void): void {
  describe.runIf(testDatabaseUrl() !== undefined)(`${title} ${POSTGRES_ONLY}`, body);
}

/** A block that runs only on the embedded database (PGlite). */
export function describeOnEmbedded(title: string, body: () => void): void {
  describe.runIf(testDatabaseUrl() === undefined)(`${title} ${EMBEDDED_ONLY}`, body);
}
