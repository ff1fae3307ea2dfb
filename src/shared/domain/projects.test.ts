import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { santiagoDateOf } from '../format';
import { projectDelivery, projectInstallments } from './projects';

describe('projectInstallments', () => {
  it('is 1 once the deadline has passed, and on a deadline later this month', () => {
    expect(projectInstallments('2026-10-31', '2026-11-23')).toBe(1);
    expect(projectInstallments('2020-01-01', '2026-11-23')).toBe(1);
    expect(projectInstallments('2026-11-23', '2026-11-23')).toBe(1);
    expect(projectInstallments('2026-11-30', '2026-11-23')).toBe(1);
  });

  it('counts calendar months to the deadline plus one', () => {
    expect(projectInstallments('2026-12-01', '2026-11-23')).toBe(2);
    expect(projectInstallments('2027-03-10', '2026-11-23')).toBe(5);
    expect(projectInstallments('2027-11-01', '2026-11-30')).toBe(13);
  });

  it('reads today on the Santiago calendar at the month boundaries', () => {
    // 02:30 UTC on 1 December is still 30 November in Santiago (UTC-3 in summer).
    const lateEvening = new Date('2026-12-01T02:30:00Z');
    expect(santiagoDateOf(lateEvening)).toBe('2026-11-30');
    expect(projectInstallments('2026-12-15', santiagoDateOf(lateEvening))).toBe(2);
    // 03:30 UTC is already 1 December there.
    expect(projectInstallments('2026-12-15', santiagoDateOf(new Date('2026-12-01T03:30:00Z')))).toBe(1);
    // Winter (UTC-4): 03:30 UTC on 1 July is 30 June in Santiago.
    expect(projectInstallments('2027-07-20', santiagoDateOf(new Date('2027-07-01T03:30:00Z')))).toBe(2);
  });

  it('is at least 1 and grows by one per month of deadline', () => {
    const day = fc
      .date({
        min: new Date('2000-01-01T00:00:00Z'),
        max: new Date('2090-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, day, (deadline, today) => {
        const installments = projectInstallments(deadline, today);
        expect(installments).toBeGreaterThanOrEqual(1);
        if (deadline < today) expect(installments).toBe(1);
      }),
    );
  });
});

describe('projectDelivery', () => {
  it('is Inmediata once the deadline has passed, Futura until then', () => {
    expect(projectDelivery('2026-11-22', '2026-11-23')).toBe('Inmediata');
    expect(projectDelivery('2026-11-23', '2026-11-23')).toBe('Futura');
    expect(projectDelivery('2027-01-01', '2026-11-23')).toBe('Futura');
  });
});
