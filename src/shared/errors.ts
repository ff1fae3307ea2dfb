import { UNAUTHENTICATED_ERROR } from './session-errors';

/**
 * Every error the API can answer, with its HTTP status and the Spanish message the user sees — the
 * only place Spanish messages of the server live (input validation words its own in the schemas).
 * Services throw `AppError(code, { params })`; the HTTP layer turns it into
 * `{ error: { code, message, fields? } }`. A `field` entry puts the message on that form field;
 * `{name}` in a message is filled from `params`. Messages quoted by the spec are used exactly.
 */
export const errorCatalog = {
  // Generic
  VALIDATION: { status: 400, message: 'Los datos enviados no son válidos. Revise los campos marcados.' },
  NESTING_TOO_DEEP: { status: 400, message: 'La solicitud tiene demasiados niveles de anidación.' },
  // Its words live in session-errors.ts: the client answers it itself, without this catalogue.
  UNAUTHENTICATED: UNAUTHENTICATED_ERROR,
  FORBIDDEN: { status: 403, message: 'No tiene permisos para realizar esta acción.' },
  CROSS_ORIGIN: { status: 403, message: 'Solicitud rechazada: origen no permitido.' },
  NOT_FOUND: { status: 404, message: 'El recurso solicitado no existe.' },
  EVENT_STREAM_ONLY: {
    status: 406,
    message: 'Esta dirección entrega un flujo de eventos: pídala con Accept: text/event-stream.',
  },
  STALE_VERSION: { status: 409, message: 'El registro fue modificado por otro usuario. Recargue la página.' },
  RATE_LIMITED: {
    status: 429,
    message: 'Demasiados intentos de inicio de sesión. Espere unos minutos e intente nuevamente.',
  },
  // Heavy work (issue 52, decision 0050): a download or upload beyond the limits waits its turn
  HEAVY_EXPORT_BUSY: { status: 429, message: 'Ya hay una exportación en curso; intente en un momento.' },
  HEAVY_ERRORS_BUSY: {
    status: 429,
    message: 'Ya se está preparando una planilla con errores; intente en un momento.',
  },
  HEAVY_PDF_BUSY: { status: 429, message: 'Ya se está generando un PDF; intente en un momento.' },
  HEAVY_BACKUP_BUSY: { status: 429, message: 'Ya hay un respaldo en curso; intente en un momento.' },
  HEAVY_UPLOAD_BUSY: {
    status: 429,
    message: 'Ya hay archivos subiéndose desde su cuenta; espere que terminen e intente nuevamente.',
  },
  HEAVY_SERVER_BUSY: {
    status: 429,
    message: 'El servidor está atendiendo muchas descargas y subidas a la vez; intente en un momento.',
  },
  EVENT_STREAMS_BUSY: {
    status: 429,
    message:
      'Hay demasiadas pestañas abiertas con esta sesión; esta se actualizará cada minuto en vez de al instante.',
  },
  INTERNAL: { status: 500, message: 'Ocurrió un error inesperado. Intente nuevamente.' },
  DATABASE_UNAVAILABLE: { status: 503, message: 'No se pudo conectar con la base de datos.' },

  // Sessions and registration
  INVALID_CREDENTIALS: { status: 401, message: 'Correo electrónico o contraseña incorrectos.' },
  EMAIL_TAKEN: {
    status: 409,
    message: 'Este correo electrónico ya está registrado. Por favor, use un correo diferente.',
  },
  REGISTRATION_THROTTLED: {
    status: 429,
    message: 'Demasiados registros desde esta conexión. Espere una hora e intente nuevamente.',
  },
  REGISTRATION_CLOSED: {
    status: 403,
    message: 'El registro de nuevos usuarios está deshabilitado. Solicite una cuenta a un administrador.',
  },

  // Reservations, commissions, promotions
  RESERVATION_NOT_FOUND: { status: 404, message: 'No se encontró la reserva' },
  RESERVATION_NUMBER_TAKEN: {
    status: 409,
    message: 'Ya existe una reserva con este número',
    field: 'reservationNumber',
  },
  RESERVATION_CLIENT_UNAVAILABLE: {
    status: 400,
    message: 'El cliente seleccionado no existe o fue eliminado',
    field: 'clientId',
  },
  RESERVATION_PROJECT_UNKNOWN: {
    status: 400,
    message: 'El proyecto seleccionado no existe',
    field: 'projectId',
  },
  RESERVATION_SELLER_UNAVAILABLE: {
    status: 400,
    message: 'El vendedor seleccionado no está disponible',
    field: 'sellerId',
  },
  RESERVATION_BROKER_UNKNOWN: { status: 400, message: 'El broker seleccionado no existe', field: 'brokerId' },
  COMMISSION_EXISTS: {
    status: 400,
    message: 'La reserva ya tiene una comisión de broker: edítela con «Editar comisión»',
  },
  APARTMENT_TAKEN: {
    status: 409,
    message: 'El departamento {number} ya está reservado en este proyecto (reserva {reservation})',
    field: 'apartmentNumber',
  },
  PARKING_TAKEN: {
    status: 409,
    message: 'El estacionamiento {number} ya está reservado en este proyecto (reserva {reservation})',
    field: 'parkingNumber',
  },
  STORAGE_TAKEN: {
    status: 409,
    message: 'La bodega {number} ya está reservada en este proyecto (reserva {reservation})',
    field: 'storageNumber',
  },
  RESERVATION_CREATE_FAILED: { status: 500, message: 'No se pudo crear la reserva' },
  UNIT_TAKEN: { status: 409, message: 'La unidad ya está reservada en este proyecto' },
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
  PAYMENT_1_DATE_LOCKED: {
    status: 409,
    message: 'La fecha de pago 1 la registra el flujo del primer pago',
    field: 'payment1Date',
  },
  PAYMENT_2_DATE_LOCKED: {
    status: 409,
    message: 'La fecha de pago 2 la registra el flujo del segundo pago',
    field: 'payment2Date',
  },
  BANK_DETAILS_BEFORE_DEADLINE: {
    status: 409,
    message:
      'Los datos del Banco Escrituración se registran una vez vencido el plazo de entrega del proyecto',
  },
  PROMOTION_NOT_FOUND: { status: 404, message: 'No se encontró la promoción' },

  // Payments (Pagos) and rescission (spec part 2 §4, §8; workflows.md §3, §5)
  /** The payments screens' wording (spec part 2 §8); part 1's screens say RESERVATION_NOT_FOUND's. */
  PAYMENT_RESERVATION_NOT_FOUND: { status: 404, message: 'Reserva no encontrada' },
  COMMISSION_NOT_CONFIGURED: { status: 409, message: 'Esta reserva no tiene una comisión configurada' },
  NO_BROKER_COMMISSION: { status: 409, message: 'No hay comisión de broker configurada para esta reserva' },
  SECOND_PAYMENT_NOT_ALLOWED: { status: 409, message: 'Esta comisión no está configurada para dos pagos' },
  FIRST_PAYMENT_NOT_COMPLETED: {
    status: 409,
    message: 'El primer pago debe estar completado antes de crear el segundo pago',
  },
  RISK_ONLY_IN_PROGRESS: {
    status: 409,
    message: 'Solo se puede cambiar el estado de riesgo mientras el flujo de pago está en proceso',
  },
  /** The consolidated view's at-risk popup on a rescinded reservation (spec part 2 §2, §4). */
  RISK_ON_RESCINDED: { status: 409, message: 'No se puede marcar en riesgo una unidad resciliada' },
  RESERVATION_ALREADY_RESCINDED: { status: 409, message: 'La reserva ya fue resciliada' },
  PENALTY_NOT_APPLICABLE: {
    status: 409,
    message: 'La multa solo se aplica cuando la comisión tiene un pago registrado',
  },

  // Workflows (the engine's refusals, workflows.md §2-§6)
  FLOW_NOT_FOUND: { status: 404, message: 'Flujo no encontrado' },
  TASK_NOT_FOUND: { status: 404, message: 'Tarea no encontrada' },
  COMMENT_NOT_FOUND: { status: 404, message: 'Comentario no encontrado' },
  MENTION_NOT_FOUND: { status: 404, message: 'No tiene una mención en ese comentario' },
  FLOW_NOT_STARTED: {
    status: 409,
    message:
      'El flujo de pago está pendiente: sus tareas no se pueden modificar, asignar ni comentar hasta «Proceder con Pago»',
  },
  FLOW_ALREADY_STARTED: { status: 409, message: 'El flujo ya fue iniciado' },
  FLOW_CANCELLED: {
    status: 409,
    message: 'El flujo está cancelado (la reserva fue resciliada) y no se puede modificar',
  },
  TASK_COMPLETED_ADMIN_ONLY: {
    status: 403,
    message: 'Solo los administradores pueden modificar tareas completadas',
  },
  ASSIGN_COMPLETED_ADMIN_ONLY: { status: 403, message: 'No se pueden asignar usuarios a tareas completadas' },
  TASK_BLOCKED: {
    status: 409,
    message: 'No se puede modificar esta tarea hasta que se complete la tarea anterior',
  },
  INVALID_TASK_DATES: {
    status: 400,
    message: 'Las fechas no son válidas: la fecha de término no puede ser anterior a la de inicio',
  },
  USER_NOT_IDENTIFIED: { status: 401, message: 'No se ha podido identificar al usuario' },
  USER_NOT_AVAILABLE: { status: 400, message: 'El usuario seleccionado no existe o está desactivado' },

  // Approvals (Aprobaciones; spec part 2 §2, §8; workflows.md §4)
  /** The approval detail's full-page error (spec part 2 §8). */
  APPROVAL_NOT_FOUND: { status: 404, message: 'No se encontró la información de aprobación' },
  APPROVAL_NOT_ASSIGNED: {
    status: 403,
    message:
      'Solo la persona asignada a esta aprobación o un administrador puede aprobarla, rechazarla o reasignarla',
  },
  APPROVAL_NOT_OPEN: {
    status: 409,
    message: 'Esta aprobación no está pendiente: fue rechazada o aún espera la tarea anterior',
  },
  APPROVAL_ALREADY_APPROVED: {
    status: 409,
    message: 'Esta aprobación ya fue aprobada y no se puede rechazar',
  },
  APPROVAL_FILTER_UNKNOWN: { status: 400, message: 'Tipo de aprobación no válido' },
  APPROVAL_REJECT_NEEDS_REASON: {
    status: 409,
    message:
      'Una aprobación se rechaza con «Rechazar» e indicando el motivo, no cambiando su estado a Bloqueada',
  },

  // Clients and brokers
  CLIENT_NOT_FOUND: { status: 404, message: 'El cliente no existe o fue eliminado.' },
  CLIENT_RUT_TAKEN: { status: 409, message: 'Ya existe un cliente con este RUT', field: 'rut' },
  CLIENT_HAS_LIVE_RESERVATIONS: {
    status: 409,
    message:
      'No se puede eliminar el cliente: tiene reservas vigentes (N° {numbers}). Resciliarlas antes, o dejarlo como está.',
  },
  CLIENT_BLOCKED: {
    status: 409,
    message:
      'Los datos de este cliente están bloqueados por una solicitud del titular (Ley 21.719): levante el bloqueo para modificarlos',
  },
  CLIENT_NOT_RESTRICTED: { status: 409, message: 'Este cliente no tiene oposición ni bloqueo registrados' },
  BROKER_NOT_FOUND: { status: 404, message: 'El broker no existe.' },
  BROKER_RUT_TAKEN: { status: 409, message: 'Ya existe un broker con este RUT', field: 'rut' },
  // Bank data with a second pair of eyes (issue 53, decision 0052)
  BANK_DATA_FORBIDDEN: {
    status: 403,
    message:
      'Solo los Gestores de Pagos y los administradores cambian los datos bancarios. Los demás datos se pueden guardar sin cambiar la cuenta.',
  },
  BANK_VERIFY_FORBIDDEN: {
    status: 403,
    message: 'Solo un Gestor de Pagos o un administrador verifica una cuenta bancaria.',
  },
  BANK_VERIFY_OWN_CHANGE: {
    status: 403,
    message:
      'Usted hizo este cambio de cuenta: otra persona (Gestor de Pagos o administrador) debe verificarlo.',
  },
  PROMOTION_ACCOUNT_UNVERIFIED: {
    status: 409,
    message:
      'La cuenta del beneficiario está por verificar: otra persona (Gestor de Pagos o administrador) debe verificarla antes de registrar el pago.',
    field: 'paymentDate',
  },
  BANK_NOTHING_TO_VERIFY: {
    status: 409,
    message:
      'No hay un cambio de cuenta por verificar (ya fue verificado o no hay datos bancarios). Recargue la página.',
  },

  // Holders' data rights (Ley 21.719; Configuración → Solicitudes de titulares)
  DATA_REQUEST_NOT_FOUND: { status: 404, message: 'La solicitud no existe.' },
  DATA_REQUEST_NO_HOLDER_DATA: { status: 404, message: 'No se tratan datos de este titular' },
  DATA_REQUEST_RECEIVED_IN_FUTURE: {
    status: 400,
    message: 'La fecha de recepción no puede ser posterior a hoy',
    field: 'receivedDate',
  },
  DATA_REQUEST_WRONG_KIND: { status: 409, message: 'Esta acción no corresponde al tipo de la solicitud' },
  DATA_REQUEST_CLOSED: { status: 409, message: 'La solicitud ya fue respondida o rechazada' },
  HOLDER_ALREADY_SUPPRESSED: {
    status: 409,
    message: 'Los datos personales de este titular ya fueron suprimidos',
  },
  HOLDER_SALE_IN_PROGRESS: {
    status: 409,
    message:
      'No se pueden suprimir los datos: el titular tiene una venta en curso (reserva N° {numbers}) y sus datos se necesitan para cumplirla. Puede registrar una solicitud de bloqueo en su lugar.',
  },
  HOLDER_NO_BLOCKED_VALUES: { status: 404, message: 'Este titular no tiene datos bloqueados' },

  // Settings (Configuración)
  AGENCY_NOT_FOUND: { status: 404, message: 'La inmobiliaria no existe.' },
  AGENCY_RUT_TAKEN: { status: 409, message: 'Ya existe una inmobiliaria con este RUT', field: 'rut' },
  PROJECT_NOT_FOUND: { status: 404, message: 'El proyecto no existe.' },
  PROJECT_AGENCY_UNKNOWN: {
    status: 400,
    message: 'La inmobiliaria seleccionada no existe',
    field: 'realEstateAgencyId',
  },
  USER_NOT_FOUND: { status: 404, message: 'El usuario no existe.' },
  // The brokers' portal (issue 58, decision 0069).
  BROKER_USER_EMAIL_TAKEN: {
    status: 409,
    message: 'Ya existe una cuenta del portal con este correo electrónico',
    field: 'email',
  },
  BROKER_USER_NOT_FOUND: { status: 404, message: 'La cuenta del portal no existe.' },
  BROKER_INACTIVE: { status: 409, message: 'La corredora está desactivada: no se pueden invitar personas.' },
  PORTAL_LINK_INVALID: {
    status: 400,
    message: 'El enlace no es válido, ya se usó o expiró. Pida a su KAM una nueva invitación.',
  },
  USER_EMAIL_TAKEN: {
    status: 409,
    message: 'Ya existe un usuario con este correo electrónico',
    field: 'email',
  },
  USER_SELF_DEACTIVATION: { status: 400, message: 'No puede desactivar su propia cuenta' },
  LAST_ADMINISTRATOR: {
    status: 409,
    message: 'Debe quedar al menos un administrador activo',
    field: 'userType',
  },
  DEFAULT_SELLER_UNAVAILABLE: {
    status: 400,
    message: 'El usuario seleccionado no es un vendedor activo',
    field: 'userId',
  },
  DEFAULT_ASSIGNEE_SINGLE: { status: 400, message: 'Esta tarea admite un solo responsable por defecto' },

  // Files (logos, avatars)
  IMAGE_TYPE_INVALID: { status: 400, message: 'Por favor seleccione un archivo de imagen válido' },
  IMAGE_TOO_LARGE: { status: 413, message: 'La imagen no debe superar los 2MB' },
  IMAGE_TOO_MANY_PIXELS: {
    status: 400,
    message: 'La imagen tiene demasiados píxeles (máximo {megapixels} megapíxeles)',
  },
  FILE_NOT_FOUND: { status: 404, message: 'El archivo no existe.' },

  // E-mail notices (decision 0035)
  MAIL_NOT_FOUND: { status: 404, message: 'El correo no existe.' },
  MAIL_ALREADY_SENT: { status: 409, message: 'Este correo ya fue enviado o descartado: no se reintenta.' },
  HOLIDAY_EXISTS: { status: 409, message: 'Ese día ya es feriado', field: 'date' },
  HOLIDAY_NOT_FOUND: { status: 404, message: 'Ese día no es feriado' },
  // Imports (issue 32)
  IMPORT_FILE_EMPTY: { status: 400, message: 'El archivo está vacío: no tiene filas para importar.' },
  IMPORT_FILE_TYPE: {
    status: 400,
    message:
      'El archivo no es una planilla Excel (.xlsx) ni un archivo CSV. Guárdelo en uno de esos formatos.',
  },
  IMPORT_FILE_TOO_BIG: {
    status: 400,
    message: 'La planilla se expande a un tamaño excesivo al abrirla y no se puede leer de forma segura.',
  },
  IMPORT_FILE_UNREADABLE: { status: 400, message: 'No se pudo leer el archivo: está dañado o incompleto.' },
  IMPORT_SHEET_UNKNOWN: { status: 400, message: "La planilla no tiene una hoja llamada '{sheet}'." },
  IMPORT_NO_HEADER: {
    status: 400,
    message:
      'No se encontró la fila con los títulos de las columnas (por ejemplo RUT, Nombres) en las primeras {rows} filas con datos.',
  },
  IMPORT_TOO_MANY_ROWS: {
    status: 400,
    message: 'El archivo tiene más de {max} filas. Divídalo en archivos más pequeños.',
  },
  IMPORT_MAPPING_MISSING: {
    status: 400,
    message: 'Asigne una columna a cada campo obligatorio: {fields}.',
  },
  IMPORT_HAS_ERRORS: {
    status: 409,
    message:
      "El archivo tiene filas con errores. Corríjalas y vuelva a subirlo, o elija 'Importar solo filas válidas'.",
  },
  IMPORT_RUN_NOT_FOUND: { status: 404, message: 'No se encontró la importación.' },
  IMPORT_FILE_REMOVED: {
    status: 410,
    message:
      'El archivo de esta importación ya no se guarda: se borra a los días fijados en Privacidad, o al suprimir los datos de una persona que contenía. Lo que la importación cambió sigue registrado.',
  },
  IMPORT_RUN_BUSY: {
    status: 409,
    message: 'Esta importación ya se está aplicando o ya fue aplicada.',
  },
  IMPORT_ANOTHER_RUNNING: {
    status: 409,
    message: 'Ya hay una importación en curso. Espere a que termine para iniciar otra.',
  },
  IMPORT_NOT_UNDOABLE: { status: 409, message: 'Solo se puede deshacer una importación aplicada.' },
  IMPORT_ALREADY_UNDONE: {
    status: 409,
    message: 'Esta importación ya fue deshecha (otra persona la deshizo recién); no se cambió nada más.',
  },
  IMPORT_UNDO_CONFLICT: {
    status: 409,
    message:
      'No se puede deshacer la importación: estos registros cambiaron después de importarse: {records}.',
  },
  IMPORT_CANCELLED: { status: 409, message: 'La importación fue cancelada; no se guardó nada.' },
  IMPORT_FAILED: { status: 500, message: 'La importación falló; no se guardó nada. Intente nuevamente.' },
  IMPORT_INTERRUPTED: {
    status: 500,
    message:
      'La importación se interrumpió porque el servidor se detuvo; se deshizo y no quedó nada importado.',
  },
  // Readers at the doors (issue 52, decision 0049): the limits of the CSV and XLSX readers, the header row
  SHEET_CELL_TOO_LONG: {
    status: 400,
    message:
      'La celda {column}{row} tiene más de {max} caracteres (el máximo de una celda de Excel). Acórtela y vuelva a subir el archivo.',
  },
  SHEET_TEXT_TOO_LONG: {
    status: 400,
    message: 'La planilla tiene un texto de más de {max} caracteres (el máximo de una celda de Excel).',
  },
  SHEET_CONTROL_CHARACTER: {
    status: 400,
    message:
      'La celda {column}{row} tiene un carácter de control invisible ({code}). Quítelo y vuelva a subir el archivo.',
  },
  SHEET_TOO_MANY_COLUMNS: {
    status: 400,
    message:
      'La fila {row} tiene datos más allá de la columna {max}: el archivo puede tener hasta {max} columnas.',
  },
  SHEET_TOO_MANY_CELLS: {
    status: 400,
    message: 'El archivo tiene más de {max} celdas con datos. Divídalo en archivos más pequeños.',
  },
  SHEET_TOO_MANY_STRINGS: {
    status: 400,
    message:
      'La planilla tiene más de {max} textos distintos o más de {characters} caracteres de texto. Divídala en archivos más pequeños.',
  },
  SHEET_HEADER_ROW_EMPTY: {
    status: 400,
    message: 'La fila {row} está vacía o no existe: elija la fila con los títulos de las columnas.',
  },
  SHEET_HEADER_ROW_RANGE: { status: 400, message: 'Elija una fila de encabezado entre 1 y {max}.' },
  // Stock (decision 0032)
  UNIT_NOT_FOUND: { status: 404, message: 'La unidad no existe.' },
  UNIT_NUMBER_TAKEN: {
    status: 409,
    message:
      'Ya existe la unidad {unit} en este proyecto: el número no se repite para un mismo tipo de unidad',
    field: 'number',
  },
  UNIT_BLOCK_TAKEN: {
    status: 409,
    message: 'No se puede bloquear la unidad {unit}: está tomada por la reserva N° {reservation}',
  },
  UNIT_KIND_LOCKED: {
    status: 409,
    message: 'No se puede cambiar el tipo de la unidad {unit}: tiene reservas',
    field: 'kind',
  },
  UNIT_HELD: {
    status: 409,
    message: 'La unidad {unit} ya está reservada (reserva N° {reservation}); elija otra unidad',
  },
  UNIT_BLOCKED: { status: 409, message: 'La unidad {unit} está bloqueada: {reason}' },
  UNIT_NOT_IN_PROJECT: {
    status: 400,
    message: 'La unidad seleccionada no pertenece al proyecto de la reserva',
  },
  UNIT_WRONG_KIND: { status: 400, message: 'La unidad {unit} no es {expected}' },
  UNIT_UNPRICED: {
    status: 409,
    message:
      'La unidad {unit} no tiene precio en la lista de precios vigente: cargue una lista antes de reservarla',
  },
  APARTMENT_UNIT_REQUIRED: {
    status: 400,
    message: 'Este proyecto tiene inventario: seleccione el departamento entre sus unidades',
    field: 'apartmentUnitId',
  },
  PRICE_LIST_UNKNOWN_UNITS: {
    status: 400,
    message: 'La lista nombra unidades que el proyecto no tiene: {units}. No se aplicó ningún precio.',
  },
  PRICE_LIST_REPEATED_UNITS: {
    status: 400,
    message: 'La lista nombra dos veces las mismas unidades: {units}. No se aplicó ningún precio.',
  },
  PRICE_LIST_DATE_TAKEN: {
    status: 409,
    message: 'Ya existe una lista de precios vigente desde el {date}: elija otra fecha',
    field: 'effectiveDate',
  },
  // Cotizaciones (issue 59, decision 0071).
  QUOTE_NOT_FOUND: { status: 404, message: 'La cotización no existe.' },
  QUOTE_PROJECT_UNKNOWN: { status: 400, message: 'El proyecto seleccionado no existe.', field: 'projectId' },
  QUOTE_UF_MISSING: {
    status: 409,
    message: 'No hay valor UF para hoy ({date}): cárguelo en Configuración → Valores UF antes de cotizar.',
  },
  QUOTE_POLICY_EXCEEDED: {
    status: 400,
    message: 'La cotización excede la política comercial del proyecto: {breaches}.',
  },
  QUOTE_INSTALLMENTS_EXCEEDED: {
    status: 400,
    message: 'En este proyecto el pie se paga en hasta {max} cuotas.',
    field: 'installments',
  },
  QUOTE_RESERVATION_OVER_DOWN_PAYMENT: {
    status: 400,
    message: 'La reserva no puede ser mayor que el pie.',
    field: 'reservationAmount',
  },
  QUOTE_PLAN_OVER_PRICE: {
    status: 400,
    message: 'El pie y el subsidio superan el precio final: revise los montos.',
    field: 'subsidyAmount',
  },
  QUOTE_EXPIRED: {
    status: 409,
    message: 'La cotización venció el {date}: use «Recotizar» para cotizar con los precios vigentes.',
  },
  QUOTE_PRICES_CHANGED: {
    status: 409,
    message:
      'La lista de precios cambió desde la cotización ({units}): use «Recotizar» para cotizar con los precios vigentes.',
  },
  QUOTE_UNIT_TAKEN: {
    status: 409,
    message: 'La unidad {unit} ya no está disponible: use «Recotizar» para cotizar otra unidad.',
  },
  QUOTE_ALREADY_RESERVED: {
    status: 409,
    message: 'Esta cotización ya se reservó (reserva N° {reservation}).',
  },
  QUOTE_CLIENT_REQUIRED: {
    status: 400,
    message:
      'El prospecto aún no es cliente: ingrese su RUT, nombres, apellidos y fecha de nacimiento para reservar.',
  },
  POLICY_EXCEEDED: {
    status: 400,
    message:
      'La reserva excede la política comercial del proyecto: {breaches}. Solo un administrador puede aprobarla, indicando el motivo.',
  },
  POLICY_OVERRIDE_FORBIDDEN: {
    status: 403,
    message: 'Solo un administrador puede exceder la política comercial del proyecto',
    field: 'policyOverrideReason',
  },
  // Valores UF, pesos (issue 33)
  UF_FILE_UNREADABLE: {
    status: 400,
    message:
      'No se pudo leer el archivo. Use un CSV o XLSX con la tabla anual del SII (días por meses) o una lista de fecha y valor.',
  },
  UF_IMPORT_INVALID: { status: 400, message: 'El archivo no se importó; nada cambió. {problems}' },
  UF_VALUE_INVALID: { status: 400, message: '{problems}', field: 'value' },
  UF_CONFIRMATION_REQUIRED: {
    status: 409,
    message: 'Revise y confirme antes de guardar: {warnings}',
  },
  UF_FETCH_DISABLED: {
    status: 409,
    message: 'La consulta automática de valores UF no está activada: configure UF_API_KEY en el servidor.',
  },
  // Backups (issue 30): the screen explains what to do
  BACKUPS_NOT_EMBEDDED: {
    status: 409,
    message: 'Con PostgreSQL, respalde con pg_dump o la recuperación de su proveedor.',
  },
  BACKUP_IN_PROGRESS: { status: 409, message: 'Ya se está creando un respaldo.' },
  BACKUP_DISK_FULL: {
    status: 507,
    message: 'No queda espacio en el disco de respaldos: no se creó el respaldo.',
  },
  BACKUP_FAILED: { status: 500, message: 'No se pudo crear el respaldo: {reason}' },
  BACKUP_NOT_FOUND: { status: 404, message: 'El respaldo no existe.' },
  // Documents (issue 35, decision 0037)
  DOCUMENT_NOT_FOUND: { status: 404, message: 'El documento no existe.' },
  DOCUMENT_TOO_LARGE: {
    status: 413,
    message: 'El archivo supera el máximo de 20 MB: no se guardó. Reduzca su tamaño o divídalo.',
  },
  DOCUMENT_EMPTY: { status: 400, message: 'El archivo está vacío: no se guardó.' },
  // Readers at the doors (issue 52, decision 0049): a Word or Excel document judged by what it inflates to
  DOCUMENT_EXPANDS: {
    status: 400,
    message:
      'El archivo se expande a un tamaño excesivo al abrirlo y no se puede aceptar de forma segura: no se guardó.',
  },
  DOCUMENT_DAMAGED: {
    status: 400,
    message: 'El archivo está dañado: su contenido comprimido no se puede abrir. No se guardó.',
  },
  DOCUMENT_TYPE_REFUSED: {
    status: 400,
    message:
      'El archivo no es un PDF, una imagen (PNG, JPEG, GIF, WebP) ni un documento Word o Excel: no se guardó.',
  },
  COMMISSION_STATEMENT_FORBIDDEN: {
    status: 403,
    message:
      'La Liquidación de Comisión cita los folios de la orden de compra y de la factura del broker: solo la ven quienes pueden ver esos documentos.',
  },
  COMMISSION_FOLIOS_FORBIDDEN: {
    status: 403,
    message:
      'Los folios de la orden de compra y de las facturas del broker solo los ven y registran quienes pueden ver esos documentos: no se guardó.',
  },
  DOCUMENT_FORBIDDEN: {
    status: 403,
    message: 'Los documentos de tipo «{type}» solo los ven administradores y el equipo de pagos.',
  },
  DOCUMENT_NOT_PREVIEWABLE: {
    status: 409,
    message:
      'Este archivo no se puede mostrar en el navegador (está cifrado o dañado, o no es PDF ni imagen): descárguelo.',
  },
  DOCUMENT_TYPE_NOT_FOUND: { status: 404, message: 'El tipo de documento no existe.' },
  DOCUMENT_TYPE_NAME_TAKEN: {
    status: 409,
    message: 'Ya existe un tipo de documento con ese nombre.',
    field: 'name',
  },
  DOCUMENT_TYPE_IN_USE: {
    status: 409,
    message: 'Hay documentos de este tipo: no se puede eliminar. Cámbielo o elimine esos documentos primero.',
  },
  TASK_DOCUMENT_MISSING: {
    status: 409,
    message:
      'Falta el documento «{document}» de esta reserva: súbalo en Documentos antes de completar la tarea.',
  },
  DOCUMENT_DELETE_ADMIN_ONLY: { status: 403, message: 'Solo un administrador puede eliminar documentos.' },

  // The broker's invoice (issue 33, decision 0039)
  BROKER_INVOICE_TASK_NOT_FOUND: { status: 404, message: 'Esta tarea no recibe la factura del broker.' },
  BROKER_INVOICE_NOT_FOUND: { status: 404, message: 'Esta tarea no tiene una factura registrada.' },
  BROKER_INVOICE_EXISTS: {
    status: 409,
    message: 'Esta tarea ya tiene una factura registrada: recargue la página y edítela.',
  },
  BROKER_INVOICE_RECORD_FORBIDDEN: {
    status: 403,
    message: 'Solo el equipo de pagos y los administradores registran la factura del broker.',
  },
  BROKER_INVOICE_TASK_COMPLETED: {
    status: 403,
    message: 'La tarea ya está completada: solo un administrador puede cambiar su factura.',
  },
  BROKER_INVOICE_ACCEPT_FORBIDDEN: {
    status: 403,
    message: 'Solo un administrador puede aceptar una diferencia entre la factura y el pago.',
  },
  BROKER_INVOICE_FLOW_CLOSED: {
    status: 409,
    message: 'El flujo de pago está cancelado o su reserva resciliada: la factura no se puede modificar.',
  },
  BROKER_INVOICE_XML_INVALID: {
    status: 400,
    message: 'El archivo no es una factura electrónica del SII: {reason}. No se registró nada.',
    field: 'content',
  },
  BROKER_INVOICE_OTHER_RUT: {
    status: 400,
    message:
      'La factura fue emitida por el RUT {issuer}, no por el broker de esta comisión ({broker}). No se registró nada.',
    field: 'issuerRut',
  },
  BROKER_INVOICE_FOLIO_TAKEN: {
    status: 409,
    message: 'El broker ya tiene registrada una {kind} con el folio {folio}.',
    field: 'folio',
  },
  BROKER_INVOICE_FUTURE_DATE: {
    status: 400,
    message: 'La fecha de emisión no puede ser posterior a hoy.',
    field: 'issueDate',
  },
  BROKER_INVOICE_RECEIVED_DATE: {
    status: 400,
    message: 'La fecha de recepción debe estar entre la fecha de emisión y hoy.',
    field: 'receivedDate',
  },
  BROKER_INVOICE_MISSING: {
    status: 409,
    message: 'Registre la factura del broker antes de completar la tarea.',
  },
  BROKER_INVOICE_MISMATCH: {
    status: 409,
    message:
      'La factura del broker no cuadra con el pago ({lines}): un administrador debe aceptar la diferencia, con un motivo, antes de completar la tarea.',
  },
  BROKER_INVOICE_NO_MISMATCH: {
    status: 409,
    message: 'La factura cuadra con el pago: no hay una diferencia que aceptar.',
  },

  // 'Nómina de pago' (issue 33, decision 0040)
  PAYMENT_BATCH_FORBIDDEN: {
    status: 403,
    message: 'Solo los Gestores de Pagos y los administradores preparan y pagan nóminas de pago.',
  },
  PAYMENT_BATCH_NOT_FOUND: { status: 404, message: 'La nómina de pago no existe.' },
  PAYMENT_BATCH_NOT_OPEN: {
    status: 409,
    message: 'La nómina de pago ya no está abierta (fue pagada o anulada). Recargue la página.',
  },
  PAYMENT_BATCH_PAYMENT_NOT_READY: {
    status: 409,
    message: 'El pago {payment} de la reserva {reservation} no está listo para pagar. {reason}.',
  },
  PAYMENT_BATCH_PAYMENT_GONE: {
    status: 409,
    message:
      'Un pago elegido ya no espera su fecha de pago (se pagó, se reabrió o su reserva fue resciliada). Recargue la página.',
  },
  PAYMENT_BATCH_PAYMENT_TAKEN: {
    status: 409,
    message: 'Un pago elegido ya está en otra nómina abierta. Recargue la página y elija de nuevo.',
  },
  PAYMENT_BATCH_DUPLICATE_PAYMENT: { status: 400, message: 'Un pago fue elegido dos veces.' },
  PAYMENT_BATCH_PAID_DATE_FUTURE: {
    status: 400,
    message: 'La fecha de pago no puede ser posterior a hoy.',
    field: 'paidDate',
  },
  PAYMENT_BATCH_PAID_DATE_ADMIN_ONLY: {
    status: 403,
    message:
      'Un Gestor de Pagos registra la fecha del banco dentro de los últimos {days} días hábiles (desde el {earliest}); una fecha anterior la registra un administrador.',
    field: 'paidDate',
  },
  PAYMENT_BATCH_TOO_MANY_FOR_BANK: {
    status: 400,
    message:
      'El formato del banco «{layout}» admite a lo más {max} pagos por archivo: elija menos pagos para esta nómina.',
  },
  PAYMENT_SETTINGS_FORBIDDEN: {
    status: 403,
    message: 'Solo un administrador cambia la configuración de pagos.',
  },
  PERMISSION_UNKNOWN: { status: 404, message: 'La acción no existe en el catálogo de permisos.' },
  PERMISSION_FIXED: {
    status: 409,
    message: 'Esta acción está fija por la especificación: no se otorga ni se retira.',
  },
  PERMISSION_ADMIN_KEEPS: {
    status: 409,
    message:
      'Los administradores conservan siempre la gestión de usuarios y de permisos: de lo contrario nadie podría devolverlos.',
  },
  PAYMENT_BATCH_PAYMENT_REFUSED: {
    status: 409,
    message: 'No se pudo completar el pago {payment} de la reserva {reservation}: {reason} Nada se registró.',
  },

  // The buyer's account (issue 60, decision 0073)
  BUYER_PLAN_EXISTS: {
    status: 409,
    message: 'La reserva ya tiene un plan de pagos: recargue la página.',
  },
  BUYER_PLAN_NOT_FOUND: { status: 404, message: 'La reserva no tiene un plan de pagos.' },
  BUYER_PLAN_RESCINDED: {
    status: 409,
    message: 'La reserva está resciliada: su plan de pagos no se puede modificar.',
  },
  BUYER_PLAN_NO_PROMISE_DATE: {
    status: 400,
    message: 'Ingrese la fecha de promesa de la reserva antes de armar el plan de pagos.',
  },
  BUYER_PLAN_NOTHING_TO_PAY: {
    status: 400,
    message: 'La reserva no tiene montos de reserva, promesa ni pie: no hay plan que armar.',
  },
  BUYER_PLAN_AFTER_DEED: {
    status: 400,
    message:
      'Con {count} cuotas la última vence después de la fecha de escritura ({deedDate}): use como máximo {max}.',
    field: 'installmentCount',
  },
  BUYER_PLAN_FORBIDDEN: { status: 403, message: 'No tiene permisos para armar el plan de pagos.' },
  BUYER_PAYMENT_FORBIDDEN: {
    status: 403,
    message: 'Solo el equipo de pagos y los administradores registran y reversan pagos del comprador.',
  },
  BUYER_PAYMENT_FUTURE: {
    status: 400,
    message: 'La fecha del pago no puede ser posterior a hoy.',
    field: 'paidDate',
  },
  BUYER_PAYMENT_UF_MISSING: {
    status: 400,
    message:
      'No hay valor UF para el {date}: regístrelo en Configuración → Valores UF o ingrese el monto en UF.',
    field: 'paidDate',
  },
  BUYER_PAYMENT_EXCEEDS_BALANCE: {
    status: 400,
    message: 'El pago (UF {amount}) supera el saldo por pagar del plan (UF {balance}). No se registró nada.',
    field: 'amount',
  },
  BUYER_PAYMENT_NOT_FOUND: { status: 404, message: 'El pago no existe en esta reserva.' },
  BUYER_PAYMENT_ALREADY_REVERSED: { status: 409, message: 'El pago ya fue reversado.' },
  PIE_WAIVER_FORBIDDEN: {
    status: 403,
    message: 'Solo un administrador puede liberar la carta pie sin el pie pagado.',
  },
  PIE_ALREADY_SETTLED: { status: 409, message: 'El pie ya está pagado o la carta pie ya fue liberada.' },
  PIE_NOT_PAID: {
    status: 409,
    message:
      'El pie no está pagado (saldo UF {balance}): registre los pagos en la cuenta del comprador, o un administrador puede liberar la carta pie indicando el motivo.',
  },
} as const satisfies Record<string, ErrorEntry>;

interface ErrorEntry {
  status: number;
  message: string;
  /** The form field the message belongs to. */
  field?: string;
}

export type ErrorCode = keyof typeof errorCatalog;

/** The message of a code with its `{name}` placeholders filled. */
export function errorMessage(code: ErrorCode, params: Record<string, string | number> = {}): string {
  return errorCatalog[code].message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** The field a code's message belongs to, if any. */
export function errorField(code: ErrorCode): string | undefined {
  return (errorCatalog[code] as ErrorEntry).field;
}

/** The JSON body of every error answer. `fields` maps a field path to its Spanish message. */
export interface ApiErrorBody {
  error: { code: ErrorCode; message: string; fields?: Record<string, string> };
}
