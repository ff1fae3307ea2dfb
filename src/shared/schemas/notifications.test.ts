import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeInboxCursor, encodeInboxCursor, followUpQuery, notificationsQuery } from './notifications';

const cursor = fc.record({
  negStageOrder: fc.integer({ min: -1000, max: 1000 }),
  assignedAt: fc
    .date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2099-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .chain((date) =>
      fc
        .integer({ min: 0, max: 999 })
        .map((micros) => date.toISOString().replace('Z', `${String(micros).padStart(3, '0')}Z`)),
    ),
  flowId: fc.uuid(),
  negTaskOrder: fc.integer({ min: -1000, max: 1000 }),
  flowTaskId: fc.uuid(),
  userId: fc.uuid(),
});

describe('the inboxes’ page cursor', () => {
  it('reads back what it wrote, and is safe in an address', () => {
    fc.assert(
      fc.property(cursor, (value) => {
        const encoded = encodeInboxCursor(value);
        expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeInboxCursor(encoded)).toEqual(value);
      }),
    );
  });

  it('refuses anything else with the Spanish message, and a cursor without its stage', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const decoded = decodeInboxCursor(text);
        // Whatever decodes is a well-formed cursor (the server only ever compares it).
        if (decoded) expect(decodeInboxCursor(encodeInboxCursor(decoded))).toEqual(decoded);
      }),
    );
    const bad = notificationsQuery.safeParse({ stage: 'Reserva', after: 'no-es-un-cursor' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('La página pedida no es válida: vuelva a cargar la lista');
    const valid = encodeInboxCursor({
      negStageOrder: -2,
      assignedAt: '2026-03-01T12:00:00.123456Z',
      flowId: '00000000-0000-4000-8000-000000000003',
      negTaskOrder: -4,
      flowTaskId: '00000000-0000-4000-8000-000000000001',
      userId: '00000000-0000-4000-8000-000000000002',
    });
    const noStage = followUpQuery.safeParse({ after: valid });
    expect(noStage.success).toBe(false);
    expect(noStage.error?.issues[0]?.message).toBe('Indique la etapa de la página pedida');
    expect(followUpQuery.safeParse({ stage: 'Reserva', after: valid, userId: 'x' }).success).toBe(false);
    expect(followUpQuery.parse({ stage: 'Reserva', after: valid }).after?.negStageOrder).toBe(-2);
  });
});
