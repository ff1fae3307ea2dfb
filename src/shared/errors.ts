/**
 * Every error the API can answer, with its HTTP status and the Spanish message the user sees.
 * Services throw `AppError(code)`; the HTTP layer turns it into `{ error: { code, message } }`.
 * Messages quoted by the spec are used exactly.
 */
export const errorCatalog = {
  // Generic
  VALIDATION: { status: 400, message: 'Los datos enviados no son válidos. Revise los campos marcados.' },
  UNAUTHENTICATED: { status: 401, message: 'Debe iniciar sesión para continuar.' },
  FORBIDDEN: { status: 403, message: 'No tiene permisos para realizar esta acción.' },
  CROSS_ORIGIN: { status: 403, message: 'Solicitud rechazada: origen no permitido.' },
  NOT_FOUND: { status: 404, message: 'El recurso solicitado no existe.' },
  STALE_VERSION: { status: 409, message: 'El registro fue modificado por otro usuario. Recargue la página.' },
  RATE_LIMITED: {
    status: 429,
    message: 'Demasiados intentos de inicio de sesión. Espere unos minutos e intente nuevamente.',
  },
  INTERNAL: { status: 500, message: 'Ocurrió un error inesperado. Intente nuevamente.' },
  DATABASE_UNAVAILABLE: { status: 503, message: 'No se pudo conectar con la base de datos.' },

  // Sessions and registration
  INVALID_CREDENTIALS: { status: 401, message: 'Correo electrónico o contraseña incorrectos.' },
  EMAIL_TAKEN: {
    status: 409,
    message: 'Este correo electrónico ya está registrado. Por favor, use un correo diferente.',
  },
  REGISTRATION_CLOSED: {
    status: 403,
    message: 'El registro de nuevos usuarios está deshabilitado. Solicite una cuenta a un administrador.',
  },

  // Reservations, commissions, promotions
  RESERVATION_NOT_FOUND: { status: 404, message: 'No se encontró la reserva' },
  RESERVATION_NUMBER_TAKEN: { status: 409, message: 'Ya existe una reserva con este número' },
  RESERVATION_CREATE_FAILED: { status: 500, message: 'No se pudo crear la reserva' },
  RESERVATION_RESCINDED: { status: 409, message: 'La reserva está resciliada y no se puede modificar' },
  RESERVATION_HAS_PAYMENTS: {
    status: 409,
    message: 'No se puede eliminar la reserva: su comisión tiene pagos en proceso o completados',
  },
  COMMISSION_REQUIRED: {
    status: 400,
    message: 'Complete la comisión del broker para guardar una venta con broker',
  },
  COMMISSION_NOT_ALLOWED: { status: 400, message: 'Una reserva sin broker no lleva comisión de broker' },
  BROKER_CHANGE_LOCKED: {
    status: 409,
    message: 'No se puede cambiar ni quitar el broker: la comisión ya tiene pagos en proceso o completados',
  },
  PAYMENT_DATE_LOCKED: {
    status: 409,
    message: 'La fecha de pago la registra su flujo de pago y no se puede editar aquí',
  },
  PROMOTION_NOT_FOUND: { status: 404, message: 'No se encontró la promoción' },

  // Clients and brokers
  CLIENT_RUT_TAKEN: { status: 409, message: 'Ya existe un cliente con este RUT' },
  BROKER_RUT_TAKEN: { status: 409, message: 'Ya existe un broker con este RUT' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalog;

/** The JSON body of every error answer. `fields` maps a field path to its Spanish message. */
export interface ApiErrorBody {
  error: { code: ErrorCode; message: string; fields?: Record<string, string> };
}
