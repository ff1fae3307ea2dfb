import type { FastifyServerOptions } from 'fastify';
import type { Env } from '../env';

/**
 * What the log may say (issue 8): methods, paths, status codes, timings, error types, messages and
 * stacks — never query parameters, request bodies, cookies, hashes, tokens or personal data. A
 * failed SQL statement's message carries its parameters (Drizzle appends them) and PostgreSQL's
 * `detail` quotes the offending values ('Key (email)=(…) already exists'): both are cut here, at
 * the logger, so no call site can forget.
 */

const SAFE_ERROR_FIELDS = ['code', 'constraint', 'table', 'column', 'routine', 'statusCode'] as const;

/** Drizzle's 'Failed query: <sql>\nparams: <values>' keeps the statement, drops the values. */
function withoutParameters(text: string): string {
  return text.replace(/\nparams:[\s\S]*/g, '\nparams: [omitidos]');
}

interface LoggedError {
  type: string;
  message: string;
  stack: string;
  cause?: LoggedError;
  [field: string]: unknown;
}

export function safeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '[valor no registrado]', stack: '' };
  const logged: LoggedError = {
    type: error.name || error.constructor?.name || 'Error',
    message: withoutParameters(error.message),
    stack: withoutParameters(error.stack ?? ''),
  };
  const record = error as unknown as Record<string, unknown>;
  for (const field of SAFE_ERROR_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' || typeof value === 'number') logged[field] = value;
  }
  if (error.cause !== undefined && depth < 4) logged.cause = safeError(error.cause, depth + 1);
  return logged;
}

interface LoggedRequest {
  method: string;
  url: string;
  id?: string;
  [field: string]: unknown;
}

/** The request line without its query string (searches carry names and RUTs). */
function safeRequest(request: { method?: string; url?: string; id?: string }): LoggedRequest {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return {
    method: request.method ?? '',
    url: query === -1 ? url : `${url.slice(0, query)}?…`,
    id: request.id,
  };
}

export function loggerOptions(
  level: Env['LOG_LEVEL'],
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  if (level === 'silent' && !stream) return false;
  return {
    level: level === 'silent' ? 'info' : level,
    ...(stream ? { stream } : {}),
    serializers: { err: safeError, error: safeError, req: safeRequest },
    // Belt and braces for anything logged by hand with a request-shaped object.
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'headers.cookie',
        'body',
        'req.body',
        'params',
        'query',
      ],
      censor: '[omitido]',
    },
  };
}
