import { createHash } from 'node:crypto';

/**
 * Throttles failed sign-ins without letting a stranger lock an owner out (issue 8):
 * - only failures count (a successful sign-in never does, and clears its own e-mail + client key);
 * - failures are keyed on e-mail + client: ten wrong passwords from one machine stop that machine
 *   for that account, while the owner signs in from theirs;
 * - each client has a budget over all e-mails (password spraying from one address);
 * - each account has a ceiling of failures from everywhere (a distributed guess), far above what a
 *   person mistyping produces.
 * The counts live in the database (`login_failures`, one row per failure and counter; decision 0028;
 * self-registrations are counted there too, `registrationCounter`),
 * not in a process: every server instance behind a load balancer counts the same failures (DESIGN
 * §14: no instance keeps state another needs), and a restart forgets nothing. `auth.service` checks
 * an attempt before its password (one statement) and records a failure or a success after (one
 * statement each, which also deletes the rows no window counts any more). This file holds the rules'
 * pure parts: the counters an attempt is checked against, and how long a full one makes it wait.
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

/** The limits of the settings `LOGIN_MAX_ATTEMPTS` and `LOGIN_WINDOW_MINUTES`. */
export function loginThrottleLimits(login: { maxAttempts: number; windowMs: number }): LoginThrottleLimits {
  return {
    perClient: login.maxAttempts,
    windowMs: login.windowMs,
    perAddress: login.maxAttempts * 10,
    perAccountPerHour: 100,
  };
}

/** One count of failures: its key as stored, and how many failures it allows within how long. */
export interface FailureCounter {
  key: string;
  max: number;
  windowMs: number;
}

/**
 * The counters an attempt is checked against and a failure counts toward; `client` (e-mail + client)
 * is the one a success clears. A key is the SHA-256 of the counter's kind and values: the table never
 * holds an e-mail a stranger typed nor an address, and every key has the same length.
 */
export function loginCounters(
  limits: LoginThrottleLimits,
  email: string,
  address: string,
): { client: FailureCounter; address: FailureCounter; account: FailureCounter } {
  const account = email.trim().toLowerCase();
  return {
    client: { key: keyOf('client', account, address), max: limits.perClient, windowMs: limits.windowMs },
    address: { key: keyOf('address', address), max: limits.perAddress, windowMs: limits.windowMs },
    account: { key: keyOf('account', account), max: limits.perAccountPerHour, windowMs: HOUR_MS },
  };
}

/**
 * Self-registrations per client address within an hour (`REGISTER_MAX_PER_HOUR`): an open
 * registration is not an account factory. Counted in the same table as failed sign-ins (every
 * attempt counts, accepted or not), under a key of its own kind, so every instance sees it too.
 */
export function registrationCounter(maxPerHour: number, address: string): FailureCounter {
  return { key: keyOf('register', address), max: maxPerHour, windowMs: HOUR_MS };
}

/** How long a failure may count: older rows are deleted (the longest window). */
export function failureRetentionMs(limits: LoginThrottleLimits): number {
  return Math.max(limits.windowMs, HOUR_MS);
}

/**
 * Seconds until a counter lets an attempt through again; 0 when it may go now. `limiting` is the
 * counter's `max`-th most recent failure within its window (null when it holds fewer): the attempt
 * may go once that one leaves the window. At least 1 second when it must wait.
 */
export function waitSeconds(limiting: Date | null, windowMs: number, now: Date): number {
  if (!limiting) return 0;
  return Math.max(1, Math.ceil((limiting.getTime() + windowMs - now.getTime()) / 1000));
}

function keyOf(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}
