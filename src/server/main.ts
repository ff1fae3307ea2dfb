import { buildApp } from './app';
import { openDatabase } from './db/client';
import { DataDirLockedError } from './db/data-dir-lock';
import { loadEnv } from './env';

/** env -> database -> migrate -> listen; closes everything cleanly on SIGINT/SIGTERM. */
async function main() {
  const env = loadEnv();
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(`\n${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  await database.migrate();
  // The embedded database is locked to this process: it is the only writer.
  const app = await buildApp({ db: database.db, env });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
    } finally {
      await database.close();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ host: env.HOST, port: env.PORT });
  } catch (error) {
    app.log.error(error);
    await database.close();
    process.exit(1);
  }
  const where = database.kind === 'pglite' ? `embedded database in ${env.DATA_DIR}` : 'PostgreSQL';
  app.log.info(
    `Inmoflujo listening on http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT} (${where})`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
