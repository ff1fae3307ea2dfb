import type { FastifyInstance } from 'fastify';
import { UNSAFE_TEXT_MESSAGE, unsafeTextPath } from '../../shared/text-safety';
import { fieldError } from './app-error';

/**
 * Every request of the scope, before its schema runs: a string (value or key) in the path
 * parameters, the query or the body with a character the database cannot store is refused with a
 * 400 naming the field. One guard for every route, present and future, so no field can forget it.
 */
export function registerInputGuard(scope: FastifyInstance) {
  scope.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const path = unsafeTextPath(part);
      if (path !== null) throw fieldError(path || '_', UNSAFE_TEXT_MESSAGE);
    }
  });
}
