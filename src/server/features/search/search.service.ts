import { isSearchable, SEARCH_RESULTS_PER_TYPE, unitSearchOf } from '../../../shared/domain/global-search';
import { searchWords } from '../../../shared/domain/search';
import type { SearchResults } from '../../../shared/schemas/search';
import type { ReadContext } from '../../context';
import * as queries from './search.queries';

const EMPTY: SearchResults = {
  clients: [],
  reservationsByNumber: [],
  reservationsByApartment: [],
  units: [],
};

/**
 * The top bar's global search (spec part 1 §2): at least three characters once trimmed (fewer
 * answer nothing, whatever the client sends), up to five clients, five reservations by number and
 * five by apartment number.
 */
export async function globalSearch({ db }: ReadContext, text: string): Promise<SearchResults> {
  const trimmed = text.trim();
  if (!isSearchable(trimmed)) return EMPTY;
  const limit = SEARCH_RESULTS_PER_TYPE;
  // One after the other: the embedded database runs one statement at a time anyway.
  const clients = await queries.findClients(db, trimmed, limit);
  const reservationsByNumber = await queries.findReservationsByNumber(db, trimmed, limit);
  const reservationsByApartment = await queries.findReservationsByApartment(db, trimmed, limit);
  // 'depto 1203 Parque': a project's units by number (decision 0032).
  const unitSearch = unitSearchOf(searchWords(trimmed));
  const units = unitSearch ? await queries.findUnits(db, unitSearch, limit) : [];
  return { clients, reservationsByNumber, reservationsByApartment, units };
}
