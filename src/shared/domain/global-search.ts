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

/** Words that name a kind of unit in a search ('depto 1203 Parque'). */
export const UNIT_KIND_WORDS: Record<string, 'apartment' | 'parking' | 'storage'> = {
  depto: 'apartment',
  dpto: 'apartment',
  departamento: 'apartment',
  est: 'parking',
  estacionamiento: 'parking',
  bod: 'storage',
  bodega: 'storage',
};

export interface UnitSearch {
  kind: 'apartment' | 'parking' | 'storage' | null;
  /** The word with a digit: the unit's number (partial). */
  number: string;
  /** The other words: each must appear in the project's name or stage. */
  projectWords: string[];
}

/**
 * A search read as a unit: one word with a digit is its number, a kind word ('depto', 'est', 'bod')
 * its kind, the rest words of the project's name. Null when no word has a digit (no unit search).
 */
export function unitSearchOf(words: readonly string[]): UnitSearch | null {
  const number = words.find((word) => /\d/.test(word));
  if (!number) return null;
  let kind: UnitSearch['kind'] = null;
  const projectWords: string[] = [];
  for (const word of words) {
    if (word === number) continue;
    const named = UNIT_KIND_WORDS[word.replace(/\.$/, '')];
    if (named && kind === null) kind = named;
    else projectWords.push(word);
  }
  return { kind, number, projectWords };
}
