import { describe, expect, it } from 'vitest';
import { fileSubjectKeys, hashSubjects, holderSubjectKeys, namesAny, subjectKeysIn } from './file-subjects';

describe('whom an import file names (issue 54, decision 0062)', () => {
  it('finds valid RUTs however written and e-mail addresses, and nothing else', () => {
    const keys = subjectKeysIn(
      'RUT;Correo\n12.345.678-5;ANA.Rojas@Buzon.cl\n7654321-6;x\n123456785;y\n' +
        '12.345.678-4;mal dígito\n912345678-5;demasiado largo\n1-9;corto\nsin@dominio\n',
    );
    expect([...keys].sort()).toEqual(['email:ana.rojas@buzon.cl', 'rut:12345678-5', 'rut:7654321-6']);
  });

  it('reads hostile text in one pass (no backtracking): a million @ and digits', () => {
    const text = `${'@'.repeat(500_000)}${'1'.repeat(500_000)} a@b.cl`;
    expect([...subjectKeysIn(text)]).toEqual(['email:a@b.cl']);
  });

  it('finds the holder by any of their keys under the run’s salt, and never another', async () => {
    const keys = await fileSubjectKeys(Buffer.from('RUT;Correo\r\n12.345.678-5;ana@buzon.cl\r\n'));
    const stored = await hashSubjects(keys);
    expect(stored.hashes.length).toBe(32);
    expect(namesAny(stored, holderSubjectKeys(['12.345.678-5', 'Ana Rojas']))).toBe(true);
    expect(namesAny(stored, holderSubjectKeys(['ANA@buzon.cl']))).toBe(true);
    expect(namesAny(stored, holderSubjectKeys(['7.654.321-6', 'otra@buzon.cl']))).toBe(false);
    // Another run's salt: the same person, other hashes.
    expect((await hashSubjects(keys)).hashes.equals(stored.hashes)).toBe(false);
  });

  it('keeps the hashes of many keys in byte order, each found by its binary search (sorted by buckets, decision 0077)', async () => {
    const keys = Array.from({ length: 5_000 }, (_, n) => `email:persona${n}@buzon.cl`);
    const stored = await hashSubjects(keys);
    expect(stored.hashes.length).toBe(5_000 * 16);
    for (let at = 16; at < stored.hashes.length; at += 16) {
      expect(Buffer.compare(stored.hashes.subarray(at - 16, at), stored.hashes.subarray(at, at + 16))).toBe(
        -1,
      );
    }
    for (const n of [0, 1, 2_500, 4_999]) expect(namesAny(stored, [`email:persona${n}@buzon.cl`])).toBe(true);
    expect(namesAny(stored, ['email:nadie@buzon.cl'])).toBe(false);
  });
});
