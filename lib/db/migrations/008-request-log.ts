/**
 * The request log (list_requests): one row per authenticated API call, written in
 * batches off the request path; no body, no secret, no account number. And how
 * often each idempotency key was replayed (get_idempotent_request).
 */
export const sql = /* sql */ `
ALTER TABLE idempotency_keys ADD COLUMN replay_count integer NOT NULL DEFAULT 0;

CREATE TABLE request_log (
  seq              bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id               text PRIMARY KEY,
  merchant_id      text NOT NULL REFERENCES merchants(id),
  created_at       timestamptz NOT NULL,
  action           text NOT NULL,
  status           integer NOT NULL,
  error_code       text,
  duration_ms      integer NOT NULL,
  key_id           text NOT NULL,
  idempotency_key  text,
  replayed         boolean NOT NULL,
  object_id        text,
  client_address   text
);
CREATE INDEX request_log_merchant ON request_log (merchant_id, seq DESC);
CREATE INDEX request_log_created ON request_log USING brin (created_at);
`;
