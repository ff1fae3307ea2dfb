import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const apiProject = process.env.TEST_DATABASE_URL ? 'api-postgres' : 'api-pglite';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['src/shared/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
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
        },
      },
      {
        test: {
          // The same suite runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
          name: apiProject,
          sequence: { groupOrder: 2 },
          include: ['src/server/**/*.test.ts'],
          // The process-level test is about the embedded database; it does not depend on the engine.
          exclude: process.env.TEST_DATABASE_URL ? ['src/server/main.test.ts'] : [],
          environment: 'node',
          globalSetup: ['src/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // Each worker holds an embedded PostgreSQL (~0.5-1 GB): two fit the machine's two cores.
          maxWorkers: 2,
        },
      },
    ],
  },
});
