import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holderNeedles, REDACTED_TEXT, redactText } from './privacy';

const holder = {
  rut: '12345678-5',
  firstName: 'Eulalia',
  lastName: 'Quiroga Sáez',
  birthDate: '1987-09-14',
  phone: '+56 9 8765 4321',
  email: 'eulalia.q@correo.cl',
};

describe('what a suppression looks for', () => {
  it('finds every way the holder is written: RUT with and without dots, dates as typed, phone digits, folded', () => {
    const { own, global } = holderNeedles(holder);
    expect(own).toEqual(
      expect.arrayContaining([
        'eulalia quiroga saez',
        '12345678-5',
        '12.345.678-5',
        '123456785',
        'eulalia.q@correo.cl',
        '+56 9 8765 4321',
        '56987654321',
        '87654321',
        'eulalia',
        'quiroga saez',
        '1987-09-14',
        '14/09/1987',
      ]),
    );
    // Elsewhere only what names the holder unambiguously: never a first name or a date alone.
    expect(global).not.toContain('eulalia');
    expect(global).not.toContain('1987-09-14');
    expect(global).toContain('eulalia quiroga saez');
  });

  it('replaces whole words only, whatever the case and accents, and keeps the rest as written', () => {
    const { own } = holderNeedles({ ...holder, firstName: 'Ana', lastName: 'Pérez' });
    expect(redactText('Llamar a ANA PEREZ mañana; RUT 12.345.678-5', own)).toEqual({
      text: `Llamar a ${REDACTED_TEXT} mañana; RUT ${REDACTED_TEXT}`,
      changed: true,
    });
    expect(redactText('Revisar mañana la promesa', own)).toEqual({
      text: 'Revisar mañana la promesa',
      changed: false,
    });
  });

  it('never leaves a needle behind, whatever text surrounds it', () => {
    const { own } = holderNeedles(holder);
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...own), fc.string(), (before, needle, after) => {
        const text = `${before} ${needle.toUpperCase()} ${after}`;
        const redacted = redactText(text, own).text.toLowerCase();
        const padded = ` ${redacted} `;
        expect(padded.includes(` ${needle} `)).toBe(false);
      }),
    );
  });
});
