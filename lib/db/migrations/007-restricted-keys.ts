/**
 * Restricted keys (rk_test_…) beside secret keys, a grace period for a rolled
 * secret key, when a key was last used (at most once a minute), and who made
 * each payout, checkout session and webhook endpoint: a snapshot of the key's
 * id, name and type, kept even after the key is revoked.
 */
export const sql = /* sql */ `
ALTER TABLE api_keys
  ADD COLUMN type text NOT NULL DEFAULT 'secret' CHECK (type IN ('secret', 'restricted')),
  ADD COLUMN name text CHECK (length(name) BETWEEN 1 AND 100),
  ADD COLUMN permissions text[],
  ADD COLUMN max_payout_amount bigint CHECK (max_payout_amount > 0 AND max_payout_amount <= 9007199254740991),
  ADD COLUMN expires_at timestamptz,
  ADD COLUMN last_used_at timestamptz,
  ADD CONSTRAINT api_keys_restricted_shape CHECK (
    (type = 'secret' AND permissions IS NULL AND max_payout_amount IS NULL)
    OR (type = 'restricted' AND name IS NOT NULL AND cardinality(permissions) > 0));

ALTER TABLE payouts ADD COLUMN created_by json;
ALTER TABLE checkout_sessions ADD COLUMN created_by json;
ALTER TABLE webhook_endpoints ADD COLUMN created_by json;
`;
