import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bankVerifyBody } from '../../../shared/schemas/brokers';
import { idParams, pageQuery } from '../../../shared/schemas/common';
import {
  agencyBody,
  agencyOptionsResponse,
  agencyPage,
  agencyResponse,
  agencyUpdateBody,
  defaultAssigneesBody,
  defaultAssigneesResponse,
  defaultSellerBody,
  defaultSellerResponse,
  paymentFlowSettingsResponse,
  projectBody,
  projectPage,
  projectResponse,
  projectUpdateBody,
  saleFlowSettingsResponse,
  settingsUserResponse,
  taskIdParams,
  userCreateBody,
  userPage,
  userPasswordBody,
  userUpdateBody,
} from '../../../shared/schemas/settings';
import { AppError } from '../../http/app-error';
import { serviceContext } from '../../http/context';
import { acceptImageBodies } from '../files/files.service';
import * as agencies from './agencies.service';
import * as flowDefaults from './flow-defaults.service';
import * as projects from './projects.service';
import * as users from './users.service';

/** The raw bytes of an uploaded image (PNG, JPEG, GIF or WebP; at most 2 MB); anything else is not an image. */
function imageOf(body: unknown): Buffer {
  if (Buffer.isBuffer(body) && body.length > 0) return body;
  throw new AppError('IMAGE_TYPE_INVALID');
}

/** Configuración (issue 11): reads for every signed-in user, writes for administrators (in the services). */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Logos and avatars arrive as the raw bytes of the file (≤ 2 MB).
  acceptImageBodies(app);

  // --- Inmobiliarias ---------------------------------------------------------------------------
  {
    const tags = ['settings: agencies'];
    app.get(
      '/agencies',
      {
        config: { access: 'staff' },
        schema: { tags, querystring: pageQuery, response: { 200: agencyPage } },
      },
      async (request) => agencies.list(serviceContext(request), request.query),
    );
    app.get(
      '/agencies/options',
      { config: { access: 'staff' }, schema: { tags, response: { 200: agencyOptionsResponse } } },
      async (request) => ({
        agencies: await agencies.listOptions(serviceContext(request)),
      }),
    );
    app.get(
      '/agencies/:id',
      { config: { access: 'staff' }, schema: { tags, params: idParams, response: { 200: agencyResponse } } },
      async (request) => ({ agency: await agencies.get(serviceContext(request), request.params.id) }),
    );
    app.post(
      '/agencies',
      {
        config: { access: { action: 'agencies.manage' } },
        schema: { tags, body: agencyBody, response: { 201: agencyResponse } },
      },
      async (request, reply) =>
        reply.status(201).send({ agency: await agencies.create(serviceContext(request), request.body) }),
    );
    app.put(
      '/agencies/:id',
      {
        config: { access: { action: 'agencies.manage' } },
        schema: { tags, params: idParams, body: agencyUpdateBody, response: { 200: agencyResponse } },
      },
      async (request) => ({
        agency: await agencies.update(serviceContext(request), request.params.id, request.body),
      }),
    );
    // 'Verificar cuenta' (issue 53, decision 0063): another payments user or an administrator.
    app.post(
      '/agencies/:id/account/verify',
      {
        config: { access: { policy: 'bankAccounts.verify' } },
        schema: { tags, params: idParams, body: bankVerifyBody, response: { 200: agencyResponse } },
      },
      async (request) => ({
        agency: await agencies.verifyAccount(
          serviceContext(request),
          request.params.id,
          request.body.version,
        ),
      }),
    );
  }

  // --- Proyectos -------------------------------------------------------------------------------
  {
    const tags = ['settings: projects'];
    app.get(
      '/projects',
      {
        config: { access: 'staff' },
        schema: { tags, querystring: pageQuery, response: { 200: projectPage } },
      },
      async (request) => projects.list(serviceContext(request), request.query),
    );
    app.get(
      '/projects/:id',
      { config: { access: 'staff' }, schema: { tags, params: idParams, response: { 200: projectResponse } } },
      async (request) => ({ project: await projects.get(serviceContext(request), request.params.id) }),
    );
    app.post(
      '/projects',
      {
        config: { access: { action: 'projects.manage' } },
        schema: { tags, body: projectBody, response: { 201: projectResponse } },
      },
      async (request, reply) =>
        reply.status(201).send({ project: await projects.create(serviceContext(request), request.body) }),
    );
    app.put(
      '/projects/:id',
      {
        config: { access: { action: 'projects.manage' } },
        schema: { tags, params: idParams, body: projectUpdateBody, response: { 200: projectResponse } },
      },
      async (request) => ({
        project: await projects.update(serviceContext(request), request.params.id, request.body),
      }),
    );
    app.put(
      '/projects/:id/logo',
      {
        config: { access: { action: 'projects.manage' } },
        schema: { tags, params: idParams, response: { 200: projectResponse } },
      },
      async (request) => ({
        project: await projects.setLogo(serviceContext(request), request.params.id, imageOf(request.body)),
      }),
    );
    app.delete(
      '/projects/:id/logo',
      {
        config: { access: { action: 'projects.manage' } },
        schema: { tags, params: idParams, response: { 200: projectResponse } },
      },
      async (request) => ({
        project: await projects.setLogo(serviceContext(request), request.params.id, null),
      }),
    );
  }

  // --- Usuarios --------------------------------------------------------------------------------
  {
    const tags = ['settings: users'];
    const userReply = { 200: settingsUserResponse };
    app.get(
      '/users',
      { config: { access: 'staff' }, schema: { tags, querystring: pageQuery, response: { 200: userPage } } },
      async (request) => users.list(serviceContext(request), request.query),
    );
    app.get(
      '/users/:id',
      { config: { access: 'staff' }, schema: { tags, params: idParams, response: userReply } },
      async (request) => ({
        user: await users.get(serviceContext(request), request.params.id),
      }),
    );
    app.post(
      '/users',
      {
        config: { access: { action: 'users.manage' } },
        schema: { tags, body: userCreateBody, response: { 201: settingsUserResponse } },
      },
      async (request, reply) =>
        reply.status(201).send({ user: await users.create(serviceContext(request), request.body) }),
    );
    app.put(
      '/users/:id',
      {
        config: { access: { action: 'users.manage' } },
        schema: { tags, params: idParams, body: userUpdateBody, response: userReply },
      },
      async (request) => ({
        user: await users.update(serviceContext(request), request.params.id, request.body),
      }),
    );
    app.post(
      '/users/:id/deactivate',
      {
        config: { access: { action: 'users.manage' } },
        schema: { tags, params: idParams, response: userReply },
      },
      async (request) => ({
        user: await users.deactivate(serviceContext(request), request.params.id),
      }),
    );
    app.post(
      '/users/:id/reactivate',
      {
        config: { access: { action: 'users.manage' } },
        schema: { tags, params: idParams, response: userReply },
      },
      async (request) => ({
        user: await users.reactivate(serviceContext(request), request.params.id),
      }),
    );
    app.put(
      '/users/:id/password',
      {
        config: { access: { action: 'users.manage' } },
        schema: { tags, params: idParams, body: userPasswordBody, response: { 204: z.null() } },
      },
      async (request, reply) => {
        await users.setPassword(
          serviceContext(request),
          request.params.id,
          request.body.password,
          request.sessionId ?? undefined,
        );
        return reply.status(204).send(null);
      },
    );
    app.put(
      '/users/:id/avatar',
      {
        config: { access: { action: 'users.manage' } },
        schema: { tags, params: idParams, response: userReply },
      },
      async (request) => ({
        user: await users.setAvatar(serviceContext(request), request.params.id, imageOf(request.body)),
      }),
    );
    app.delete(
      '/users/:id/avatar',
      {
        config: { access: { action: 'users.manage' } },
        schema: { tags, params: idParams, response: userReply },
      },
      async (request) => ({
        user: await users.setAvatar(serviceContext(request), request.params.id, null),
      }),
    );
  }

  // --- Flujos ----------------------------------------------------------------------------------
  {
    const tags = ['settings: flows'];
    app.get(
      '/sale-flow',
      { config: { access: 'staff' }, schema: { tags, response: { 200: saleFlowSettingsResponse } } },
      async (request) => flowDefaults.saleFlow(serviceContext(request)),
    );
    app.get(
      '/payment-flows',
      { config: { access: 'staff' }, schema: { tags, response: { 200: paymentFlowSettingsResponse } } },
      async (request) => flowDefaults.paymentFlows(serviceContext(request)),
    );
    app.put(
      '/default-seller',
      {
        config: { access: { action: 'flowSettings.manage' } },
        schema: { tags, body: defaultSellerBody, response: { 200: defaultSellerResponse } },
      },
      async (request) => ({
        defaultSellerId: await flowDefaults.setDefaultSeller(serviceContext(request), request.body.userId),
      }),
    );
    app.put(
      '/workflow-tasks/:taskId/default-assignees',
      {
        config: { access: { action: 'flowSettings.manage' } },
        schema: {
          tags,
          params: taskIdParams,
          body: defaultAssigneesBody,
          response: { 200: defaultAssigneesResponse },
        },
      },
      async (request) => ({
        task: await flowDefaults.setDefaultAssignees(
          serviceContext(request),
          request.params.taskId,
          request.body.userIds,
        ),
      }),
    );
  }
};
