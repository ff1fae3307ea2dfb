import { describe, expect, it } from 'vitest';
import { foldForSearch, searchWords } from './search';

describe('search words', () => {
  it('folds accents and case the way the search_text columns do', () => {
    expect(foldForSearch('José ÑUÑOA Müller')).toBe('jose nunoa muller');
    expect(foldForSearch('ÁÉÍÓÚÜÑáéíóúüñ')).toBe('aeiouunaeiouun');
  });

  it('splits on white space, drops empties and duplicates', () => {
    expect(searchWords('  Juan   Pérez  ')).toEqual(['juan', 'perez']);
    expect(searchWords('juan JUAN')).toEqual(['juan']);
    expect(searchWords('')).toEqual([]);
    expect(searchWords('   ')).toEqual([]);
    expect(searchWords(undefined)).toEqual([]);
  });

  it('removes the dots of a RUT-looking word, and only of those', () => {
    expect(searchWords('12.345')).toEqual(['12345']);
    expect(searchWords('12.345.678-5')).toEqual(['12345678-5']);
    expect(searchWords('10.000.013-K')).toEqual(['10000013-k']);
    expect(searchWords('S.A. 5.5')).toEqual(['s.a.', '55']);
  });

  it('keeps any other character as typed (the server escapes LIKE wildcards)', () => {
    expect(searchWords("100% o'higgins_a\\b")).toEqual(['100%', "o'higgins_a\\b"]);
  });
});
