/**
 * Characters no text of ours may carry: NUL (PostgreSQL's text cannot store it) and lone UTF-16
 * surrogates (they cannot be encoded as UTF-8; the drivers would silently store U+FFFD instead).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSAFE_TEXT_MESSAGE = 'El texto contiene caracteres no permitidos';

/**
 * How deep objects and arrays may nest in a request part. No request of ours nests more than about
 * five levels; anything far deeper is hostile (a JSON body of thousands of levels).
 */
export const MAX_NESTING_DEPTH = 64;

export function isSafeText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/** What `inspectText` found wrong: an unsafe string or key (at `path`), or nesting too deep. */
export type TextFinding = { kind: 'unsafe-text'; path: string } | { kind: 'too-deep' };

/** One value still to visit: its key in its container, the container's frame and its own depth. */
interface Frame {
  value: unknown;
  key: string | null;
  parent: Frame | null;
  /** How many objects and arrays hold this value (the part itself: 0). */
  depth: number;
}

/** 'items.1.name': the keys from the top, after the caller's prefix; built only when reported. */
function pathOf(frame: Frame | null, prefix: string): string {
  const keys: string[] = [];
  for (let current = frame; current?.key != null; current = current.parent) keys.push(current.key);
  if (prefix) keys.push(prefix);
  return keys.reverse().join('.');
}

/**
 * The first string (value or key) of a parsed request part that carries an unsafe character, as
 * its path ('firstName', 'query.search', 'items.2.name'; an unsafe key reports its container's path,
 * '_' at the top), or `too-deep` as soon as objects and arrays nest deeper than `maxDepth`; null
 * when neither. Walks with an explicit stack, in document order, so no depth can overflow the call
 * stack; paths are only spelt out for the finding.
 */
export function inspectText(
  value: unknown,
  { path = '', maxDepth = MAX_NESTING_DEPTH }: { path?: string; maxDepth?: number } = {},
): TextFinding | null {
  const stack: Frame[] = [{ value, key: null, parent: null, depth: 0 }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    if (frame.key !== null && !isSafeText(frame.key)) {
      return { kind: 'unsafe-text', path: pathOf(frame.parent, path) || '_' };
    }
    const current = frame.value;
    if (typeof current === 'string') {
      if (!isSafeText(current)) return { kind: 'unsafe-text', path: pathOf(frame, path) };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    // Binary bodies (an uploaded image: a Buffer) hold bytes, not text: walking them would visit every byte.
    if (ArrayBuffer.isView(current) || current instanceof ArrayBuffer) continue;
    if (frame.depth >= maxDepth) return { kind: 'too-deep' };
    const entries = Object.entries(current);
    // Pushed last to first, so the first entry is visited first, as a recursive walk would.
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index]!;
      stack.push({ value: child, key, parent: frame, depth: frame.depth + 1 });
    }
  }
  return null;
}
