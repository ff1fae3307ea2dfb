import { z } from 'zod';
import { closed, optionalNote, pageOf, sortedPageQuery, versioned } from './common';
import { requiredDate, requiredRut } from './fields';

/**
 * Configuración → 'Solicitudes de titulares' (Ley 21.719, issue 27, decision 0027): the register of
 * holders' requests, their answers, and what an administrator does about each one.
 */

export const DATA_REQUEST_KINDS = [
  'access',
  'rectification',
  'suppression',
  'opposition',
  'portability',
  'blocking',
] as const;
export type DataRequestKind = (typeof DATA_REQUEST_KINDS)[number];

/** The kinds as the law and the screens name them. */
export const dataRequestKindLabels: Record<DataRequestKind, string> = {
  access: 'Acceso',
  rectification: 'Rectificación',
  suppression: 'Supresión',
  opposition: 'Oposición',
  portability: 'Portabilidad',
  blocking: 'Bloqueo',
};

export const DATA_REQUEST_STATUSES = ['pending', 'in_progress', 'answered', 'rejected'] as const;
export type DataRequestStatus = (typeof DATA_REQUEST_STATUSES)[number];

export const dataRequestStatusLabels: Record<DataRequestStatus, string> = {
  pending: 'Recibida',
  in_progress: 'En curso',
  answered: 'Respondida',
  rejected: 'Rechazada',
};

/** A request still to be answered (its deadline counts). */
export const OPEN_DATA_REQUEST_STATUSES = ['pending', 'in_progress'] as const;

export const DATA_REQUEST_MESSAGES = {
  kind: 'Seleccione el tipo de solicitud',
  rutRequired: 'El RUT del titular es obligatorio',
  rutInvalid: 'El RUT no es válido (revise el dígito verificador)',
  receivedRequired: 'La fecha de recepción es obligatoria',
  receivedInvalid: 'Ingrese una fecha de recepción válida',
  status: 'Seleccione un estado válido',
  responseRequired: 'Escriba la respuesta dada al titular',
  confirmation: 'Escriba SUPRIMIR para confirmar',
  retentionYears: 'Indique un número de años entre 1 y 50',
} as const;

export const dataRequestBody = z.strictObject({
  kind: z.enum(DATA_REQUEST_KINDS, { error: DATA_REQUEST_MESSAGES.kind }),
  holderRut: requiredRut(DATA_REQUEST_MESSAGES.rutRequired, DATA_REQUEST_MESSAGES.rutInvalid),
  receivedDate: requiredDate(DATA_REQUEST_MESSAGES.receivedRequired, DATA_REQUEST_MESSAGES.receivedInvalid),
  details: optionalNote(2000),
});
export type DataRequestBody = z.input<typeof dataRequestBody>;
export type DataRequestValues = z.output<typeof dataRequestBody>;

/** Its progress and the answer given (answered: the answer is required). */
export const dataRequestUpdateBody = z
  .strictObject({
    status: z.enum(DATA_REQUEST_STATUSES, { error: DATA_REQUEST_MESSAGES.status }),
    response: optionalNote(4000),
    ...versioned,
  })
  .refine((value) => value.status !== 'answered' || value.response !== null, {
    path: ['response'],
    error: DATA_REQUEST_MESSAGES.responseRequired,
  });
export type DataRequestUpdateBody = z.input<typeof dataRequestUpdateBody>;

/** 'Suprimir datos personales' is irreversible: the word typed by the administrator. */
export const SUPPRESSION_CONFIRMATION = 'SUPRIMIR';
export const suppressionBody = z.strictObject({
  confirmation: closed(z.string({ error: DATA_REQUEST_MESSAGES.confirmation }), 'palabra de confirmación')
    .trim()
    .refine((value) => value.toUpperCase() === SUPPRESSION_CONFIRMATION, {
      error: DATA_REQUEST_MESSAGES.confirmation,
    }),
});

const person = z.object({ id: z.uuid(), firstName: z.string(), lastName: z.string() });

/** The client a request concerns, as the register shows it. */
export const dataRequestHolder = z.object({
  clientId: z.uuid(),
  name: z.string(),
  isSuppressed: z.boolean(),
  /** Soft-deleted (suppressed holders too): their client record no longer opens. */
  isDeleted: z.boolean(),
  restriction: z.enum(['opposition', 'blocking']).nullable(),
  reservations: z.number().int(),
});

export const dataRequestRow = z.object({
  id: z.uuid(),
  kind: z.enum(DATA_REQUEST_KINDS),
  holderRut: z.string(),
  holder: dataRequestHolder.nullable(),
  receivedDate: z.string(),
  dueDate: z.string(),
  /** Calendar days from today (Santiago) to the due date; negative once overdue. */
  daysLeft: z.number().int(),
  /** Open and past its due date. */
  isOverdue: z.boolean(),
  status: z.enum(DATA_REQUEST_STATUSES),
  handledBy: person.nullable(),
  answeredAt: z.string().nullable(),
});
export type DataRequestRow = z.infer<typeof dataRequestRow>;

export const DATA_REQUEST_SORTS = ['dueDate', 'receivedDate'] as const;
export const dataRequestListQuery = sortedPageQuery(DATA_REQUEST_SORTS, {
  sort: 'dueDate',
  direction: 'asc',
}).extend({
  status: z
    .enum(['open', 'all', ...DATA_REQUEST_STATUSES], { error: DATA_REQUEST_MESSAGES.status })
    .default('open'),
  kind: z.enum(DATA_REQUEST_KINDS, { error: DATA_REQUEST_MESSAGES.kind }).optional(),
});
export type DataRequestListParams = z.output<typeof dataRequestListQuery>;
export type DataRequestListQuery = Partial<DataRequestListParams>;
export const dataRequestPage = pageOf(dataRequestRow);
export type DataRequestPage = z.infer<typeof dataRequestPage>;

/** Whether the administrator may take an action now, and why not (the server decides; screens render it). */
const allowance = z.object({ allowed: z.boolean(), reason: z.string().nullable() });

export const dataRequestDetail = dataRequestRow.extend({
  details: z.string().nullable(),
  response: z.string().nullable(),
  createdBy: person.nullable(),
  createdAt: z.string(),
  version: z.number().int(),
  /** What can be done about it: export the holder's data, suppress, oppose/block, edit the client. */
  actions: z.object({
    exportData: allowance,
    suppress: allowance,
    restrict: allowance,
    rectify: allowance,
    /** 'Ver datos bloqueados': a suppressed holder with values a legal duty kept (the read is logged). */
    readBlockedValues: allowance,
  }),
});
export type DataRequestDetail = z.infer<typeof dataRequestDetail>;
export const dataRequestAnswer = z.object({ request: dataRequestDetail });

/** The holder's data export ('Exportar datos del titular'). */
export const holderExportQuery = z.strictObject({
  format: z.enum(['json', 'xlsx'], { error: 'Formato no válido: use json o xlsx' }).default('json'),
});

/** Clients with no live reservation for the retention period, for review. */
export const retentionRow = z.object({
  clientId: z.uuid(),
  rut: z.string(),
  name: z.string(),
  /** The last day anything live tied them here: their newest reservation, its rescission, or their registration. */
  lastActivityDate: z.string(),
  reservations: z.number().int(),
});
export const retentionQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export const retentionPage = pageOf(retentionRow).extend({ retentionYears: z.number().int() });
export type RetentionPage = z.infer<typeof retentionPage>;

export const privacySettingsBody = z.strictObject({
  retentionYears: z.coerce
    .number({ error: DATA_REQUEST_MESSAGES.retentionYears })
    .int({ error: DATA_REQUEST_MESSAGES.retentionYears })
    .min(1, { error: DATA_REQUEST_MESSAGES.retentionYears })
    .max(50, { error: DATA_REQUEST_MESSAGES.retentionYears }),
  importFileDays: z.coerce
    .number({ error: 'Indique los días (entre 1 y 3650).' })
    .int({ error: 'Indique los días (entre 1 y 3650).' })
    .min(1, { error: 'Indique los días (entre 1 y 3650).' })
    .max(3650, { error: 'Indique los días (entre 1 y 3650).' })
    .optional(),
  mailCopyDays: z.coerce
    .number({ error: 'Indique los días (entre 1 y 3650).' })
    .int({ error: 'Indique los días (entre 1 y 3650).' })
    .min(1, { error: 'Indique los días (entre 1 y 3650).' })
    .max(3650, { error: 'Indique los días (entre 1 y 3650).' })
    .optional(),
  ...versioned,
});
export const privacySettingsAnswer = z.object({
  settings: z.object({
    retentionYears: z.number().int(),
    /** Days an import's uploaded file is kept (decision 0055). */
    importFileDays: z.number().int(),
    /** Days an .eml copy of a notice is kept (decision 0055). */
    mailCopyDays: z.number().int(),
    version: z.number().int(),
  }),
});

/** A value a suppression kept blocked, read through the audited administrator's action. */
export const blockedValuesAnswer = z.object({
  values: z.array(
    z.object({
      tableName: z.string(),
      recordId: z.uuid(),
      columnName: z.string(),
      value: z.string(),
      blockedAt: z.string(),
    }),
  ),
});

/** What the suppression did, for the screen's confirmation. */
export const suppressionAnswer = z.object({
  suppression: z.object({
    clientId: z.uuid(),
    blockedValues: z.number().int(),
    redactedLogRows: z.number().int(),
    redactedComments: z.number().int(),
  }),
});
