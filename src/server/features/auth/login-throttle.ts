/**
 * Throttles failed sign-ins without letting a stranger lock an owner out (issue 8):
 * - only failures count (a successful sign-in never does, and clears its own e-mail + client key);
 * - failures are keyed on e-mail + client: ten wrong passwords from one machine stop that machine
 *   for that account, while the owner signs in from theirs;
 * - each client has a budget over all e-mails (password spraying from one address);
 * - each account has a ceiling of failures from everywhere (a distributed guess), far above what a
 *   person mistyping produces.
 * Kept in memory: a restart forgets, which errs toward letting people in (sessions and passwords
 * are the real protection; this only slows guessing).
 */
export interface LoginThrottleLimits {
  /** Failures per e-mail + client within the window. */
  perClient: number;
  windowMs: number;
  /** Failures per client over all e-mails within the window. */
  perAddress: number;
  /** Failures per e-mail from everywhere within an hour. */
  perAccountPerHour: number;
}

const HOUR_MS = 3_600_000;

class SlidingCounter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until the key may try again; 0 when it may now. */
  waitSeconds(key: string, now: number): number {
    const recent = this.recent(key, now);
    if (recent.length < this.max) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - this.max]! + this.windowMs - now) / 1000));
  }

  record(key: string, now: number): void {
    const recent = this.recent(key, now);
    recent.push(now);
    this.failures.set(key, recent);
    // Keep memory bounded under a flood of distinct keys: forget keys whose failures expired.
    if (this.failures.size > 50_000) {
      for (const [other, times] of this.failures) {
        if (times[times.length - 1]! <= now - this.windowMs) this.failures.delete(other);
      }
    }
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    const from = times.findIndex((time) => time > now - this.windowMs);
    return from === -1 ? [] : from === 0 ? times : times.slice(from);
  }
}

export class LoginThrottle {
  private readonly byClient: SlidingCounter;
  private readonly byAddress: SlidingCounter;
  private readonly byAccount: SlidingCounter;

  constructor(
    limits: LoginThrottleLimits,
    private readonly clock: () => number = Date.now,
  ) {
    this.byClient = new SlidingCounter(limits.perClient, limits.windowMs);
    this.byAddress = new SlidingCounter(limits.perAddress, limits.windowMs);
    this.byAccount = new SlidingCounter(limits.perAccountPerHour, HOUR_MS);
  }

  /** Seconds this attempt must wait (0: it may go ahead). */
  waitSeconds(email: string, address: string): number {
    const now = this.clock();
    return Math.max(
      this.byClient.waitSeconds(clientKey(email, address), now),
      this.byAddress.waitSeconds(address, now),
      this.byAccount.waitSeconds(accountKey(email), now),
    );
  }

  failed(email: string, address: string): void {
    const now = this.clock();
    this.byClient.record(clientKey(email, address), now);
    this.byAddress.record(address, now);
    this.byAccount.record(accountKey(email), now);
  }

  succeeded(email: string, address: string): void {
    this.byClient.clear(clientKey(email, address));
  }
}

const accountKey = (email: string) => email.trim().toLowerCase();
const clientKey = (email: string, address: string) => `${accountKey(email)}\u0001${address}`;
