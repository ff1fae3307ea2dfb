/**
 * The top bar's global search (spec part 1 §2, §5 and §9). Words are folded and split by
 * `searchWords` (./search, decision 0006); these are the global search's own limits.
 */

/** The minimum trimmed length before a search runs (fewer characters answer nothing). */
export const SEARCH_MIN_LENGTH = 3;
/** Results per type: clients, reservations by number, reservations by apartment. */
export const SEARCH_RESULTS_PER_TYPE = 5;
/** The longest search text accepted (longer is refused with 400). */
export const SEARCH_MAX_LENGTH = 100;

/** True when a global search should run: at least three characters once trimmed. */
export function isSearchable(text: string): boolean {
  return text.trim().length >= SEARCH_MIN_LENGTH;
}
