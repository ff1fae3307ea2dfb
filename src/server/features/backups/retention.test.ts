import { afterEach, describe, expect, it, vi } from 'vitest';
import { scheduleNightlyBackups } from './backup-schedule';
import type { EmbeddedBackups } from './backups.service';
import { type BackupEntry, removedAtNextNightly } from './backups.service';
import { backupsToPrune } from './retention';

const DAY = 86_400_000;

/** One backup a night at 03:00 Santiago (06:00 UTC in winter, 06:00/07:00…) for `days` nights. */
function nightly(until: Date, days: number) {
  return Array.from({ length: days }, (_, i) => {
    const at = new Date(until.getTime() - i * DAY);
    return { name: `b-${at.toISOString()}`, createdAt: at.toISOString() };
  });
}

describe('retention (7 daily, 4 weekly, 12 monthly by default)', () => {
  it('keeps a manual backup until the next nightly one, and says which backups that night removes (issue 57)', () => {
    const policy = { daily: 7, weekly: 4, monthly: 12 };
    const entry = (createdAt: string, kind: BackupEntry['kind']): BackupEntry => ({
      name: `${kind}-${createdAt}`,
      createdAt,
      kind,
      bytes: 1,
      encrypted: false,
      schema: { migrations: 1, last: null },
    });
    const lastNight = entry('2026-11-26T06:00:00.000Z', 'nightly');
    const morning = entry('2026-11-26T13:00:00.000Z', 'manual');
    const afternoon = entry('2026-11-26T18:00:00.000Z', 'manual');
    // Two manual backups on one day: the second does not delete the first (the day's nightly one is
    // replaced by the newer copy, as before).
    expect(backupsToPrune([afternoon, morning, lastNight], policy)).toEqual([lastNight]);
    // The next night's backup keeps the day's newest: the morning's and the night's go, said ahead.
    const doomed = removedAtNextNightly(
      [afternoon, morning, lastNight],
      policy,
      new Date('2026-11-26T19:00:00Z'),
    );
    expect([...doomed].sort()).toEqual([lastNight.name, morning.name].sort());
  });

  it('keeps the newest of each of the last 7 days, 4 weeks and 12 months after a year and a half of nightly backups', () => {
    const now = new Date('2026-11-26T06:00:00Z');
    const all = nightly(now, 540);
    const pruned = new Set(backupsToPrune(all, { daily: 7, weekly: 4, monthly: 12 }).map((b) => b.name));
    const kept = all
      .filter((backup) => !pruned.has(backup.name))
      .map((backup) => backup.createdAt.slice(0, 10));
    // The last 7 nights.
    expect(kept.slice(0, 7)).toEqual([
      '2026-11-26',
      '2026-11-25',
      '2026-11-24',
      '2026-11-23',
      '2026-11-22',
      '2026-11-21',
      '2026-11-20',
    ]);
    // Sundays of the weeks before (the newest of each ISO week), then month ends back to a year.
    expect(kept.slice(7)).toEqual([
      '2026-11-15',
      '2026-11-08',
      '2026-10-31',
      '2026-09-30',
      '2026-08-31',
      '2026-07-31',
      '2026-06-30',
      '2026-05-31',
      '2026-04-30',
      '2026-03-31',
      '2026-02-28',
      '2026-01-31',
      '2025-12-31',
    ]);
    expect(kept).toHaveLength(20);
  });

  it('counts days on the Santiago calendar, not UTC', () => {
    // 02:00 UTC on 1 March is still 28 February in Santiago: the two are one day, the older pruned.
    const backups = [
      { name: 'late', createdAt: '2026-03-01T02:00:00.000Z' },
      { name: 'early', createdAt: '2026-02-28T12:00:00.000Z' },
    ];
    expect(backupsToPrune(backups, { daily: 7, weekly: 0, monthly: 0 }).map((b) => b.name)).toEqual([
      'early',
    ]);
  });

  it('follows the configured counts and always keeps the newest', () => {
    const now = new Date('2026-11-26T06:00:00Z');
    const all = nightly(now, 30);
    const kept = (policy: { daily: number; weekly: number; monthly: number }) =>
      all.length - backupsToPrune(all, policy).length;
    expect(kept({ daily: 3, weekly: 0, monthly: 0 })).toBe(3);
    expect(kept({ daily: 1, weekly: 0, monthly: 0 })).toBe(1);
    expect(backupsToPrune(all, { daily: 1, weekly: 0, monthly: 0 }).map((b) => b.name)).not.toContain(
      all[0]!.name,
    );
    // Several backups on one day (manual, before a migration): one is kept for that day.
    const sameDay = [
      { name: 'manual', createdAt: '2026-11-26T15:00:00.000Z' },
      { name: 'nightly', createdAt: '2026-11-26T06:00:00.000Z' },
    ];
    expect(backupsToPrune(sameDay, { daily: 7, weekly: 4, monthly: 12 }).map((b) => b.name)).toEqual([
      'nightly',
    ]);
  });
});

describe('the nightly schedule', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes a backup at 03:00 in Santiago every night, on a fake clock', async () => {
    vi.useFakeTimers();
    // 22:00 in Santiago (UTC-3 in summer).
    vi.setSystemTime(new Date('2026-11-26T01:00:00Z'));
    const taken: [string, string][] = [];
    const backups = {
      create: async (kind: string, at: Date) => {
        taken.push([kind, at.toISOString()]);
        return {} as never;
      },
    } as unknown as EmbeddedBackups;
    const stop = scheduleNightlyBackups(backups, { info() {}, error() {} });
    await vi.advanceTimersByTimeAsync(4 * 3_600_000 + 59 * 60_000);
    expect(taken).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(taken).toEqual([['nightly', '2026-11-26T06:00:00.000Z']]);
    await vi.advanceTimersByTimeAsync(24 * 3_600_000);
    expect(taken.map(([, at]) => at)).toEqual(['2026-11-26T06:00:00.000Z', '2026-11-27T06:00:00.000Z']);
    stop();
    await vi.advanceTimersByTimeAsync(48 * 3_600_000);
    expect(taken).toHaveLength(2);
  });
});
