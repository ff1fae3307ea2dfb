import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error';
import { serviceContext } from '../../http/context';
import * as files from './files.service';

const nameParams = z.strictObject({
  name: z.string().regex(files.STORED_FILE_NAME, { error: 'Nombre de archivo no válido' }),
});

/** Names are never reused, so a file never changes: browsers may keep it (signed-in users only). */
const CACHE_CONTROL = 'private, max-age=31536000, immutable';

/** The entity tags of an If-None-Match header (weak or strong; `*` matches any). */
function matchesIfNoneMatch(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

/** The headers of a file answer (also on 304), set last so the API scope's `no-store` is replaced. */
async function fileHeaders(_request: FastifyRequest, reply: FastifyReply) {
  if (reply.statusCode === 200 || reply.statusCode === 304) reply.header('Cache-Control', CACHE_CONTROL);
}

/** GET /api/files/:name — a stored file, to signed-in users (the API scope's session hook). */
export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:name',
    { config: { access: 'staff' }, schema: { tags: ['files'], params: nameParams }, onSend: fileHeaders },
    async (request, reply) => {
      const { name } = request.params;
      const ctx = serviceContext(request);
      const etag = `"${name}"`;
      if (matchesIfNoneMatch(request, etag)) {
        if (!(await files.fileExists(ctx, name))) throw new AppError('FILE_NOT_FOUND');
        return reply.status(304).header('ETag', etag).send();
      }
      const file = await files.getFile(ctx, name);
      return reply
        .header('Content-Type', file.contentType)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', 'inline')
        .header('ETag', etag)
        .send(file.bytes);
    },
  );
};
