// `npm run suppressions-ledger -- --write DIR | --replay FILE` (decision 0054), for PostgreSQL, whose
// backups are pg_dump's and the provider's: `--write` saves the ledger of suppressions (no personal
// data) beside the dumps — run it with each dump; `--replay`, after restoring a dump (servers stopped),
// carries out again every suppression the restored database does not record, and prints what it did.
// The embedded database does both by itself (BACKUP_DIR/suppressions.ledger.json, `npm run restore`).
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/server/db/client';
import { loadEnv } from '../src/server/env';
import * as dataRequests from '../src/server/features/data-requests/data-requests.service';
import { formatDateTime } from '../src/shared/format';

const { values } = parseArgs({ options: { write: { type: 'string' }, replay: { type: 'string' } } });
if (!values.write === !values.replay) {
  console.error('Uso / usage: npm run suppressions-ledger -- --write CARPETA | --replay ARCHIVO');
  process.exit(2);
}
const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  await database.migrate();
  if (values.write) {
    const entries = await dataRequests.ledgerEntries(database.db);
    const path = await dataRequests.writeLedgerBeside(database.db, values.write, new Date());
    console.log(`Registro de supresiones (${entries.length}) escrito en ${path}.`);
  } else if (values.replay) {
    const entries = await dataRequests.readLedgerFile(values.replay);
    const replayed = await dataRequests.replaySuppressions(database.db, entries, new Date());
    if (replayed.some((entry) => entry.outcome === 'suppressed'))
      await dataRequests.scrubPending(database.db, { now: new Date() });
    console.log(
      replayed.length === 0
        ? 'Supresiones repetidas: ninguna (la base de datos ya las tenía todas).'
        : [
            `Supresiones repetidas (${replayed.length}):`,
            ...replayed.map(
              (entry) =>
                `  · solicitud ${entry.requestId} del ${formatDateTime(entry.suppressedAt)}: ${entry.outcome}`,
            ),
          ].join('\n'),
    );
  }
} catch (error) {
  if (error instanceof dataRequests.LedgerFileError) {
    console.error(`\n${error.message}\n`);
    process.exitCode = 1;
  } else throw error;
} finally {
  await database.close();
}
