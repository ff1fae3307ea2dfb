import { describe, expect, it } from 'vitest';
import { isSearchable } from './global-search';

describe('global search', () => {
  it('needs three characters once trimmed', () => {
    expect(isSearchable('  ab  ')).toBe(false);
    expect(isSearchable(' abc')).toBe(true);
    expect(isSearchable('%%%')).toBe(true);
  });
});
