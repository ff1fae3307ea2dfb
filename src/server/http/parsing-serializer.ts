import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { $ZodType, safeParse } from 'zod/v4/core';

/**
 * A route's answer checked against its zod schema by *parsing* it (unknown keys dropped), then
 * JSON — for the routes whose answers are large. fastify-type-provider-zod's `serializerCompiler`
 * (every other route's) runs zod's `encode`, which serves codecs (no answer schema has one) and
 * takes zod's slow path: Disponibilidad's 1,728 units (887 KB) took ~100 ms to encode against
 * ~14 ms to parse (PostgreSQL bench dataset, load ~12, 2026-11-27). An answer schema with a
 * transform or a codec must not use it (parsing would run the transform forwards).
 */
export const parsingSerializer: FastifySerializerCompiler<unknown> =
  ({ schema, method, url }) =>
  (data: unknown) => {
    if (!(schema instanceof $ZodType)) throw new Error(`${method} ${url}: the answer schema is not zod`);
    const result = safeParse(schema, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
