import { defineConfig } from 'drizzle-kit';

// Used only to generate migrations (`npm run db:generate`); they are committed and applied at start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './drizzle',
});
