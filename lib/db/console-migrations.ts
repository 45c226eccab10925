/**
 * The console's own store, for a console-only process (PAYMENT_API_BASE_URL set): its session
 * records and sign-in failure counts, nothing of the payment schema. The same tables as the
 * payment migrations create (console_sessions without a foreign key since 009, auth_failures),
 * so a console that shares the payment database finds them there. Tracked apart from the
 * payment migrations, in their own table.
 */
export const CONSOLE_MIGRATIONS_TABLE = 'console_schema_migrations';

export const CONSOLE_MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'console-store',
    sql: /* sql */ `
CREATE TABLE IF NOT EXISTS console_sessions (
  id            text PRIMARY KEY,
  merchant_id   text NOT NULL,
  key_hash      text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  revoked_at    timestamptz
);
CREATE INDEX IF NOT EXISTS console_sessions_merchant ON console_sessions (merchant_id) WHERE revoked_at IS NULL;
CREATE TABLE IF NOT EXISTS auth_failures (
  address       text NOT NULL,
  window_start  timestamptz NOT NULL,
  count         integer NOT NULL,
  PRIMARY KEY (address, window_start)
);
`,
  },
];
