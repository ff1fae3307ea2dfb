// `npm run db:current`: writes src/server/db/current/ (today's views, functions and triggers) from a
// fresh embedded database migrated with every committed migration (decision 0067). Run it after
// adding a migration that changes one of them; `current-schema.test.ts` fails until you do.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPglite, migratePglite } from '../src/server/db/client';
import { currentSchemaFiles, currentSchemaFolder } from '../src/server/db/current-schema';

const client = await createPglite();
try {
  await migratePglite(client);
  const files = await currentSchemaFiles((text) => client.query(text));
  mkdirSync(currentSchemaFolder, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(currentSchemaFolder, name), text);
  console.log(`Written: ${Object.keys(files).join(', ')} in src/server/db/current/.`);
} finally {
  await client.close();
}
