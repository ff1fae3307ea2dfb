import { describe, expect, it } from 'vitest';
import { readAmountText } from './amount-text';

const value = (text: string) => {
  const reading = readAmountText(text);
  return reading.ok ? reading.value : reading.reason;
};

describe('reading a pasted or typed amount', () => {
  it('reads both decimal marks when the reading is unambiguous', () => {
    expect(value('1.5')).toBe(1.5);
    expect(value('5000.5')).toBe(5000.5);
    expect(value('1234,5')).toBe(1234.5);
    expect(value('1.234,56')).toBe(1234.56);
    expect(value('1,234.56')).toBe(1234.56);
    expect(value('UF 2.965,07')).toBe(2965.07);
    expect(value('3000')).toBe(3000);
  });

  it('reads three-digit groups as thousands, as Chile writes them', () => {
    expect(value('1.234')).toBe(1234);
    expect(value('1.234.567')).toBe(1234567);
    expect(value('12,345,678')).toBe(12345678);
  });

  it('refuses what it cannot read without guessing, and negatives', () => {
    expect(value('-500')).toBe('negative');
    expect(value('1.2345')).toBe('too_many_decimals');
    expect(value('1,234,56')).toBe('unreadable');
    expect(value('12.34,5.6')).toBe('unreadable');
    expect(value('1.234,567')).toBe('too_many_decimals');
    expect(value('abc')).toBe('unreadable');
    expect(value('5.')).toBe('unreadable');
    expect(value('')).toBe('empty');
  });
});
