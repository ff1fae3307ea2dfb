import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  permissionGrantBody,
  permissionGrantParams,
  permissionsResponse,
} from '../../../shared/schemas/permissions';
import { serviceContext } from '../../http/context';
import { currentUser } from '../../http/session';
import * as permissions from './permissions.service';

/** Configuración → Permisos (issue 56, decision 0061): roles as data, for whoever manages permissions. */
export const permissionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['settings: permissions'];
  app.get(
    '/',
    {
      config: { access: { action: 'permissions.manage' } },
      schema: { tags, response: { 200: permissionsResponse } },
    },
    async (request) =>
      permissions.list({ user: currentUser(request) }, request.server.dependencies.permissionGrants),
  );

  app.put(
    '/:action/:userType',
    {
      config: { access: { action: 'permissions.manage' } },
      schema: {
        tags,
        params: permissionGrantParams,
        body: permissionGrantBody,
        response: { 200: permissionsResponse },
      },
    },
    async (request) =>
      permissions.setGrant(
        serviceContext(request),
        request.server.dependencies.permissionGrants,
        request.params.action,
        request.params.userType,
        request.body.granted,
      ),
  );
};
