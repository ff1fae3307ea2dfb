import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type ApiErrorBody, type ErrorCode, errorCatalog } from '../../shared/errors';
import { AppError, postgresErrorOf } from './app-error';

/**
 * PostgreSQL's 'this value cannot be stored' errors (check violation, bad text representation,
 * numeric and date/time out of range, string too long, characters it cannot encode): validation
 * bounds every field so these should never happen; if one slips through it is the input's fault.
 */
const INVALID_INPUT_CODES = new Set(['23514', '22P02', '22003', '22007', '22008', '22001', '22021', '22P05']);

/**
 * The content types of raw image bodies: `acceptImageBodies` (features/files) parses them, with the
 * image size limit, in the scopes that take uploads. Elsewhere they are refused 415 before any size
 * check, so a 413 for one of them is always an image over its limit.
 */
export const IMAGE_BODY_TYPE = /^(?:image\/|application\/octet-stream\s*(?:;|$))/i;

function send(reply: FastifyReply, code: ErrorCode, message?: string, fields?: Record<string, string>) {
  const body: ApiErrorBody = { error: { code, message: message ?? errorCatalog[code].message } };
  if (fields && Object.keys(fields).length > 0) body.error.fields = fields;
  return reply.status(errorCatalog[code].status).send(body);
}

interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * Zod issues (as fastify-type-provider-zod reports them) as { 'field.path': 'Spanish message' },
 * the first message per field. An unknown field is named: 'Campo no permitido: x'.
 */
function fieldsOf(issues: readonly ValidationIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    if (issue.keyword === 'unrecognized_keys') {
      for (const key of (issue.params?.keys as string[] | undefined) ?? []) {
        fields[path ? `${path}.${key}` : key] ??= `Campo no permitido: ${key}`;
      }
      continue;
    }
    fields[path || '_'] ??= issue.message ?? errorCatalog.VALIDATION.message;
  }
  return fields;
}

/**
 * One place turns every failure into `{ error: { code, message, fields? } }` with a Spanish
 * message. Stack traces go to the log, never to the user.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      return send(reply, error.code, error.message, error.fields);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = fieldsOf(error.validation);
      const unknownField = Object.entries(fields).find(([, message]) =>
        /no reconocid|unrecognized/i.test(message),
      );
      const first = Object.values(fields)[0];
      return send(
        reply,
        'VALIDATION',
        unknownField ? `Campo no permitido: ${unknownField[0]}` : first,
        fields,
      );
    }
    if (error.statusCode === 429) {
      return send(reply, 'RATE_LIMITED');
    }
    const pgError = postgresErrorOf(error);
    if (pgError) {
      // Services check rules first with clear messages; a constraint is the last line of defence.
      if (pgError.code === '23505') {
        return send(reply, 'VALIDATION', 'Ya existe un registro con estos datos.');
      }
      if (pgError.code === '23503') {
        return send(
          reply,
          'VALIDATION',
          'El registro está relacionado con otros datos y no se puede modificar así.',
        );
      }
      if (INVALID_INPUT_CODES.has(pgError.code)) return send(reply, 'VALIDATION');
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      if (error.statusCode === 404) return send(reply, 'NOT_FOUND');
      if (error.statusCode === 413) {
        if (IMAGE_BODY_TYPE.test(request.headers['content-type'] ?? ''))
          return send(reply, 'IMAGE_TOO_LARGE');
        return reply
          .status(413)
          .send({ error: { code: 'VALIDATION', message: 'El contenido enviado es demasiado grande.' } });
      }
      return send(reply, 'VALIDATION', 'La solicitud no es válida.');
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 'INTERNAL');
  });
}
