import { z } from 'zod';
import { santiagoDateOf } from '../format';
import { optionalEmail, optionalText, pageOf, requiredText, sortedPageQuery, versioned } from './common';
import { requiredDate, requiredRut } from './fields';

/** The client fields of spec part 1 §3 and their rules (§5). Used by the API and by the form. */

export const CLIENT_MESSAGES = {
  rutRequired: 'El RUT es obligatorio',
  rutInvalid: 'El RUT no es válido (revise el dígito verificador)',
  firstName: 'Los nombres son obligatorios',
  lastName: 'Los apellidos son obligatorios',
  birthDateRequired: 'La fecha de nacimiento es obligatoria',
  birthDateInvalid: 'Ingrese una fecha de nacimiento válida',
  birthDateFuture: 'La fecha de nacimiento no puede ser posterior a hoy',
  email: 'Ingrese un correo electrónico válido',
} as const;

export const clientBody = z.strictObject({
  rut: requiredRut(CLIENT_MESSAGES.rutRequired, CLIENT_MESSAGES.rutInvalid),
  firstName: requiredText(CLIENT_MESSAGES.firstName, 100),
  lastName: requiredText(CLIENT_MESSAGES.lastName, 100),
  // A birth date cannot be in the future (today counted on the Santiago calendar).
  birthDate: requiredDate(CLIENT_MESSAGES.birthDateRequired, CLIENT_MESSAGES.birthDateInvalid).refine(
    (value) => value <= santiagoDateOf(new Date()),
    { error: CLIENT_MESSAGES.birthDateFuture },
  ),
  phone: optionalText(30),
  email: optionalEmail(CLIENT_MESSAGES.email),
});
export type ClientBody = z.input<typeof clientBody>;
export type ClientValues = z.output<typeof clientBody>;

export const clientUpdateBody = clientBody.extend(versioned);
export type ClientUpdateBody = z.input<typeof clientUpdateBody>;

/** A row of /clientes (also the reservation screen's client-search results). */
export const clientRow = z.object({
  id: z.uuid(),
  rut: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  birthDate: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  createdAt: z.string(),
  /** The holder opposed or blocked the processing of their data (Ley 21.719): marked on screen. */
  restriction: z.enum(['opposition', 'blocking']).nullable(),
});
export type ClientRow = z.infer<typeof clientRow>;

/**
 * The orders of /clientes, each read off an index (decision 0019): newest first (the spec's order,
 * clients_newest_idx), by RUT (the live-RUT unique index), by full name (clients_name_idx).
 */
export const CLIENT_SORTS = ['createdAt', 'rut', 'fullName'] as const;
export type ClientSort = (typeof CLIENT_SORTS)[number];

/** GET /api/clients: live clients searched by RUT or name (every word), sorted, paged. */
export const clientListQuery = sortedPageQuery(CLIENT_SORTS, { sort: 'createdAt', direction: 'desc' });
export type ClientListParams = z.output<typeof clientListQuery>;
/** What a screen sends: any of the parameters (each has a default). */
export type ClientListQuery = Partial<ClientListParams>;

export const clientPage = pageOf(clientRow);
export type ClientPage = z.infer<typeof clientPage>;

/** One client, for the form: carries the `version` an edit must send back. */
export const clientResponse = clientRow.extend({
  /** Why the holder opposed or blocked (what the request recorded), while restricted. */
  restrictionReason: z.string().nullable(),
  updatedAt: z.string(),
  version: z.number().int(),
  /** Whether the server would take an edit now (not while the holder has their data blocked). */
  canEdit: z.boolean(),
  /** When it would not, the Spanish reason the save would be refused with; the form shows it. */
  editRefusal: z.string().nullable(),
});
export type Client = z.infer<typeof clientResponse>;

/** The answer of one client's read, creation and edit (docs/code-style.md: one record, wrapped). */
export const clientAnswer = z.object({ client: clientResponse });
export type ClientAnswer = z.infer<typeof clientAnswer>;
