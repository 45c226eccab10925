/** Merchants, keys, balances, the ledger, payouts, checkout sessions, idempotency and console sessions. */
export const sql = /* sql */ `
CREATE TABLE merchants (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  currency    text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Secret keys are stored only as SHA-256 hashes; hint is 'sk_test_' + the last four characters.
CREATE TABLE api_keys (
  id           text PRIMARY KEY,
  merchant_id  text NOT NULL REFERENCES merchants(id),
  key_hash     text NOT NULL UNIQUE,
  hint         text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz
);
CREATE INDEX api_keys_merchant ON api_keys (merchant_id);

CREATE TABLE balances (
  merchant_id  text PRIMARY KEY REFERENCES merchants(id),
  currency     text NOT NULL,
  available    bigint NOT NULL CHECK (available >= 0),
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- Every change of available is one row here, written in the same transaction:
-- available = SUM(amount) per merchant at all times.
CREATE TABLE ledger_entries (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  merchant_id    text NOT NULL REFERENCES merchants(id),
  amount         bigint NOT NULL CHECK (amount <> 0),
  balance_after  bigint NOT NULL CHECK (balance_after >= 0),
  kind           text NOT NULL CHECK (kind IN ('opening_balance', 'adjustment', 'payout', 'payout_reversal', 'checkout_payment')),
  reference_id   text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_merchant ON ledger_entries (merchant_id, id);

CREATE TABLE payouts (
  seq              bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id               text PRIMARY KEY,
  merchant_id      text NOT NULL REFERENCES merchants(id),
  amount           bigint NOT NULL CHECK (amount > 0),
  currency         text NOT NULL,
  bank_code        text NOT NULL,
  account_number   text NOT NULL,
  status           text NOT NULL CHECK (status IN ('pending', 'paid', 'failed')),
  failure_code     text,
  failure_message  text,
  settle_after     timestamptz NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  settled_at       timestamptz
);
CREATE INDEX payouts_merchant ON payouts (merchant_id, seq DESC);
CREATE INDEX payouts_due ON payouts (settle_after) WHERE status = 'pending';

CREATE TABLE checkout_sessions (
  seq          bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id           text PRIMARY KEY,
  merchant_id  text NOT NULL REFERENCES merchants(id),
  amount       bigint NOT NULL CHECK (amount > 0),
  currency     text NOT NULL,
  description  text,
  success_url  text,
  cancel_url   text,
  status       text NOT NULL CHECK (status IN ('open', 'complete', 'expired')),
  expires_at   timestamptz NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  payment_card_last4 text
);
CREATE INDEX checkout_sessions_merchant ON checkout_sessions (merchant_id, seq DESC);

-- One row per (merchant, key): claimed by INSERT .. ON CONFLICT inside the request's
-- own transaction, so a concurrent duplicate waits on the unique index, then replays.
CREATE TABLE idempotency_keys (
  merchant_id      text NOT NULL REFERENCES merchants(id),
  key              text NOT NULL,
  action           text NOT NULL,
  fingerprint      text NOT NULL,
  response_status  integer,
  response_body    text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- Console sign-ins. The sealed cookie carries the id; deleting or revoking the row
-- makes every copy of that cookie useless. merchant_id lets "sign out everywhere"
-- reach every session of the account, whichever key opened it.
CREATE TABLE console_sessions (
  id            text PRIMARY KEY,
  merchant_id   text NOT NULL REFERENCES merchants(id),
  key_hash      text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  revoked_at    timestamptz
);
CREATE INDEX console_sessions_key ON console_sessions (key_hash);
CREATE INDEX console_sessions_merchant ON console_sessions (merchant_id) WHERE revoked_at IS NULL;
`;
