import { type ErrorCode, errorCatalog, errorField, errorMessage } from '../../shared/errors';

/** A rule the server refused, with its code; the HTTP layer answers its status and Spanish message. */
export class AppError extends Error {
  readonly status: number;
  readonly fields: Record<string, string> | undefined;

  constructor(
    readonly code: ErrorCode,
    options: {
      message?: string;
      params?: Record<string, string | number>;
      fields?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    const message = options.message ?? errorMessage(code, options.params);
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.status = errorCatalog[code].status;
    const field = errorField(code);
    this.fields = options.fields ?? (field ? { [field]: message } : undefined);
  }
}

/** A field-level validation refusal: 400 with the message attached to the field. */
export function fieldError(field: string, message: string): AppError {
  return new AppError('VALIDATION', { message, fields: { [field]: message } });
}

/** The PostgreSQL error behind a driver or Drizzle error (Drizzle wraps it in `cause`). */
export function postgresErrorOf(error: unknown): { code: string; constraint?: string } | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return {
        code: candidate.code,
        constraint: typeof candidate.constraint === 'string' ? candidate.constraint : undefined,
      };
    }
    current = candidate.cause;
  }
  return null;
}

/** True when the error is a unique violation of the named constraint or index. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const pgError = postgresErrorOf(error);
  return pgError?.code === '23505' && pgError.constraint === constraint;
}
