import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConnectionMonitor } from './connection';

describe('the connection monitor', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('goes offline at the first failure and probes with backoff, one probe at a time', async () => {
    const probe = vi.fn(async () => false);
    const monitor = createConnectionMonitor(probe);
    const changes: string[] = [];
    monitor.subscribe(() => changes.push(monitor.state()));
    // A burst of failed requests: one state change, one probe schedule.
    for (let i = 0; i < 50; i++) monitor.reportFailure();
    expect(monitor.state()).toBe('offline');
    expect(changes).toEqual(['offline']);
    const probeTimes: number[] = [];
    probe.mockImplementation(async () => {
      probeTimes.push(Date.now());
      return false;
    });
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(probeTimes.map((time) => time - start)).toEqual([1_000, 3_000, 8_000, 18_000, 28_000]);
  });

  it('comes back on the first answer, reloads once and releases whoever waited', async () => {
    let up = false;
    const monitor = createConnectionMonitor(async () => up);
    const restored = vi.fn();
    monitor.onRestored(restored);
    monitor.reportFailure();
    const waiting = monitor.whenOnline();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(monitor.state()).toBe('offline');
    up = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(monitor.state()).toBe('online');
    expect(restored).toHaveBeenCalledTimes(1);
    await expect(waiting).resolves.toBeUndefined();
    // Any answer while offline ends the outage too, and the backoff starts over next time.
    monitor.reportFailure();
    monitor.reportAnswer();
    expect(monitor.state()).toBe('online');
    expect(restored).toHaveBeenCalledTimes(2);
  });
});
