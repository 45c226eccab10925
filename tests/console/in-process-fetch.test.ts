import { describe, expect, it } from 'vitest';
import { createLogger } from '@/lib/log';
import { createPaymentCore } from '@/lib/payments/core';
import { inProcessFetch } from '@/console/server/upstream/in-process-fetch';
import { merchantApi } from '@/console/server/upstream/merchant-api';
import { createPaymentClient } from '@/console/server/upstream/payment-client';
import { UpstreamError } from '@/console/server/upstream/upstream-error';
import { testSecretBox, withTestApi } from '../helpers/api-server';
import { pgliteBackend } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';

const settings = {
  idempotencyTtlSeconds: 86_400,
  idempotencyWaitSeconds: 5,
  settlementDelaySeconds: 3,
  authFailuresPerMinute: 20,
  secretBox: testSecretBox,
};
const payout = { amount: 50_000, bank_code: 'BCA' as const, account_number: '1234567890' };

describe('the in-process transport to this app’s own payment core', () => {
  it('gives the adapter the same answers as HTTP: data, replays, errors', async () => {
    await withTestApi(pgliteBackend, {}, async (api) => {
      const core = createPaymentCore({ db: api.db, log: createLogger({ level: 'silent' }), settings });
      const client = createPaymentClient({ baseUrl: 'http://127.0.0.1:1', fetch: inProcessFetch(async () => core) });
      const merchant = merchantApi(client, api.merchant.secretKey);

      expect((await merchant.getBalance()).data).toMatchObject({ object: 'balance', available: 10_000_000 });
      const first = await merchant.withdraw(payout, 'in-proc-1');
      const again = await merchant.withdraw(payout, 'in-proc-1');
      expect(again).toEqual({ data: first.data, replayed: true });
      expect((await ledgerCheck(api.db, api.merchant.id)).payouts).toBe(1);

      const refused = merchant.withdraw({ ...payout, amount: 99_000_000 }, 'in-proc-2');
      await expect(refused).rejects.toBeInstanceOf(UpstreamError);
      await expect(refused).rejects.toMatchObject({ status: 422, code: 'insufficient_funds' });
      const stranger = merchantApi(client, `sk_test_${'q'.repeat(40)}`);
      await expect(stranger.getBalance()).rejects.toMatchObject({ status: 401 });
    });
  });

  it('honours the attempt timeout: a core that does not answer is an unknown outcome; a read is retried, a write is left to the browser', async () => {
    const never = inProcessFetch(() => new Promise(() => {}));
    const slept: number[] = [];
    const client = createPaymentClient({
      baseUrl: 'http://127.0.0.1:1',
      fetch: never,
      timeoutMs: 50,
      sleep: async (ms) => void slept.push(ms),
    });
    const write = merchantApi(client, `sk_test_${'a'.repeat(40)}`).withdraw(payout, 'in-proc-3');
    await expect(write).rejects.toMatchObject({ status: 503, code: 'upstream_unavailable' });
    expect(slept).toEqual([]);
    const read = merchantApi(client, `sk_test_${'a'.repeat(40)}`).getBalance();
    await expect(read).rejects.toMatchObject({ status: 503, code: 'upstream_unavailable' });
    expect(slept).toEqual([1000, 2000, 4000]);
  });

  it('refuses what the payment client never sends (a Request, a stream body) instead of guessing, and never calls the core', async () => {
    let called = false;
    const transport = inProcessFetch(async () => {
      called = true;
      throw new Error('not reached');
    });
    await expect(transport(new Request('http://x/v1/index.php', { method: 'POST', body: '{}' }))).rejects.toBeInstanceOf(TypeError);
    await expect(transport('http://x/v1/index.php', { method: 'POST', body: new Blob(['{}']) })).rejects.toBeInstanceOf(TypeError);
    expect(called).toBe(false);
  });
});
