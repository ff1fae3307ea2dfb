import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteTemplate } from '../test/database';
import { createPglite } from './client';
import { currentSchemaFiles, currentSchemaFolder, differingObjects } from './current-schema';

function committedFiles(names: string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => [name, readFileSync(join(currentSchemaFolder, name), 'utf8')]),
  );
}

describe('src/server/db/current/: today’s views, functions and triggers, as the migrations make them', () => {
  // The run's template is a fresh database migrated with every committed migration.
  let client: PGlite;
  const query = <T>(text: string) => client.query<T>(text);
  beforeAll(async () => {
    client = await createPglite({ loadDataDir: await pgliteTemplate() });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('equals what the committed migrations produce (else: npm run db:current)', async () => {
    const produced = await currentSchemaFiles(query);
    const committed = committedFiles(Object.keys(produced));
    expect(
      differingObjects(committed, produced),
      'differ from the migrations: run `npm run db:current`',
    ).toEqual([]);
    expect(committed).toEqual(produced);
  });

  it('names the object a hand edit changed', async () => {
    const produced = await currentSchemaFiles(query);
    await client.exec('begin');
    await client.exec(`create or replace view unit_statuses as
      select u.id as unit_id, u.project_id, null::uuid as reservation_id, 'Disponible'::text as status from units u`);
    const edited = await currentSchemaFiles(query);
    await client.exec('rollback');
    expect(differingObjects(produced, edited)).toEqual([
      expect.stringMatching(/^views\.sql: unit_statuses \(drizzle\//),
    ]);
  });
});
