import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks allows 24 to 64). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The Standard Webhooks headers of one attempt. `secrets` are the endpoint's
 * current secret and, during the 24 hours after a rotation, the previous one:
 * one `v1,<signature>` per secret, space-separated, so a receiver that still has
 * the old secret verifies as well as one that has the new.
 */
export function webhookHeaders(secrets: string[], eventId: string, at: Date, body: string): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(eventId, at, body));
  return {
    'content-type': 'application/json',
    'user-agent': 'merchant-payments-webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': Math.floor(at.getTime() / 1000).toString(),
    'webhook-signature': signatures.join(' '),
  };
}
