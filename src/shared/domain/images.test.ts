import { describe, expect, it } from 'vitest';
import { IMAGE_FORMATS, IMAGE_FORMATS_TEXT, IMAGE_SIGNATURE_BYTES, imageFormatOf } from './images';

const bytesOf = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((part) => (typeof part === 'string' ? [...part].map((c) => c.charCodeAt(0)) : part)),
  );

describe('image formats by their first bytes', () => {
  it('knows JPG, PNG, GIF and WebP by their magic numbers', () => {
    expect(imageFormatOf(bytesOf([0xff, 0xd8, 0xff, 0xe1]))?.label).toBe('JPG');
    expect(imageFormatOf(bytesOf([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]))?.label).toBe('PNG');
    expect(imageFormatOf(bytesOf('GIF87a'))?.label).toBe('GIF');
    expect(imageFormatOf(bytesOf('GIF89a'))?.label).toBe('GIF');
    expect(imageFormatOf(bytesOf('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '))?.label).toBe('WebP');
  });

  it('knows nothing else: text, SVG, a WAV (RIFF too), a truncated signature, nothing', () => {
    for (const bytes of [
      bytesOf('esto no es una imagen'),
      bytesOf('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      bytesOf('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '),
      bytesOf([0x89], 'PN'),
      bytesOf('GIF8'),
      bytesOf(),
    ]) {
      expect(imageFormatOf(bytes)).toBeNull();
    }
  });

  it('needs no more than IMAGE_SIGNATURE_BYTES, and says what is taken in Spanish', () => {
    expect(
      imageFormatOf(bytesOf('RIFF', [0x24, 0, 0, 0], 'WEBP').slice(0, IMAGE_SIGNATURE_BYTES))?.label,
    ).toBe('WebP');
    expect(IMAGE_FORMATS.map((format) => format.label)).toEqual(['JPG', 'PNG', 'GIF', 'WebP']);
    expect(IMAGE_FORMATS_TEXT).toBe('JPG, PNG, GIF o WebP');
  });
});
