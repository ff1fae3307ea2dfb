import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardResponse } from '../../../shared/schemas/dashboard';
import { serviceContext } from '../../http/context';
import * as dashboard from './dashboard.service';
import { InventoryCounts } from './inventory-counts';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const inventoryCounts = new InventoryCounts();
  app.get(
    '/',
    { config: { access: 'staff' }, schema: { tags: ['dashboard'], response: { 200: dashboardResponse } } },
    async (request) => dashboard.getDashboard(serviceContext(request), inventoryCounts),
  );
};
