import { describe, expect, it } from 'vitest';
import { unsafeTextPath } from './text-safety';

describe('unsafeTextPath', () => {
  it('names the first unsafe string or key, nested in objects and arrays', () => {
    expect(unsafeTextPath({ firstName: 'Ana', items: [{ name: 'ok' }, { name: 'a\u0000b' }] })).toBe(
      'items.1.name',
    );
    expect(unsafeTextPath({ search: '\uD800x' }, 'query')).toBe('query.search');
    expect(unsafeTextPath({ 'bad\u0000key': 1 })).toBe('_');
    expect(unsafeTextPath({ firstName: 'Ana', tags: ['a', 'ñandú'] })).toBeNull();
  });

  it('skips binary bodies (an uploaded image) instead of walking their bytes', () => {
    // Two megabytes of zeros: as an object, two million entries each a NUL-free number.
    const image = Buffer.alloc(2 * 1024 * 1024);
    const started = performance.now();
    expect(unsafeTextPath(image)).toBeNull();
    expect(unsafeTextPath(new Uint8Array(image))).toBeNull();
    expect(unsafeTextPath(new DataView(image.buffer))).toBeNull();
    expect(unsafeTextPath(image.buffer)).toBeNull();
    expect(unsafeTextPath({ body: image })).toBeNull();
    expect(performance.now() - started).toBeLessThan(200);
  });
});
