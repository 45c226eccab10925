/** Batch payouts: up to 1,000 payouts reserved together; each payout keeps its batch and the merchant's reference. */
export const sql = /* sql */ `
CREATE TABLE payout_batches (
  seq           bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id            text PRIMARY KEY,
  merchant_id   text NOT NULL REFERENCES merchants(id),
  currency      text NOT NULL,
  total_amount  bigint NOT NULL CHECK (total_amount > 0 AND total_amount <= 9007199254740991),
  payout_count  integer NOT NULL CHECK (payout_count BETWEEN 1 AND 1000),
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payout_batches_merchant ON payout_batches (merchant_id, seq DESC);

ALTER TABLE payouts ADD COLUMN batch_id text REFERENCES payout_batches(id), ADD COLUMN reference text;
CREATE INDEX payouts_batch ON payouts (batch_id, seq) WHERE batch_id IS NOT NULL;
`;
