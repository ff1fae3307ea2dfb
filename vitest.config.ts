import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { HeavyFirstSequencer } from './src/server/test/heavy-first-sequencer';

const apiProject = process.env.TEST_DATABASE_URL ? 'api-postgres' : 'api-pglite';
const GENERATOR_TEST = 'scripts/demo-data.test.ts';
const OWN_EMBEDDED_DATABASE_TESTS = [
  'src/server/main.test.ts',
  'src/server/supervisor.test.ts',
  'src/server/db/migrations.test.ts',
  'src/server/db/current-schema.test.ts',
  'src/server/db/pglite-statements.test.ts',
  'src/server/db/maintenance.test.ts',
  'src/server/db/existing-database.test.ts',
];

export default defineConfig({
  test: {
    sequence: { sequencer: HeavyFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['src/shared/**/*.test.ts', 'scripts/**/*.test.ts'],
          // The generator's test builds datasets on embedded databases: it runs with the database
          // tests (below), out of `npm run check`'s inner loop.
          exclude: [GENERATOR_TEST],
          environment: 'node',
          // As the client project's: beside the journeys (load 25 on two cores, measured) the deep-nesting
          // and property tests took 10-16 s against Vitest's 5 s default. A ceiling, not a measure.
          testTimeout: 20_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'client',
          sequence: { groupOrder: 1 },
          include: ['src/client/**/*.test.tsx', 'src/client/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['src/client/test/setup.ts'],
          // One jsdom window per worker instead of one per file: the files' set-up and imports were
          // ~80 % of this project's time (124 s → 22 s). The setup file puts back what a test changes.
          isolate: false,
          // `npm test` runs this project beside the Playwright journeys: a typing test that takes
          // 1 s alone has taken 8 s there. The ceiling is not a measure; nothing here waits on a timer.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          // The same suite runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
          name: apiProject,
          sequence: { groupOrder: 2 },
          include: ['src/server/**/*.test.ts', GENERATOR_TEST],
          // Tests that open embedded databases of their own (the process-level test, the generator's,
          // the migrations', the embedded statements', housekeeping, the tools' refusal of a data
          // directory without a database) do not depend on the engine under test: the PostgreSQL
          // lane would run them again as they are. Tests of one engine (src/server/test/engine.ts)
          // are reported as skipped on the other, never left out.
          exclude: process.env.TEST_DATABASE_URL ? [...OWN_EMBEDDED_DATABASE_TESTS, GENERATOR_TEST] : [],
          environment: 'node',
          globalSetup: ['src/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // Files of a worker share the imported modules and one database, put back before each test
          // (src/server/test/database.ts); each test has its own app. The import of the server's
          // graph and the opening of a database were paid per file.
          isolate: false,
          // Each worker holds an embedded PostgreSQL (~0.5-1 GB): two fit the machine's two cores.
          maxWorkers: 2,
        },
      },
    ],
  },
});
