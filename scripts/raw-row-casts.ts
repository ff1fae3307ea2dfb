/**
 * Raw SQL rows cast, not checked (decision 0036, issue 62): a `queryRows<T>(executor, query)` or a
 * `queryJsonRows<T>(executor, query, orderBy)` without a row schema tells TypeScript what the rows
 * are without anyone checking it. Each file's count of such casts is held at its baseline
 * (`raw-row-casts.baseline.json`): a new cast fails `scripts/raw-row-casts.test.ts`, and a cast
 * replaced by a schema lowers the baseline (`npx tsx scripts/raw-row-casts.ts --update`), so the
 * count only goes down. Give a new read its zod row schema (the third, or for `queryJsonRows` the
 * fourth, argument) or use Drizzle's builder, which types rows from the schema.
 *
 * Not counted: `selectPage`/`selectPageWithSums` (a list's rows leave as the answer, checked by the
 * route's answer schema) and tests (they read what they assert).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectSources, type SourceFile } from './import-boundaries';

export const BASELINE_PATH = join(import.meta.dirname, 'raw-row-casts.baseline.json');

/** The calls that read raw rows, with the argument count at which the row schema is given. */
const READERS: Record<string, number> = { queryRows: 3, queryJsonRows: 4 };
const READER_CALL = /\b(queryRows|queryJsonRows)\b/g;

/**
 * The text with comments, strings and the literal parts of templates blanked (newlines kept, so lines
 * still count): what is left is code, `${…}` inside templates included.
 */
export function codeOnly(text: string): string {
  const out = text.split('');
  const blank = (from: number, to: number) => {
    for (let index = from; index < to && index < out.length; index++)
      if (out[index] !== '\n') out[index] = ' ';
  };
  // Open template literals and, for each `${`, the brace depth at which it closes.
  const templates: number[] = [];
  let braces = 0;
  let index = 0;
  const inTemplateText = () => templates.length > 0 && templates[templates.length - 1] === -1;
  while (index < text.length) {
    const char = text[index];
    if (inTemplateText()) {
      const start = index;
      while (
        index < text.length &&
        text[index] !== '`' &&
        !(text[index] === '$' && text[index + 1] === '{')
      ) {
        index += text[index] === '\\' ? 2 : 1;
      }
      blank(start, index);
      if (text[index] === '`') {
        templates.pop();
        index++;
      } else {
        templates[templates.length - 1] = braces;
        braces++;
        index += 2;
      }
      continue;
    }
    if (char === '/' && text[index + 1] === '/') {
      const end = text.indexOf('\n', index);
      blank(index, end < 0 ? text.length : end);
      index = end < 0 ? text.length : end;
    } else if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      blank(index, end < 0 ? text.length : end + 2);
      index = end < 0 ? text.length : end + 2;
    } else if (char === "'" || char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== char && text[end] !== '\n') end += text[end] === '\\' ? 2 : 1;
      blank(index + 1, end);
      index = end + 1;
    } else if (char === '`') {
      templates.push(-1);
      index++;
    } else {
      if (char === '{') braces++;
      else if (char === '}') {
        braces--;
        if (templates.length > 0 && templates[templates.length - 1] === braces)
          templates[templates.length - 1] = -1;
      }
      index++;
    }
  }
  return out.join('');
}

/**
 * Reads code (comments and strings blanked) from `start` up to the bracket `close` that ends it,
 * nested brackets matched; counts the commas at its own level.
 */
function skipCode(code: string, start: number, close: string): { end: number; commas: number; last: string } {
  const closers: string[] = [];
  let commas = 0;
  let last = '';
  for (let index = start; index < code.length; index++) {
    const char = code[index] ?? '';
    if (closers.length === 0 && char === close) return { end: index, commas, last };
    if (char === '(') closers.push(')');
    else if (char === '[') closers.push(']');
    else if (char === '{') closers.push('}');
    else if (char === closers[closers.length - 1]) closers.pop();
    else if (char === ',' && closers.length === 0) commas++;
    if (!/\s/.test(char)) last = char;
  }
  return { end: code.length, commas, last };
}

/** The index just past the type arguments `<…>` at `start`, or `start` when there are none. */
function skipTypeArguments(text: string, start: number): number {
  if (text[start] !== '<') return start;
  let depth = 0;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (char === '=' && text[index + 1] === '>') {
      index++;
      continue;
    }
    if (char === '<') depth++;
    else if (char === '>' && --depth === 0) return index + 1;
  }
  return text.length;
}

/** The casts in one file's text: each reader's call without its row schema, by line. */
export function castsIn(text: string): { reader: string; line: number }[] {
  const casts: { reader: string; line: number }[] = [];
  text = codeOnly(text);
  for (const match of text.matchAll(READER_CALL)) {
    const reader = match[1] as string;
    const before = text.slice(Math.max(0, match.index - 20), match.index);
    if (/\bfunction\s+$/.test(before)) continue;
    let index = skipTypeArguments(text, match.index + reader.length);
    while (/\s/.test(text[index] ?? '')) index++;
    if (text[index] !== '(') continue;
    const call = skipCode(text, index + 1, ')');
    const trailingComma = call.last === ',' ? 1 : 0;
    const argumentCount = call.commas + 1 - trailingComma;
    if (argumentCount < (READERS[reader] ?? 0)) {
      casts.push({ reader, line: text.slice(0, match.index).split('\n').length });
    }
  }
  return casts;
}

/** The files that may read raw rows: sources of src, scripts and bench, tests left out. */
export function castSources(): SourceFile[] {
  return ['src', 'scripts', 'bench']
    .flatMap((root) => projectSources(root))
    .filter((file) => !/\.test\.tsx?$/.test(file.path) && !file.path.startsWith('src/server/test/'));
}

/** Each file's count of casts, files with none left out, by path. */
export function castCounts(files: readonly SourceFile[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const file of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    const count = castsIn(file.text).length;
    if (count > 0) counts[file.path] = count;
  }
  return counts;
}

export function readBaseline(): Record<string, number> {
  return JSON.parse(readFileSync(BASELINE_PATH, 'utf8')) as Record<string, number>;
}

/** What differs from the baseline: a file with more casts than allowed, or fewer than recorded. */
export function castViolations(
  counts: Record<string, number>,
  baseline: Record<string, number>,
): { more: string[]; fewer: string[] } {
  const more: string[] = [];
  const fewer: string[] = [];
  for (const path of new Set([...Object.keys(counts), ...Object.keys(baseline)])) {
    const [now, allowed] = [counts[path] ?? 0, baseline[path] ?? 0];
    if (now > allowed) {
      more.push(`${path}: ${now} raw row casts, ${allowed} allowed: give the new read its zod row schema`);
    } else if (now < allowed) {
      fewer.push(`${path}: ${now} raw row casts, the baseline says ${allowed}: lower it (--update)`);
    }
  }
  return { more, fewer };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const counts = castCounts(castSources());
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  if (process.argv.includes('--update')) {
    const { more } = castViolations(counts, readBaseline());
    for (const line of more) console.log(line);
    if (more.length > 0) process.exit(1);
    writeFileSync(BASELINE_PATH, `${JSON.stringify(counts, null, 2)}\n`);
    console.log(`Baseline written: ${total} raw row casts in ${Object.keys(counts).length} files.`);
  } else {
    const { more, fewer } = castViolations(counts, readBaseline());
    for (const line of [...more, ...fewer]) console.log(line);
    console.log(`${total} raw row casts in ${Object.keys(counts).length} files.`);
    process.exit(more.length + fewer.length === 0 ? 0 : 1);
  }
}
