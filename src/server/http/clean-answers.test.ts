import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCleanText, stripUnseen } from '../../shared/text-safety';
import { loginAs, useTestApp } from '../test/app';
import { createClient } from '../test/builders';
import { cleanAnswerJson } from './clean-answers';

describe('answers without unseen characters (decision 0058)', () => {
  it('any value: the cleaned JSON parses to the same value with every string stripped, line breaks kept', () => {
    const strip = (value: unknown): unknown => {
      if (typeof value === 'string') return stripUnseen(value, { lines: true });
      if (Array.isArray(value)) return value.map(strip);
      if (value && typeof value === 'object')
        return Object.fromEntries(
          Object.entries(value).map(([key, inner]) => [stripUnseen(key, { lines: true }), strip(inner)]),
        );
      return value;
    };
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 2 }),
        fc.string({ unit: 'binary', maxLength: 30 }),
        (value, text) => {
          const answer = { value, text, nested: [text, { text }] };
          const cleaned = JSON.parse(cleanAnswerJson(JSON.stringify(answer)));
          // Through JSON as the answer goes (-0 is written '0'): only the stripping may differ.
          expect(cleaned).toEqual(JSON.parse(JSON.stringify(strip(answer))));
          expect(isCleanText(cleaned.text.replace(/[\uD800-\uDFFF]/g, ''))).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
    expect(cleanAnswerJson(JSON.stringify({ path: 'C:\\bf\\u0007', name: 'Ana\r\nMaría\u202e' }))).toBe(
      JSON.stringify({ path: 'C:\\bf\\u0007', name: 'Ana\r\nMaría' }),
    );
  });

  const ctx = useTestApp();

  it('a client stored with a right-to-left override before the rule is shown without it', async () => {
    const admin = await loginAs(ctx);
    const client = await createClient(ctx.db, {
      firstName: 'Romero\u202e& Asociados',
      lastName: 'Ana\u0007',
    });
    const answer = await admin.get(`/api/clients/${client.id}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().client).toMatchObject({ firstName: 'Romero& Asociados', lastName: 'Ana' });
  });
});
