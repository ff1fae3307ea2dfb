import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { AppError } from '../../http/app-error';

/** Liveness that proves the database answers: the client's connection banner polls it. */
export const healthRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: { tags: ['health'], response: { 200: z.object({ status: z.literal('ok') }) } },
    },
    async () => {
      try {
        await db.execute(sql`select 1`);
      } catch (error) {
        throw new AppError('DATABASE_UNAVAILABLE', { cause: error });
      }
      return { status: 'ok' as const };
    },
  );
};
