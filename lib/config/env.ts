import { z } from 'zod';
import { SECRET_KEY_PATTERN } from '../contract/api-keys';

/**
 * Every setting the app reads, validated once. A bad value stops start-up with a
 * message naming the variable, rather than failing later in a request.
 */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const opt = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());
const withDefault = <T extends z.ZodType>(schema: T, fallback: z.input<T>) =>
  // prefault: the default goes through the schema too (its transform), as a value from the environment would.
  z.preprocess(blankToUndefined, schema.prefault(fallback as never));

export { SECRET_KEY_PATTERN };

const envSchema = z.object({
  NODE_ENV: withDefault(z.enum(['development', 'production', 'test']), 'development'),
  PORT: withDefault(z.coerce.number().int().min(1).max(65535), 3000),
  /** Address to listen on: loopback unless set (0.0.0.0 for every interface). */
  HOST: withDefault(z.string().min(1), '127.0.0.1'),
  /** SIGTERM: how long requests in flight may take to finish before their connections are closed. */
  SHUTDOWN_GRACE_SECONDS: withDefault(z.coerce.number().min(0).max(600), 10),
  /**
   * SIGTERM: a keep-alive connection with no request is closed once idle this long (longer than a
   * busy client's gap between requests; the grace period bounds it); one with a request is
   * answered with Connection: close. Closing sooner would race a request already on the wire.
   */
  SHUTDOWN_DRAIN_SECONDS: withDefault(z.coerce.number().min(0).max(600), 2),
  /** Bearer token for GET /metrics (Prometheus); /metrics is not served without one. */
  METRICS_TOKEN: opt(z.string().min(16, 'must be at least 16 characters')),
  /** Folder of the embedded PGlite database (ignored when DATABASE_URL is set). */
  DATA_DIR: withDefault(z.string(), './.data'),
  /** postgres://... switches from embedded PGlite to a real PostgreSQL server. */
  DATABASE_URL: opt(z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')),
  /**
   * `transaction`: DATABASE_URL points at a pooler in transaction mode (PgBouncer); the connection
   * limits go into each transaction instead of the session (lib/db/postgres-db.ts).
   */
  DATABASE_POOLER: withDefault(z.enum(['none', 'transaction']), 'none'),
  /** Behind a pooler: a direct PostgreSQL URL for the migrations at start-up (optional). */
  DATABASE_DIRECT_URL: opt(z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')),
  DATABASE_POOL_SIZE: withDefault(z.coerce.number().int().min(1).max(200), 10),
  /** PostgreSQL: longest wait for a pooled connection before a request gets 503. */
  DATABASE_CONNECT_TIMEOUT_MS: withDefault(z.coerce.number().int().min(100).max(120_000), 5_000),
  /** PostgreSQL: longest any statement may run (statement_timeout). */
  DATABASE_STATEMENT_TIMEOUT_MS: withDefault(z.coerce.number().int().min(100).max(600_000), 15_000),
  /** PostgreSQL: a transaction idle this long is ended by the server (idle_in_transaction_session_timeout). */
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: withDefault(z.coerce.number().int().min(100).max(600_000), 30_000),
  /** Fixes the demo merchant's key on first start (tests, scripted demos). */
  DEMO_SECRET_KEY: opt(z.string().regex(SECRET_KEY_PATTERN, 'must be sk_test_ followed by at least 32 letters or digits')),
  IDEMPOTENCY_KEY_TTL_SECONDS: withDefault(z.coerce.number().int().min(1), 86_400),
  /** How long a duplicate waits for the original request before 409. */
  IDEMPOTENCY_WAIT_SECONDS: withDefault(z.coerce.number().min(0.1).max(60), 5),
  /** Concurrent withdrawals are committed together, one transaction per group; false: one transaction each. */
  WITHDRAW_GROUP_COMMIT: withDefault(
    z.enum(['true', 'false']).transform((v) => v === 'true'),
    'true',
  ),
  SETTLEMENT_DELAY_SECONDS: withDefault(z.coerce.number().min(0).max(86_400), 3),
  /** `auto`: the app ANALYZEs its tables where no autovacuum daemon does (lib/db/table-statistics.ts); `off`: someone else's job. */
  TABLE_STATISTICS: withDefault(z.enum(['auto', 'off']), 'auto'),
  /** An unapproved payout expires (money back to available) this long after it was made; 7 days by default. */
  PAYOUT_APPROVAL_EXPIRY_SECONDS: withDefault(
    z.coerce
      .number()
      .int()
      .min(1)
      .max(90 * 86_400),
    7 * 86_400,
  ),
  /** Live sandboxes one merchant may have at once (create_sandbox past it: 400 sandbox_limit). */
  SANDBOX_LIMIT: withDefault(z.coerce.number().int().min(0).max(100_000), 200),
  /** Proxies in front of the app whose X-Forwarded-For entries are believed; 0 uses the socket's address. */
  TRUSTED_PROXY_HOPS: withDefault(z.coerce.number().int().min(0).max(10), 0),
  /** Failed authentications allowed per client address per minute before 429. */
  AUTH_FAILURES_PER_MINUTE: withDefault(z.coerce.number().int().min(1), 20),
  /**
   * Seals the console's session cookie: one secret, or several comma-separated (newest first) to rotate.
   * Generated into DATA_DIR when unset on the embedded store; required with DATABASE_URL or CONSOLE_DATABASE_URL.
   */
  SESSION_SECRET: opt(
    z.string().refine((v) => v.split(',').every((s) => s.trim().length >= 32), {
      error: 'every secret must be at least 32 characters (several, comma-separated, newest first, for rotation)',
    }),
  ),
  /** Where the console calls the payment API; this app's own /v1/index.php when unset. Never chosen by the browser. */
  PAYMENT_API_BASE_URL: opt(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })),
  /** Console-only processes (PAYMENT_API_BASE_URL set): a PostgreSQL database of the console's own, instead of DATABASE_URL / DATA_DIR. */
  CONSOLE_DATABASE_URL: opt(z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')),
  /** Public origin of this app for links the API hands out (checkout URLs); the request's own origin when unset. */
  PUBLIC_BASE_URL: opt(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })),
  /**
   * Without PUBLIC_BASE_URL, links are built from the request's Host only when it is a loopback
   * address or the listening one: these host names (`name` or `name:port`, comma-separated) too.
   */
  ALLOWED_HOSTS: withDefault(
    z
      .string()
      .regex(
        /^(\s*[A-Za-z0-9.\-\[\]:]+(\s*,\s*[A-Za-z0-9.\-\[\]:]+)*\s*)?$/,
        'must be comma-separated host names, e.g. pay.internal,pay.internal:8080',
      )
      .transform((v) =>
        v
          .split(',')
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean),
      ),
    '',
  ),
  /** Per-attempt timeout of the console's calls to the payment API. */
  PAYMENT_API_TIMEOUT_MS: withDefault(z.coerce.number().int().min(100).max(120_000), 8_000),
  /**
   * Seals webhook signing secrets in the database: base64 of 32 bytes, several
   * comma-separated (newest first) to rotate. Generated into DATA_DIR when unset on
   * the embedded database; required with DATABASE_URL (every instance must share it).
   */
  SECRETS_ENCRYPTION_KEY: opt(
    z.string().refine((v) => v.split(',').every((k) => Buffer.from(k.trim(), 'base64').length === 32), {
      error: 'every key must be the base64 of 32 bytes (openssl rand -base64 32); several comma-separated, newest first',
    }),
  ),
  /** A webhook attempt that has no answer in this time has failed. */
  WEBHOOK_TIMEOUT_SECONDS: withDefault(z.coerce.number().min(0.1).max(60), 10),
  /** Waits between attempts after the immediate first one (Standard Webhooks' schedule by default). */
  WEBHOOK_RETRY_DELAYS_SECONDS: withDefault(
    z
      .string()
      .regex(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/, 'must be comma-separated seconds, e.g. 5,300,1800')
      .transform((v) => v.split(',').map(Number)),
    '5,300,1800,7200,18000,36000,50400,72000,86400',
  ),
  /** Lets webhook endpoints resolve to private network addresses (10/8, 172.16/12, 192.168/16, fc00::/7). Link-local never. */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: withDefault(
    z.enum(['true', 'false']).transform((v) => v === 'true'),
    'false',
  ),
  /** The request log (list_requests) keeps each call this long; 0 keeps none. */
  REQUEST_LOG_RETENTION_DAYS: withDefault(z.coerce.number().int().min(0).max(3650), 30),
  /** Events (and their deliveries) are kept this long, then purged. */
  EVENT_RETENTION_DAYS: withDefault(z.coerce.number().int().min(1).max(3650), 30),
  /** Webhook attempts in flight per process. */
  WEBHOOK_CONCURRENCY: withDefault(z.coerce.number().int().min(1).max(256), 32),
  LOG_LEVEL: withDefault(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
});

export type Env = z.infer<typeof envSchema>;

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

/** Links and cookies go over TLS: the public address is https. */
export const servedOverHttps = (settings: Pick<Env, 'PUBLIC_BASE_URL'>) => settings.PUBLIC_BASE_URL?.startsWith('https://') ?? false;

/**
 * Settings that are wrong together. In production on a reachable address, links
 * built from the request's Host header would be cleartext (or someone else's
 * host): an https PUBLIC_BASE_URL is required there.
 */
function crossCheck(settings: Env): string[] {
  const problems: string[] = [];
  if (settings.NODE_ENV === 'production' && !isLoopback(settings.HOST) && !servedOverHttps(settings)) {
    problems.push(
      `  PUBLIC_BASE_URL: must be an https:// URL when NODE_ENV=production and HOST=${settings.HOST} is not a loopback address (checkout links are built from it)`,
    );
  }
  return problems;
}

export class ConfigError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (result.success) {
    const problems = crossCheck(result.data);
    if (problems.length === 0) return result.data;
    throw new ConfigError(`Invalid environment settings:\n${problems.join('\n')}`);
  }
  const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new ConfigError(`Invalid environment settings:\n${lines.join('\n')}`);
}

let cached: Env | undefined;

/** The process's settings, parsed on first use and then kept. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
