import type { FastifyInstance } from 'fastify';
import { inspectText, UNSAFE_TEXT_MESSAGE } from '../../shared/text-safety';
import { AppError, fieldError } from './app-error';

/**
 * Every request of the scope, before its schema runs: a string (value or key) in the path
 * parameters, the query or the body with a character the database cannot store is refused with a
 * 400 naming the field, and a body nested deeper than `MAX_NESTING_DEPTH` with a 400 of its own
 * (JSON.parse takes any depth; nothing after this guard walks a body that deep). One guard for
 * every route, present and future, so no field can forget it.
 */
export function registerInputGuard(scope: FastifyInstance) {
  scope.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const finding = inspectText(part);
      if (finding?.kind === 'too-deep') throw new AppError('NESTING_TOO_DEEP');
      if (finding?.kind === 'unsafe-text') throw fieldError(finding.path || '_', UNSAFE_TEXT_MESSAGE);
    }
  });
}
