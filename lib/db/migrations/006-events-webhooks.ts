/**
 * Events (a transactional outbox) and their delivery to webhook endpoints.
 *
 * - An event row is written by the statement that makes the change it reports,
 *   so the two commit together; (object_id, type) is unique: one event per
 *   transition, whatever retries or races happen above.
 * - `data` is json, not jsonb: it keeps the key order the API answers with.
 * - Every event gets one pending delivery per enabled endpoint of its merchant
 *   that subscribes to its type, in the same statement (lib/payments/webhooks/event-sql.ts;
 *   a statement trigger did the same at 8% more per withdrawal on a busy row).
 * - Every index on events is paid by every withdrawal: seq has none of its own.
 * - Events are kept EVENT_RETENTION_DAYS (30), their deliveries with them.
 * - Deliveries are claimed by pushing `next_attempt_at` past the attempt's
 *   timeout (a lease): a process that dies mid-attempt leaves the delivery due
 *   again once the lease runs out.
 */
export const sql = /* sql */ `
CREATE FUNCTION new_id(prefix text) RETURNS text LANGUAGE sql VOLATILE
  AS $$ SELECT prefix || '_' || replace(gen_random_uuid()::text, '-', '') $$;

CREATE TABLE events (
  seq         bigint GENERATED ALWAYS AS IDENTITY,
  id          text PRIMARY KEY,
  merchant_id text NOT NULL REFERENCES merchants(id),
  type        text NOT NULL CHECK (type IN ('payout.created', 'payout.paid', 'payout.failed',
                                            'checkout_session.completed', 'checkout_session.expired')),
  object_id   text NOT NULL,
  data        json NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX events_one_per_transition ON events (object_id, type);
CREATE INDEX events_merchant ON events (merchant_id, seq DESC);
-- For the retention purge: rows arrive in time order, so a BRIN index is tiny and nearly free to keep.
CREATE INDEX events_created ON events USING brin (created_at);

ALTER TABLE merchants ADD COLUMN webhook_endpoint_count integer NOT NULL DEFAULT 0
  CHECK (webhook_endpoint_count BETWEEN 0 AND 16);

CREATE TABLE webhook_endpoints (
  seq                        bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id                         text PRIMARY KEY,
  merchant_id                text NOT NULL REFERENCES merchants(id),
  url                        text NOT NULL CHECK (length(url) <= 2048),
  description                text,
  enabled_events             text[] NOT NULL CHECK (cardinality(enabled_events) > 0),
  secret_sealed              text NOT NULL,
  previous_secret_sealed     text,
  previous_secret_expires_at timestamptz,
  disabled                   boolean NOT NULL DEFAULT false,
  disabled_reason            text,
  created_at                 timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_merchant ON webhook_endpoints (merchant_id, seq DESC);

CREATE TABLE webhook_deliveries (
  seq                  bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id                   text PRIMARY KEY,
  merchant_id          text NOT NULL REFERENCES merchants(id),
  event_id             text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  endpoint_id          text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  status               text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts             integer NOT NULL DEFAULT 0,
  next_attempt_at      timestamptz DEFAULT now(),
  last_attempt_at      timestamptz,
  last_response_status integer,
  last_response_body   text,
  last_error           text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_merchant ON webhook_deliveries (merchant_id, seq DESC);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, seq DESC);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

`;
