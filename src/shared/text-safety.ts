/**
 * Characters no text of ours may carry: NUL (PostgreSQL's text cannot store it) and lone UTF-16
 * surrogates (they cannot be encoded as UTF-8; the drivers would silently store U+FFFD instead).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSAFE_TEXT_MESSAGE = 'El texto contiene caracteres no permitidos';

export function isSafeText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/**
 * The path ('body.firstName', 'query.search', 'body.items.2.name') of the first string, key
 * included, that carries an unsafe character anywhere in a parsed request part; null when none does.
 */
export function unsafeTextPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return isSafeText(value) ? null : path;
  if (value === null || typeof value !== 'object') return null;
  // Binary bodies (an uploaded image: a Buffer) hold bytes, not text: walking them would visit every byte.
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return null;
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    if (!isSafeText(key)) return path || '_';
    const found = unsafeTextPath(child, childPath);
    if (found !== null) return found;
  }
  return null;
}
