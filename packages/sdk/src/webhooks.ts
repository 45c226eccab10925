import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { Event } from './generated.ts';

export { WebhookVerificationError };

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

/**
 * Webhooks as this API signs them (Standard Webhooks v1), checked with the
 * `standardwebhooks` package, the specification's reference library.
 */
export const webhooks = {
  /**
   * Verifies a delivery and returns its event. `rawBody` is the body exactly as
   * received (before any JSON parsing); `headers` has `webhook-id`,
   * `webhook-timestamp` and `webhook-signature`; `secret` is the endpoint's
   * `whsec_…`. Throws WebhookVerificationError for a bad signature or a timestamp
   * more than five minutes off. Deduplicate by `event.id` (the `webhook-id`):
   * a delivery may arrive more than once.
   */
  verify(rawBody: string | Uint8Array, headers: HeaderSource, secret: string): Event {
    const get = (name: string) => {
      const value = headers instanceof Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()]);
      return Array.isArray(value) ? value.join(' ') : (value ?? '');
    };
    const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
    return new Webhook(secret).verify(body, {
      'webhook-id': get('webhook-id'),
      'webhook-timestamp': get('webhook-timestamp'),
      'webhook-signature': get('webhook-signature'),
    }) as Event;
  },
};
