import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The body of every error answer, as the OpenAPI document declares it (shared/errors.ts ApiErrorBody). */
const errorBodySchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'Código estable del error (shared/errors.ts)' },
        message: { type: 'string', description: 'Mensaje en español para el usuario' },
        fields: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description: 'Mensaje por campo del formulario',
        },
      },
    },
  },
};

const ERROR_ANSWERS: Record<string, string> = {
  400: 'Datos no válidos',
  401: 'Sin sesión',
  403: 'Sin permiso, u origen no permitido',
  404: 'No existe',
  409: 'Conflicto (versión desactualizada, dato duplicado)',
  413: 'Contenido demasiado grande',
  429: 'Demasiados intentos',
};

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * The zod schemas as JSON Schema (fastify-type-provider-zod), plus the error answers every route
 * may give. Documentation only: serialisation of error bodies is untouched.
 */
export function openApiTransform(input: TransformInput) {
  const transformed = jsonSchemaTransform(input);
  const schema = transformed.schema as { response?: Record<string, unknown> };
  const response: Record<string, unknown> = { ...(schema.response ?? {}) };
  for (const [status, description] of Object.entries(ERROR_ANSWERS)) {
    response[status] ??= { description, ...errorBodySchema };
  }
  return { ...transformed, schema: { ...transformed.schema, response } };
}
