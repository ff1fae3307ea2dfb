import { existsSync } from 'node:fs';
import { z } from 'zod';
import { isValidSmtpUrl } from './features/mail/smtp-url';

const booleanish = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

/** Every setting of the server. None is required locally; see .env.example and the README. */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** PostgreSQL connection string; when unset the embedded database in DATA_DIR is used. */
  DATABASE_URL: z.string().url().optional(),
  /** The embedded database (with the uploaded images, decision 0016) and its lock live here. */
  DATA_DIR: z.string().default('./data'),
  /** Who may self-register: everyone, only the very first user, or nobody. */
  REGISTRATION: z.enum(['open', 'first-user', 'closed']).default('first-user'),
  SESSION_IDLE_HOURS: z.coerce.number().positive().default(8),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().positive().default(7),
  /** Comma-separated origins allowed to send state-changing requests (besides the app's own host). */
  ALLOWED_ORIGINS: z.string().default(''),
  /** Secure cookie with the __Host- prefix; defaults to on in production (requires HTTPS). */
  COOKIE_SECURE: booleanish.optional(),
  /** Trust X-Forwarded-* headers (set when running behind a reverse proxy). */
  TRUST_PROXY: booleanish.default(false),
  LOGIN_MAX_ATTEMPTS: z.coerce.number().int().positive().default(10),
  LOGIN_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  /** Self-registrations per client address per hour. */
  REGISTER_MAX_PER_HOUR: z.coerce.number().int().positive().default(10),
  /**
   * A request (headers and body) must arrive within this many seconds, and a connection that sends
   * and receives nothing for IDLE_TIMEOUT_SECONDS is closed: uploads that trickle are cut off
   * (issue 52, decision 0050).
   */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(120),
  IDLE_TIMEOUT_SECONDS: z.coerce.number().positive().default(90),
  /**
   * Open connections one client address may hold (decision 0062); beyond them a new one is closed at
   * once. Generous, for an office behind one NAT address; unset, 1000 — or no cap with TRUST_PROXY
   * (behind a reverse proxy every connection comes from the proxy). 0 turns it off.
   */
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).optional(),
  /**
   * E-mail notices (decision 0035): the SMTP server ('smtp://user:password@host:587',
   * 'smtps://…:465'); unset, each message is written as an .eml file under DATA_DIR/mail.
   */
  SMTP_URL: z
    .string()
    .refine(isValidSmtpUrl, {
      error: 'must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:password@mail.example.cl:587',
    })
    .optional(),
  /** The sender of the notices. */
  MAIL_FROM: z.string().default('Inmoflujo <no-reply@inmoflujo.local>'),
  /** The app's public address: the links of the notices lead there. */
  APP_URL: z.string().url().default('http://localhost:3000'),
  /** Backups of the embedded database (decision 0031); default `<DATA_DIR>/backups` — put it on another disk. */
  BACKUP_DIR: z.string().optional(),
  /** When set, backups are encrypted (AES-256-GCM) with a key derived from it; restore needs it. */
  BACKUP_KEY: z.string().optional(),
  /** Retention: the newest backup of each of the last N days, ISO weeks and months. */
  BACKUP_KEEP_DAILY: z.coerce.number().int().min(1).default(7),
  BACKUP_KEEP_WEEKLY: z.coerce.number().int().min(0).default(4),
  BACKUP_KEEP_MONTHLY: z.coerce.number().int().min(0).default(12),
  /** The daily UF fetch (decision 0034): off unless set — an API key of the CMF (api.cmfchile.cl). */
  UF_API_KEY: z.string().optional(),
  /** Where the fetch asks: the CMF's UF resource by default. */
  UF_API_URL: z.string().url().default('https://api.cmfchile.cl/api-sbifv3/recursos_api/uf'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof envSchema>;

/**
 * The `.env` file of the working directory (`npm` runs every script from the project's), when there is
 * one, read into process.env by Node's own loader: a variable the environment already sets, even
 * empty, wins over the file's. Every entry point reads its settings through `loadEnv()`, so each
 * reads the file; a record passed to `loadEnv` (a test's) is taken as it is.
 */
export function readDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}

/**
 * Parses process.env (after `.env`, `readDotEnv`) or a given record; throws a readable error listing
 * every bad variable.
 */
export function loadEnv(source?: Record<string, string | undefined>): Env {
  if (source === undefined) readDotEnv();
  const cleaned = Object.fromEntries(
    Object.entries(source ?? process.env).filter(([, value]) => value !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  }
  return parsed.data;
}

export function cookieSecure(env: Env): boolean {
  return env.COOKIE_SECURE ?? env.NODE_ENV === 'production';
}
