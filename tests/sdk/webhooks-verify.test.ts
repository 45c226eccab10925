// The SDK's webhooks.verify accepts what our delivery worker sends, byte for byte, and refuses anything altered.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { webhooks, WebhookVerificationError } from '@/packages/sdk/src';
import { createLogger } from '@/lib/log';
import { startWebhookDelivery } from '@/lib/payments/webhooks/delivery-worker';
import { startTestApi, testSecretBox, withdrawal, type TestApi } from '../helpers/api-server';
import { pgliteBackend } from '../../testing/databases';

let api: TestApi;
let worker: ReturnType<typeof startWebhookDelivery>;
let receiver: http.Server;
const got: Array<{ body: string; headers: http.IncomingHttpHeaders }> = [];

beforeAll(async () => {
  api = await startTestApi(await pgliteBackend.open(), { settings: { settlementDelaySeconds: 3600 } });
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c)).on('end', () => (got.push({ body, headers: req.headers }), res.writeHead(204).end()));
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  worker = startWebhookDelivery(api.db, createLogger({ level: 'silent' }), {
    box: testSecretBox,
    timeoutMs: 1000,
    retryDelaysSeconds: [1],
    allowPrivateNetworks: false,
    pollMs: 50,
  });
});
afterAll(async () => {
  await worker.stop();
  receiver.close();
  await api.close();
  await api.db.close();
});

it('verifies a real delivery and returns its event; an altered body, a wrong secret or a missing header throw', async () => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const { secret } = (await api.call({ action: 'create_webhook_endpoint', url })).body;
  const payout = (await api.call(withdrawal(10_000))).body;
  await expect.poll(() => got.length).toBe(1);
  const [{ body, headers }] = got as [(typeof got)[0]];

  const event = webhooks.verify(body, headers, secret);
  expect(event).toMatchObject({ object: 'event', type: 'payout.created', data: { object: { id: payout.id } } });
  expect(event.id).toBe(headers['webhook-id']);
  // A fetch-style Headers object and a Buffer body work too.
  expect(webhooks.verify(Buffer.from(body), new Headers(headers as Record<string, string>), secret).id).toBe(event.id);

  expect(() => webhooks.verify(body.replace('10000', '99000'), headers, secret)).toThrow(WebhookVerificationError);
  const other = (await api.call({ action: 'create_webhook_endpoint', url: `${url}/2` })).body.secret;
  expect(() => webhooks.verify(body, headers, other)).toThrow(WebhookVerificationError);
  expect(() => webhooks.verify(body, { ...headers, 'webhook-signature': undefined }, secret)).toThrow(WebhookVerificationError);
});
