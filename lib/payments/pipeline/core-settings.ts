/** What the payment core is configured with, once per process (the composition root reads it from the environment). */
export interface CoreSettings {
  idempotencyTtlSeconds: number;
  idempotencyWaitSeconds: number;
  settlementDelaySeconds: number;
  /** An unapproved payout expires after this long (PAYOUT_APPROVAL_EXPIRY_SECONDS; 7 days by default). */
  payoutApprovalExpirySeconds?: number;
  /** Live sandboxes a merchant may have at once (SANDBOX_LIMIT; 200 by default). */
  sandboxLimit?: number;
  /** Public origin for links the API hands out (checkout URLs); the request's own origin when unset. */
  publicBaseUrl?: string;
  /** Seals the webhook signing secrets the database keeps (webhooks/secret-box.ts makes one). */
  secretBox: SecretBox;
}

/**
 * Seals secrets for storage and opens them again (AES-256-GCM; webhooks/secret-box.ts), and digests a
 * value under the current key to look it up without keeping it (bank accounts).
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /** A keyed digest (HMAC-SHA256 under the current key) for looking a value up without keeping it: bank accounts. */
  digest(purpose: string, value: string): string;
}
