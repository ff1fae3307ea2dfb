/**
 * Partial-match search words (decision 0006). The database stores a `search_text` column computed as
 * lower(translate(text, 'ÁÉÍÓÚÜÑáéíóúüñ', 'AEIOUUNaeiouun')); a query is folded the same way and split
 * into words, and a row matches when every word appears in its `search_text`.
 */

const ACCENTED = 'ÁÉÍÓÚÜÑáéíóúüñ';
const PLAIN = 'AEIOUUNaeiouun';

/** Folds text exactly like the generated `search_text` columns: accents removed, lower case. */
export function foldForSearch(text: string): string {
  let out = '';
  for (const char of text) {
    const index = ACCENTED.indexOf(char);
    out += index >= 0 ? PLAIN[index] : char;
  }
  return out.toLowerCase();
}

// Digits with optional thousands dots and an optional '-<check digit>': '12.345', '12.345.678-5', '6-k'.
const RUT_LIKE = /^\d[\d.]*(-[\dk]?)?$/;

/**
 * The words of a search query: trimmed, split on white space, folded; a word that looks like a
 * (partial) RUT loses its dots so it matches the stored '12345678-5'. Duplicates are dropped.
 */
export function searchWords(query: string | null | undefined): string[] {
  if (!query) return [];
  const words = foldForSearch(query.trim())
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => (RUT_LIKE.test(word) ? word.replaceAll('.', '') : word));
  return [...new Set(words)];
}
