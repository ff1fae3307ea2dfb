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

// --- Clean text: what others will see (issue 52, decision 0058) ----------------------------------

/**
 * Characters that change how the text around them is shown or written without being seen
 * themselves: C0 controls (with tab, line feed and carriage return), DEL and C1 controls, the
 * bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E/F, U+202A–202E,
 * U+2066–2069), the line and paragraph separators (U+2028/9) and the byte-order mark (U+FEFF).
 * A name 'Romero\u202e& Asociados' shows reversed; 'factura\u202efdp.exe' reads as a PDF; a CR LF
 * in a first name splits a file's line.
 */
const UNSEEN_IN_LINE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/;
/** The same, but tab, line feed and carriage return are text in a comment or a note. */
const UNSEEN_IN_TEXT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/;
const UNSEEN_IN_LINE_ALL = new RegExp(UNSEEN_IN_LINE.source, 'g');
const UNSEEN_IN_TEXT_ALL = new RegExp(UNSEEN_IN_TEXT.source, 'g');
const LINE_BREAKS = /\r\n|[\r\n\u2028\u2029]/g;

export const UNCLEAN_LINE_MESSAGE =
  'No se admiten saltos de línea, tabulaciones, caracteres de control ni marcas de dirección del texto (como U+202E)';
export const UNCLEAN_TEXT_MESSAGE =
  'No se admiten caracteres de control ni marcas de dirección del texto (como U+202E)';

/** One line others will see (a name, a bank field, a file name): no control or bidirectional character. */
export function isCleanLine(value: string): boolean {
  return !UNSEEN_IN_LINE.test(value) && isSafeText(value);
}

/** Text of several lines (a comment, a note, a reason): line breaks and tabs, nothing else unseen. */
export function isCleanText(value: string): boolean {
  return !UNSEEN_IN_TEXT.test(value) && isSafeText(value);
}

/**
 * Text stored before the rule (or from a door that reads files) as it is shown and written
 * (decision 0058): every unseen character dropped; with `lines`, line breaks and tabs kept.
 */
export function stripUnseen(value: string, { lines = false }: { lines?: boolean } = {}): string {
  return value.replace(lines ? UNSEEN_IN_TEXT_ALL : UNSEEN_IN_LINE_ALL, '');
}

/**
 * A cell of an imported file read as one line: its line breaks (Alt+Enter in Excel) ' / ', tabs a
 * space; any other unseen character stays, for the field's rule to refuse with its message.
 */
export function joinLines(value: string): string {
  return value.replace(LINE_BREAKS, ' / ').replaceAll('\t', ' ');
}

/**
 * A text as one line of a file: each line break (CR LF, CR, LF, U+2028/9) written ' / ', a tab a
 * space, every other unseen character dropped (decision 0058).
 */
export function oneLine(value: string): string {
  if (!UNSEEN_IN_LINE.test(value)) return value;
  return value.replace(LINE_BREAKS, ' / ').replaceAll('\t', ' ').replace(UNSEEN_IN_LINE_ALL, '');
}
