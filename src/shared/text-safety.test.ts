import { describe, expect, it, vi } from 'vitest';
import {
  inspectText,
  isCleanLine,
  isCleanText,
  MAX_NESTING_DEPTH,
  oneLine,
  stripUnseen,
} from './text-safety';

/** `levels` objects nested under the key 'a', the innermost holding `leaf`. */
function deepObject(levels: number, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
}

/** `levels` arrays nested, the innermost holding `leaf`. */
function deepArray(levels: number, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
}

describe('inspectText', () => {
  it('names the first unsafe string or key, nested in objects and arrays', () => {
    expect(inspectText({ firstName: 'Ana', items: [{ name: 'ok' }, { name: 'a\u0000b' }] })).toEqual({
      kind: 'unsafe-text',
      path: 'items.1.name',
    });
    expect(inspectText({ search: '\uD800x' }, { path: 'query' })).toEqual({
      kind: 'unsafe-text',
      path: 'query.search',
    });
    expect(inspectText({ 'bad\u0000key': 1 })).toEqual({ kind: 'unsafe-text', path: '_' });
    expect(inspectText({ items: [{ 'bad\u0000key': 1 }] })).toEqual({ kind: 'unsafe-text', path: 'items.0' });
    expect(inspectText({ firstName: 'Ana', tags: ['a', 'ñandú'] })).toBeNull();
    expect(inspectText('x\uDC00')).toEqual({ kind: 'unsafe-text', path: '' });
  });

  it('reports the first finding in document order, as a recursive walk would', () => {
    expect(inspectText({ a: [{ b: 'ok' }, { c: '\u0000' }], 'd\u0000': 'x', e: '\u0000' })).toEqual({
      kind: 'unsafe-text',
      path: 'a.1.c',
    });
    expect(inspectText({ a: { b: 'ok' }, 'd\u0000': { e: '\u0000' } })).toEqual({
      kind: 'unsafe-text',
      path: '_',
    });
  });

  it('skips binary bodies (an uploaded image) instead of walking their bytes', () => {
    // Two megabytes of zeros: as an object, two million entries each a NUL-free number.
    const image = Buffer.alloc(2 * 1024 * 1024);
    // Walking an object starts with its entries: none of a binary's is ever asked for (a count, not
    // a time: the walk of the bytes would have taken seconds).
    const entries = vi.spyOn(Object, 'entries');
    try {
      expect(inspectText(image)).toBeNull();
      expect(inspectText(new Uint8Array(image))).toBeNull();
      expect(inspectText(new DataView(image.buffer))).toBeNull();
      expect(inspectText(image.buffer)).toBeNull();
      expect(inspectText({ body: image })).toBeNull();
      const walked = entries.mock.calls.map(([value]) => value);
      expect(walked.some((value) => ArrayBuffer.isView(value) || value instanceof ArrayBuffer)).toBe(false);
      // At the depth limit a binary is skipped, not refused as one level too deep.
      expect(inspectText({ body: image }, { maxDepth: 1 })).toBeNull();
    } finally {
      entries.mockRestore();
    }
  });

  it('refuses nesting deeper than the limit without overflowing the call stack, objects or arrays', () => {
    for (const build of [deepObject, deepArray]) {
      expect(inspectText(build(MAX_NESTING_DEPTH, 1))).toBeNull();
      expect(inspectText(build(MAX_NESTING_DEPTH + 1, 1))).toEqual({ kind: 'too-deep' });
      // Far deeper than any call stack (a recursive walk overflowed at about 8,000 levels).
      for (const levels of [8_000, 100_000, 1_000_000]) {
        expect(inspectText(build(levels, 'x'))).toEqual({ kind: 'too-deep' });
      }
    }
    expect(inspectText(deepObject(5, 1), { maxDepth: 4 })).toEqual({ kind: 'too-deep' });
  });

  it('walks a body far deeper than the call stack when the limit allows it', () => {
    expect(inspectText(deepArray(200_000, 'x'), { maxDepth: Number.POSITIVE_INFINITY })).toBeNull();
    const found = inspectText(deepObject(200_000, 'x\u0000'), { maxDepth: Number.POSITIVE_INFINITY });
    expect(found?.kind === 'unsafe-text' && found.path.length).toBe(200_000 * 2 - 1);
  });

  it('still finds a NUL at depth 50, in objects and in arrays', () => {
    expect(inspectText(deepObject(50, 'a\u0000b'))).toEqual({
      kind: 'unsafe-text',
      path: Array.from({ length: 50 }, () => 'a').join('.'),
    });
    expect(inspectText(deepArray(50, 'a\u0000b'), { path: 'body' })).toEqual({
      kind: 'unsafe-text',
      path: ['body', ...Array.from({ length: 50 }, () => '0')].join('.'),
    });
    expect(inspectText(deepObject(50, { 'clave\u0000': 1 }))).toEqual({
      kind: 'unsafe-text',
      path: Array.from({ length: 50 }, () => 'a').join('.'),
    });
  });
});

describe('clean text (issue 52)', () => {
  const unseen = [
    '\u0000',
    '\u0007',
    '\t',
    '\n',
    '\r',
    '\u001b',
    '\u007f',
    '\u0085',
    '\u009f',
    '\u061c',
    '\u200e',
    '\u200f',
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\u2028',
    '\u2029',
    '\ufeff',
  ];

  it('one line refuses every control and bidirectional character; several lines keep tab and line breaks', () => {
    for (const character of unseen) {
      expect(isCleanLine(`Romero${character}Asociados`), JSON.stringify(character)).toBe(false);
      expect(isCleanText(`Romero${character}Asociados`), JSON.stringify(character)).toBe(
        ['\t', '\n', '\r'].includes(character),
      );
    }
    for (const text of [
      'Ñuñoa',
      'José Pérez-Cotapos',
      'عربي',
      'שלום',
      '👩‍👩‍👧',
      'E-101 / E-102',
      "O'Higgins",
    ]) {
      expect(isCleanLine(text)).toBe(true);
      expect(isCleanText(text)).toBe(true);
    }
    expect(isCleanText('Primera línea\r\nSegunda\tcolumna')).toBe(true);
    expect(isCleanLine('x\uD800')).toBe(false);
  });

  it('stored text is shown without them, and written on one line', () => {
    expect(stripUnseen('Romero\u202e& Asociados')).toBe('Romero& Asociados');
    expect(stripUnseen('factura\u202efdp.exe')).toBe('facturafdp.exe');
    expect(stripUnseen('Ana\r\nMaría')).toBe('AnaMaría');
    expect(stripUnseen('Nota\nsegunda\u202e línea', { lines: true })).toBe('Nota\nsegunda línea');
    expect(oneLine('Ana\r\nMaría\rJosé\nLuis\u2028Paz')).toBe('Ana / María / José / Luis / Paz');
    expect(oneLine('a\tb\u202ec')).toBe('a bc');
    expect(oneLine('Sin cambios')).toBe('Sin cambios');
  });
});
