import { type AnyColumn, and, like, type SQL, sql } from 'drizzle-orm';
import { searchWords } from '../../shared/domain/search';
import { PLANNED_PER_RUN } from './planned-per-run';

/** Escapes LIKE's wildcards (`%`, `_`) and its escape character (`\`, PostgreSQL's default). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * The partial-match filter of decision 0006 over a generated `search_text` column: every word of
 * the query must appear (`search_text LIKE '%word%'` for each), which a trigram GIN index serves.
 * Undefined when the query has no words (no filter). Any user input is safe: it travels as a bound
 * parameter with its wildcards escaped.
 */
export function matchesEveryWord(
  searchText: AnyColumn | SQL,
  query: string | null | undefined,
): SQL | undefined {
  const words = searchWords(query);
  if (words.length === 0) return undefined;
  // A pattern's selectivity (a rare word, a common surname) is the plan: planned at each run (0064).
  return and(...words.map((word) => sql`${PLANNED_PER_RUN} ${like(searchText, `%${escapeLike(word)}%`)}`));
}

/**
 * `lower(expression) LIKE '%text%'`, the text lower-cased and its wildcards escaped: a partial,
 * case-insensitive match that a trigram index on `lower(expression)` serves (reservation and
 * apartment numbers).
 */
export function containsIgnoringCase(expression: AnyColumn | SQL, text: string): SQL {
  // Kept with its plan (not PLANNED_PER_RUN): numbers' patterns differ little, and on the embedded
  // database planning each of the global search's statements cost more than the plan saved (0064).
  return sql`lower(${expression}) like ${`%${escapeLike(text.toLowerCase())}%`}`;
}

/**
 * The fold of the `search_text` columns computed on the fly over several columns joined by spaces,
 * for the small settings tables (tens of rows: agencies, projects, users) that need no stored column
 * nor index. Use with `matchesEveryWord`.
 */
export function foldedText(...columns: AnyColumn[]): SQL {
  const joined = sql.join(
    columns.map((column) => sql`coalesce(${column}, '')`),
    sql` || ' ' || `,
  );
  return sql`lower(translate(${joined}, 'ÁÉÍÓÚÜÑáéíóúüñ', 'AEIOUUNaeiouun'))`;
}
