import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardResponse } from '../../../shared/schemas/dashboard';
import type { Database } from '../../db/client';
import * as dashboard from './dashboard.service';

export interface DashboardRoutesOptions {
  db: Database;
  /** The clock (tests fix it; the current month and days late depend on it). */
  now?: (() => Date) | undefined;
}

export const dashboardRoutes: FastifyPluginAsyncZod<DashboardRoutesOptions> = async (app, { db, now }) => {
  app.get('/', { schema: { tags: ['dashboard'], response: { 200: dashboardResponse } } }, async () =>
    dashboard.getDashboard(db, now ? now() : new Date()),
  );
};
