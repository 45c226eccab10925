// Vitest only: Playwright specs load webhook-receiver.ts, which must not reach vitest (tests/architecture/layering.test.ts).
import { afterAll, beforeAll } from 'vitest';
import { createLogger } from '@/lib/log';
import { startWebhookDelivery } from '@/lib/payments/webhooks/delivery-worker';
import { testSecretBox, type TestApi } from './api-server';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';

/**
 * A receiver and the delivery worker of `api`'s database, for the tests of a describe block: started before
 * them, stopped after. Returns the receiver, as useTestApi returns its API.
 */
export function useWebhookDelivery(api: () => TestApi, retryDelaysSeconds: number[]): () => WebhookReceiver {
  let receiver: WebhookReceiver | undefined;
  let worker: ReturnType<typeof startWebhookDelivery> | undefined;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    worker = startWebhookDelivery(api().db, createLogger({ level: 'silent' }), {
      box: testSecretBox,
      timeoutMs: 1000,
      retryDelaysSeconds,
      allowPrivateNetworks: false,
      pollMs: 50,
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
  });
  return () => receiver!;
}
