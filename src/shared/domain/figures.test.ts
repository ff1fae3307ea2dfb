import { describe, expect, it } from 'vitest';
import { countsInFigures, LIVE_TOTALS_LABEL, reservationState } from './figures';

describe('one meaning of rescinded', () => {
  it('names a reservation Vigente or Resciliada and counts only the live ones', () => {
    expect(reservationState({ isRescinded: false })).toBe('Vigente');
    expect(reservationState({ isRescinded: true })).toBe('Resciliada');
    const rows = [{ isRescinded: false }, { isRescinded: true }, { isRescinded: false }];
    expect(rows.filter(countsInFigures)).toHaveLength(2);
    expect(LIVE_TOTALS_LABEL).toBe('Totales (excluye resciliadas)');
  });
});
