import { preparePgliteTemplate, prepareTemplateDatabase, testDatabaseUrl } from './database';

/**
 * Vitest global setup of the API project: the migrated template every test file starts from — on
 * PostgreSQL a template database (made afresh each run), on PGlite a data-directory dump kept under
 * .tmp while the migrations do not change.
 */
export default async function setup() {
  const url = testDatabaseUrl();
  if (url) await prepareTemplateDatabase(url);
  else await preparePgliteTemplate();
}
