import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Paths that must never reach a log line, wherever a caller puts them. Values are
 * replaced, so a secret logged by mistake is still not written.
 */
export const REDACT_PATHS = [
  'secretKey',
  '*.secretKey',
  'secret_key',
  '*.secret_key',
  'key',
  '*.key',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'cookie',
  '*.cookie',
  'headers.cookie',
  'headers["set-cookie"]',
  'account_number',
  '*.account_number',
  'accountNumber',
  '*.accountNumber',
  'password',
  '*.password',
  'sessionSecret',
  '*.sessionSecret',
];

/**
 * What an error may not take into a log line: database drivers attach the SQL and
 * its parameters (PGlite: `query`, `params`) and row values (PostgreSQL's `detail`,
 * `where`), which can hold an account number or a key hash.
 */
const ERROR_FIELDS_NEVER_LOGGED = ['query', 'params', 'detail', 'where', 'internalQuery', 'parameters'];

function serializeError(error: unknown): unknown {
  const out = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  if (out && typeof out === 'object') {
    for (const field of ERROR_FIELDS_NEVER_LOGGED) delete out[field];
    if (out.cause) out.cause = serializeError(out.cause);
  }
  return out;
}

/** A structured JSON logger with secrets redacted. `destination` lets tests capture the lines. */
export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: serializeError },
      base: { pid: process.pid },
    },
    options.destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
