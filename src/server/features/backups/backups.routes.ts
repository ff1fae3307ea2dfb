import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  backupNameParams,
  backupResponse,
  backupStatusResponse,
  backupsResponse,
} from '../../../shared/schemas/backups';
import { contentDisposition } from '../../http/content-disposition';
import { serviceContext } from '../../http/context';
import * as service from './backups.service';

/** Configuración → Respaldos (administrators). `backups` is null on PostgreSQL. */
export const backupsRoutes: FastifyPluginAsyncZod<{ backups: service.EmbeddedBackups | null }> = async (
  app,
  { backups },
) => {
  const tags = ['backups'];
  app.get(
    '/',
    {
      config: { access: { action: 'backups.manage' } },
      schema: { tags, response: { 200: backupsResponse } },
    },
    async (request) => service.overview(serviceContext(request), backups),
  );
  app.get(
    '/status',
    {
      config: { access: { action: 'backups.manage' } },
      schema: { tags, response: { 200: backupStatusResponse } },
    },
    async (request) => ({
      status: await service.status(serviceContext(request), backups),
    }),
  );
  app.post(
    '/',
    {
      config: { access: { action: 'backups.manage' }, heavy: 'backup' },
      schema: { tags, response: { 201: backupResponse } },
    },
    async (request, reply) => {
      const backup = await service.createNow(serviceContext(request), backups);
      return reply.status(201).send({ backup });
    },
  );
  app.get(
    '/:name/download',
    {
      config: { access: { action: 'backups.manage' }, heavy: 'backup' },
      schema: { tags, params: backupNameParams },
    },
    async (request, reply) => {
      const path = await service.fileOf(serviceContext(request), backups, request.params.name);
      return reply
        .header('Content-Type', 'application/octet-stream')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', contentDisposition('attachment', request.params.name))
        .send(createReadStream(path));
    },
  );
};
