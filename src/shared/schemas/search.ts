import { z } from 'zod';
import { SEARCH_MAX_LENGTH } from '../domain/global-search';
import { line } from './common';

/**
 * GET /api/search?q= — the global search of the top bar (spec part 1 §2, decision 0006).
 * Fewer than three characters (trimmed) answer three empty lists. Each item carries the
 * reservation flow to open, when there is one.
 */
export const searchQuery = z.strictObject({
  q: line()
    .max(SEARCH_MAX_LENGTH, { error: `Máximo ${SEARCH_MAX_LENGTH} caracteres` })
    .default(''),
});
export type SearchQuery = z.infer<typeof searchQuery>;

const reservationHit = z.object({
  id: z.uuid(),
  reservationNumber: z.string(),
  apartmentNumber: z.string(),
  projectName: z.string(),
  projectStage: z.string(),
  clientName: z.string(),
  isRescinded: z.boolean(),
  reservationFlowId: z.uuid().nullable(),
});
export type ReservationHit = z.infer<typeof reservationHit>;

const clientHit = z.object({
  id: z.uuid(),
  rut: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  /** The flow of the client's most recent reservation that has one. */
  reservationFlowId: z.uuid().nullable(),
});
export type ClientHit = z.infer<typeof clientHit>;

/** A project's unit by its number ('depto 1203 Parque'), with its status (decision 0032). */
const unitHit = z.object({
  id: z.uuid(),
  kind: z.enum(['apartment', 'parking', 'storage']),
  number: z.string(),
  projectId: z.uuid(),
  projectName: z.string(),
  projectStage: z.string(),
  status: z.string(),
  /** The flow of the live reservation holding it, when taken. */
  reservationFlowId: z.uuid().nullable(),
});
export type UnitHit = z.infer<typeof unitHit>;

export const searchResponse = z.object({
  clients: z.array(clientHit),
  reservationsByNumber: z.array(reservationHit),
  reservationsByApartment: z.array(reservationHit),
  units: z.array(unitHit),
});
export type SearchResults = z.infer<typeof searchResponse>;
