/**
 * The test clock (docs/testing-your-integration.md, "The test clock"). `app_now()` is the time rows are
 * stamped with: the transaction's `now()`, unless the transaction set `payments.clock` (a sandbox with a
 * test clock sets it to its clock's time, first thing in each of its transactions). `app_clock_timestamp()`
 * is the same for the ledger's entries, which are timed when written. Unset, both are exactly what the
 * columns used before, so every other merchant is stamped as before. Changing a default rewrites nothing.
 */
const STAMPED = [
  'payouts',
  'payout_batches',
  'checkout_sessions',
  'refunds',
  'events',
  'api_keys',
  'webhook_endpoints',
  'idempotency_keys',
  'bank_account_validations',
  'statement_runs',
];

export const sql = /* sql */ `
CREATE FUNCTION app_now() RETURNS timestamptz LANGUAGE sql STABLE
  AS $$ SELECT COALESCE(NULLIF(current_setting('payments.clock', true), '')::timestamptz, now()) $$;
CREATE FUNCTION app_clock_timestamp() RETURNS timestamptz LANGUAGE sql VOLATILE
  AS $$ SELECT COALESCE(NULLIF(current_setting('payments.clock', true), '')::timestamptz, clock_timestamp()) $$;
${STAMPED.map((t) => `ALTER TABLE ${t} ALTER COLUMN created_at SET DEFAULT app_now();`).join('\n')}
ALTER TABLE ledger_entries ALTER COLUMN created_at SET DEFAULT app_clock_timestamp();
`;
