import { prepareTemplateDatabase, testDatabaseUrl } from './database';

/** Vitest global setup of the API project: on PostgreSQL, migrate the template once per run. */
export default async function setup() {
  const url = testDatabaseUrl();
  if (url) await prepareTemplateDatabase(url);
}
