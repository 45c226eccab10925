import { describe, expect, it } from 'vitest';
import { getPublicCheckoutSession, payCheckoutSession } from '@/lib/payments/checkout/checkout-payment';
import { expireCheckoutSessions } from '@/lib/payments/checkout/checkout-expiry';
import { withTestApi } from '../helpers/api-server';
import { backends } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';

const GOOD_CARD = '4242 4242 4242 4242';
const DECLINED_CARD = '4000 0000 0000 0002';

describe.each(backends)('checkout sessions ($name)', (backend) => {
  it('creates an open session with a hosted URL, and a test card pays it once, crediting the ledger', async () => {
    await withTestApi(backend, { openingBalance: 0 }, async (api) => {
      const created = await api.call(
        { action: 'create_checkout_session', amount: 125_000, description: 'Two coffees', success_url: 'https://shop.example/thanks' },
        { idempotencyKey: 'cs-a' },
      );
      expect(created.status).toBe(200);
      const session = created.body;
      expect(session).toMatchObject({
        object: 'checkout_session',
        id: expect.stringMatching(/^cs_[0-9A-Za-z]{24}$/),
        url: `${api.url}/checkout/${session.id}`,
        status: 'open',
        amount: 125_000,
        currency: 'IDR',
        description: 'Two coffees',
      });
      const hours = (Date.parse(session.expires_at) - Date.parse(session.created_at)) / 3_600_000;
      expect(hours).toBeCloseTo(24, 3);

      const pub = await getPublicCheckoutSession(api.db, session.id);
      expect(pub).toMatchObject({ merchantName: 'Test Shop', amount: 125_000, description: 'Two coffees', status: 'open' });
      expect(JSON.stringify(pub)).not.toContain(api.merchant.id);

      expect(await payCheckoutSession(api.db, session.id, DECLINED_CARD, api.url)).toMatchObject({ ok: false, code: 'card_declined' });
      expect((await api.call({ action: 'get_checkout_session', id: session.id })).body.status).toBe('open');

      expect(await payCheckoutSession(api.db, session.id, GOOD_CARD, api.url)).toEqual({
        ok: true,
        successUrl: 'https://shop.example/thanks',
      });
      expect(await payCheckoutSession(api.db, session.id, GOOD_CARD, api.url)).toMatchObject({ ok: false, code: 'not_open' });

      const after = (await api.call({ action: 'get_checkout_session', id: session.id })).body;
      expect(after).toMatchObject({ status: 'complete', completed_at: expect.any(String) });
      expect(await ledgerCheck(api.db, api.merchant.id)).toEqual({
        available: 125_000,
        ledger: 125_000,
        pending: 0,
        pendingSum: 0,
        payouts: 0,
      });

      const expire = await api.call({ action: 'expire_checkout_session', id: session.id });
      expect(expire.status).toBe(409);
      expect(expire.body.error.code).toBe('checkout_session_not_open');
    });
  });

  it('lets exactly one of many simultaneous payments of one session through', async () => {
    await withTestApi(backend, { openingBalance: 0 }, async (api) => {
      const { body: session } = await api.call({ action: 'create_checkout_session', amount: 10_000 });
      const results = await Promise.all(Array.from({ length: 20 }, () => payCheckoutSession(api.db, session.id, GOOD_CARD, api.url)));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(await ledgerCheck(api.db, api.merchant.id)).toEqual({
        available: 10_000,
        ledger: 10_000,
        pending: 0,
        pendingSum: 0,
        payouts: 0,
      });
    });
  });

  it('never takes payment for an expired session, expired by the merchant or by time', async () => {
    await withTestApi(backend, { openingBalance: 0 }, async (api) => {
      const a = (await api.call({ action: 'create_checkout_session', amount: 10_000 })).body;
      const expired = await api.call({ action: 'expire_checkout_session', id: a.id }, { idempotencyKey: 'exp-a' });
      expect(expired.body.status).toBe('expired');
      expect(await payCheckoutSession(api.db, a.id, GOOD_CARD, api.url)).toMatchObject({ ok: false, code: 'not_open' });

      const b = (await api.call({ action: 'create_checkout_session', amount: 10_000, expires_in: 1800 })).body;
      await api.db.query(`UPDATE checkout_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [b.id]);
      expect((await api.call({ action: 'get_checkout_session', id: b.id })).body.status).toBe('expired');
      expect(await payCheckoutSession(api.db, b.id, GOOD_CARD, api.url)).toMatchObject({ ok: false, code: 'not_open' });
      expect(await expireCheckoutSessions(api.db, api.url)).toBe(1);
      expect(await ledgerCheck(api.db, api.merchant.id)).toEqual({ available: 0, ledger: 0, pending: 0, pendingSum: 0, payouts: 0 });

      const list = await api.call({ action: 'list_checkout_sessions' });
      expect(list.body.data.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
        [b.id, 'expired'],
        [a.id, 'expired'],
      ]);
      expect(await payCheckoutSession(api.db, 'cs_nope', GOOD_CARD, api.url)).toMatchObject({ ok: false, code: 'not_found' });
      expect(await payCheckoutSession(api.db, a.id, '12', api.url)).toMatchObject({ ok: false, code: 'invalid_card' });
    });
  });
});
