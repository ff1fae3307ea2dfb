import {
  dropWorkerDatabases,
  preparePgliteTemplate,
  prepareTemplateDatabase,
  testDatabaseUrl,
} from './database';

/**
 * Vitest global setup of the API project: the migrated template every test file starts from — on
 * PostgreSQL a template database (made afresh each run), on PGlite a data-directory dump kept under
 * .tmp while the migrations do not change. Each worker copies it once for all its files
 * (`openTestDatabaseSource`); on PostgreSQL those copies are dropped when the run ends.
 */
export default async function setup() {
  const url = testDatabaseUrl();
  if (!url) {
    await preparePgliteTemplate();
    return;
  }
  await dropWorkerDatabases(url);
  await prepareTemplateDatabase(url);
  return () => dropWorkerDatabases(url);
}
