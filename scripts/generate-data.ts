// Fills a database with the generated dataset (scripts/demo-data.ts):
//   npx tsx scripts/generate-data.ts --scale demo|e2e|bench [--seed N]
// Uses DATABASE_URL / DATA_DIR like the server (stop the server first when on the embedded
// database). Migrates first; refuses a database that already holds reservations.
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/server/db/client';
import { loadEnv } from '../src/server/env';
import { generateDataset, isEmpty, SCALES, type ScaleName } from './demo-data';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'demo' },
    seed: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
});
if (!(values.scale! in SCALES)) {
  console.error(`--scale debe ser uno de: ${Object.keys(SCALES).join(', ')}`);
  process.exit(2);
}

const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  await database.migrate();
  if (!(await isEmpty(database.db))) {
    console.error('The database already holds reservations: nothing generated.');
    process.exitCode = 1;
  } else {
    const log = values.quiet ? undefined : (message: string) => console.log(message);
    const summary = await generateDataset(database.db, {
      scale: values.scale as ScaleName,
      seed: values.seed ? Number(values.seed) : undefined,
      log,
    });
    console.log(
      `Dataset '${summary.scale}' generated in ${(summary.millis / 1000).toFixed(1)} s: ${JSON.stringify(summary.counts)}`,
    );
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await database.close();
}
