// Events and signed webhooks (docs/webhooks.md), against a real HTTP receiver that verifies every
// signature with `standardwebhooks`, on PGlite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { purgeOldEvents } from '@/lib/payments/webhooks/event-retention';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { callApi, useTestApi, withdrawal } from '../helpers/api-server';
import { backends } from '../../testing/databases';
import { useWebhookDelivery } from '../helpers/webhook-delivery';
import type { WebhookReceiver } from '../helpers/webhook-receiver';
import type { JsonAnswer } from '../helpers/json-answer';

const poll = { timeout: 15_000, interval: 50 };

describe.each(backends)('events and webhooks ($name)', (backend) => {
  // An hour's settlement delay: only simulate_payout settles here, so every event is caused by a test.
  const api = useTestApi(backend, { openingBalance: 50_000_000, settings: { settlementDelaySeconds: 3600 } });
  const receiver = useWebhookDelivery(api, [0.2, 0.2, 0.2]);

  /** A new endpoint at `path` of the receiver, trusted with its secret. */
  async function endpoint(path: string, extra: Record<string, unknown> = {}, script?: Parameters<WebhookReceiver['endpoint']>[1]) {
    const res = await api().call({ action: 'create_webhook_endpoint', url: receiver().endpoint(path, script), ...extra });
    expect(res.status, res.text).toBe(200);
    receiver().trust(path, res.body.secret);
    return res.body as { id: string; secret: string };
  }
  const deliveries = async (filter: Record<string, string>) =>
    (await api().call({ action: 'list_webhook_deliveries', ...filter, limit: 100 })).body.data as JsonAnswer[];

  it('delivers every event type, signed, with the object as the API answered it right after the change', async () => {
    const ep = await endpoint('/all');
    const created = (await api().call(withdrawal(100_000))).body;
    const paid = (await api().call({ action: 'simulate_payout', id: created.id, outcome: 'paid' })).body;
    const second = (await api().call(withdrawal(60_000))).body;
    const failed = (await api().call({ action: 'simulate_payout', id: second.id, outcome: 'failed', failure_code: 'invalid_account' }))
      .body;
    const session = (await api().call({ action: 'create_checkout_session', amount: 30_000 })).body;
    const completed = (await api().call({ action: 'simulate_checkout_payment', id: session.id })).body;
    const other = (await api().call({ action: 'create_checkout_session', amount: 30_000 })).body;
    const expired = (await api().call({ action: 'expire_checkout_session', id: other.id })).body;

    await expect.poll(() => receiver().at('/all').length, poll).toBe(6);
    const got = receiver().at('/all');
    expect(got.every((r) => r.verified)).toBe(true);
    const byType: Record<string, JsonAnswer> = Object.fromEntries(got.map((r) => [`${r.event.type}:${r.event.data.object.id}`, r.event]));
    expect(byType[`payout.created:${created.id}`].data.object).toEqual(created);
    expect(byType[`payout.paid:${created.id}`].data.object).toEqual(paid);
    expect(byType[`payout.created:${second.id}`].data.object).toEqual(second);
    expect(byType[`payout.failed:${second.id}`].data.object).toEqual(failed);
    expect(byType[`checkout_session.completed:${session.id}`].data.object).toEqual(completed);
    expect(byType[`checkout_session.expired:${other.id}`].data.object).toEqual(expired);

    for (const r of got) {
      // The body is the event as get_event answers it, byte for byte; the header id is the event id.
      expect(r.id).toBe(r.event.id);
      expect(r.event).toMatchObject({ object: 'event', livemode: false });
      expect(r.body).toBe((await api().call({ action: 'get_event', id: r.id })).text);
      expect(r.body).not.toContain('1234567890');
    }
    await expect
      .poll(async () => (await deliveries({ endpoint_id: ep.id })).map((d) => d.status), poll)
      .toEqual(Array(6).fill('succeeded'));
    const d = (await deliveries({ endpoint_id: ep.id }))[0];
    expect(d).toMatchObject({
      object: 'webhook_delivery',
      attempts: 1,
      last_response_status: 200,
      last_response_body: 'answer 200',
      next_attempt_at: null,
      last_error: null,
    });

    const list = await api().call({ action: 'list_events', type: 'payout.created', limit: 1 });
    expect(list.body).toMatchObject({
      object: 'list',
      has_more: true,
      data: [{ type: 'payout.created', data: { object: { id: second.id } } }],
    });
    const next = await api().call({ action: 'list_events', type: 'payout.created', limit: 1, starting_after: list.body.data[0].id });
    expect(next.body.data[0].data.object.id).toBe(created.id);

    // object_id: the events about one object, newest first (the payout page's timeline).
    const ofSecond = (await api().call({ action: 'list_events', object_id: second.id })).body.data;
    expect(ofSecond.map((e: JsonAnswer) => [e.type, e.data.object.status])).toEqual([
      ['payout.failed', 'failed'],
      ['payout.created', 'pending'],
    ]);
    expect((await api().call({ action: 'list_events', object_id: 'po_nonesuch' })).body.data).toEqual([]);
    const badObject = await api().call({ action: 'list_events', object_id: '' });
    expect([badObject.status, badObject.body.error.param]).toEqual([400, 'object_id']);
    // The card's last four: null while open, set once paid, in the answer and its event alike.
    expect([session.card_last4, completed.card_last4, expired.card_last4]).toEqual([null, '4242', null]);
  });

  it('retries a receiver that answers 500 twice with the same webhook-id, then succeeds on the third attempt', async () => {
    const ep = await endpoint('/flaky', {}, [{ status: 500 }, { status: 500 }, { status: 200 }]);
    const payout = (await api().call(withdrawal(10_000))).body;
    await expect.poll(() => receiver().at('/flaky').length, poll).toBe(3);
    const ids = receiver()
      .at('/flaky')
      .map((r) => r.id);
    expect(new Set(ids).size).toBe(1);
    expect(
      receiver()
        .at('/flaky')
        .every((r) => r.verified && r.event.data.object.id === payout.id),
    ).toBe(true);
    await expect.poll(async () => (await deliveries({ endpoint_id: ep.id }))[0]?.status, poll).toBe('succeeded');
    expect((await deliveries({ endpoint_id: ep.id }))[0]).toMatchObject({ attempts: 3, last_response_status: 200 });
  });

  it('gives up after the last retry, and honours a longer Retry-After on 429', async () => {
    const ep = await endpoint('/down', {}, [{ status: 503 }]);
    await api().call(withdrawal(10_000));
    await expect.poll(async () => (await deliveries({ endpoint_id: ep.id }))[0]?.status, poll).toBe('failed');
    expect((await deliveries({ endpoint_id: ep.id }))[0]).toMatchObject({
      attempts: 4,
      last_response_status: 503,
      last_error: 'HTTP 503',
      next_attempt_at: null,
    });

    const slow = await endpoint('/busy', {}, [{ status: 429, headers: { 'retry-after': '3600' } }]);
    await api().call(withdrawal(10_000));
    // Recorded (not only claimed: a claim pushes next_attempt_at by the lease alone).
    await expect.poll(async () => (await deliveries({ endpoint_id: slow.id }))[0]?.last_response_status, poll).toBe(429);
    expect((await deliveries({ endpoint_id: slow.id }))[0].attempts).toBe(1);
    const next = Date.parse((await deliveries({ endpoint_id: slow.id }))[0].next_attempt_at);
    expect(next - Date.now()).toBeGreaterThan(3500 * 1000);
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    const ep = await endpoint('/gone', {}, [{ status: 410 }]);
    await api().call(withdrawal(10_000));
    await expect.poll(async () => (await api().call({ action: 'get_webhook_endpoint', id: ep.id })).body.disabled, poll).toBe(true);
    const got = (await api().call({ action: 'get_webhook_endpoint', id: ep.id })).body;
    expect(got.disabled_reason).toMatch(/410/);
    await api().call(withdrawal(10_000));
    expect((await deliveries({ endpoint_id: ep.id })).map((d) => d.status)).toEqual(['failed']); // nothing new for a disabled endpoint
  });

  it('times out a receiver that never answers, and tries it again', async () => {
    const ep = await endpoint('/hang', {}, ['hang']);
    await api().call(withdrawal(10_000));
    await expect.poll(async () => (await deliveries({ endpoint_id: ep.id }))[0]?.attempts ?? 0, poll).toBeGreaterThanOrEqual(2);
    expect((await deliveries({ endpoint_id: ep.id }))[0].last_error).toMatch(/^timeout/);
    expect(receiver().at('/hang').length).toBeGreaterThanOrEqual(2);
    await api().call({ action: 'delete_webhook_endpoint', id: ep.id });
  });

  it('refuses private and link-local addresses when connecting, and delivers nothing a endpoint does not subscribe to', async () => {
    const priv = (await api().call({ action: 'create_webhook_endpoint', url: 'http://10.1.2.3:9/hook' })).body;
    const meta = (await api().call({ action: 'create_webhook_endpoint', url: 'http://169.254.169.254/latest' })).body;
    const mapped = (await api().call({ action: 'create_webhook_endpoint', url: 'http://[::ffff:169.254.169.254]/' })).body;
    const picky = await endpoint('/checkout-only', { enabled_events: ['checkout_session.completed'] });
    await api().call(withdrawal(10_000));
    for (const ep of [priv, meta, mapped]) {
      await expect
        .poll(async () => (await deliveries({ endpoint_id: ep.id }))[0]?.last_error ?? '', poll)
        .toMatch(/^refused: .*(private|link-local)/);
      await api().call({ action: 'delete_webhook_endpoint', id: ep.id });
    }
    expect(await deliveries({ endpoint_id: picky.id })).toEqual([]);
    const session = (await api().call({ action: 'create_checkout_session', amount: 5_000 })).body;
    await api().call({ action: 'simulate_checkout_payment', id: session.id });
    await expect
      .poll(
        () =>
          receiver()
            .at('/checkout-only')
            .map((r) => r.event.type),
        poll,
      )
      .toEqual(['checkout_session.completed']);
    await api().call({ action: 'delete_webhook_endpoint', id: picky.id });
  });

  it('writes one event per transition: a replayed withdraw or a repeated expiry adds none', async () => {
    const key = `wh-replay-${backend.name}`;
    const first = await api().call(withdrawal(10_000), { idempotencyKey: key });
    const again = await api().call(withdrawal(10_000), { idempotencyKey: key });
    expect(again.headers.get('x-service-idempotent-replayed')).toBe('true');
    const session = (await api().call({ action: 'create_checkout_session', amount: 5_000 })).body;
    await api().call({ action: 'expire_checkout_session', id: session.id });
    await api().call({ action: 'expire_checkout_session', id: session.id });
    const count = async (id: string) =>
      (await api().db.query(`SELECT type FROM events WHERE object_id = $1`, [id])).map((r: JsonAnswer) => r.type);
    expect(await count(first.body.id)).toEqual(['payout.created']);
    expect(await count(session.id)).toEqual(['checkout_session.expired']);
    // The database refuses a second event for one transition, whichever code would write it.
    await expect(
      api().db.query(`INSERT INTO events (id, merchant_id, type, object_id, data) VALUES ('evt_x', $1, 'payout.created', $2, '{}')`, [
        api().merchant.id,
        first.body.id,
      ]),
    ).rejects.toThrow(/events_once_per_transition/);
  });

  it('shows the secret once, keeps it sealed, and signs with both secrets for a day after a rotation', async () => {
    const key = `wh-create-${backend.name}`;
    const res = await api().call(
      { action: 'create_webhook_endpoint', url: receiver().endpoint('/rotate'), description: 'orders' },
      { idempotencyKey: key },
    );
    const ep = res.body;
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const replay = await api().call(
      { action: 'create_webhook_endpoint', url: receiver().endpoint('/rotate'), description: 'orders' },
      { idempotencyKey: key },
    );
    expect(replay.headers.get('x-service-idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual({ ...ep, secret: null });
    for (const text of [
      (await api().call({ action: 'get_webhook_endpoint', id: ep.id })).text,
      (await api().call({ action: 'list_webhook_endpoints' })).text,
    ]) {
      expect(text).not.toContain(ep.secret);
      expect(text).not.toContain('"secret":');
    }
    const stored = await api().db.query<{ all: string }>(
      `SELECT (SELECT string_agg(row_to_json(w)::text, '') FROM webhook_endpoints w) || (SELECT string_agg(response_body, '') FROM idempotency_keys) AS all`,
    );
    expect(stored[0]!.all).not.toContain(ep.secret.slice(6));

    const rotated = (await api().call({ action: 'rotate_webhook_secret', id: ep.id })).body;
    expect(rotated.secret).not.toBe(ep.secret);
    expect(Date.parse(rotated.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    receiver().trust('/rotate', ep.secret);
    await api().call(withdrawal(10_000));
    await expect.poll(() => receiver().at('/rotate').length, poll).toBe(1);
    const [got] = receiver().at('/rotate');
    expect(got!.signature.split(' ')).toHaveLength(2);
    expect(got!.verified).toBe(true);
    // Each secret alone verifies it: a receiver with the old one and a receiver with the new one.
    const { Webhook } = await import('standardwebhooks');
    const headers = { 'webhook-id': got!.id, 'webhook-timestamp': got!.timestamp, 'webhook-signature': got!.signature };
    expect(() => new Webhook(ep.secret).verify(got!.body, headers)).not.toThrow();
    expect(() => new Webhook(rotated.secret).verify(got!.body, headers)).not.toThrow();
    await api().call({ action: 'delete_webhook_endpoint', id: ep.id });
  });

  it('resends an event, and keeps another merchant out', async () => {
    const ep = await endpoint('/resend', { enabled_events: ['payout.paid'] });
    const payout = (await api().call(withdrawal(10_000))).body;
    const [event] = (await api().call({ action: 'list_events', type: 'payout.created', limit: 1 })).body.data;
    expect(event.data.object.id).toBe(payout.id);
    const resent = await api().call({ action: 'resend_event', id: event.id, endpoint_id: ep.id });
    expect(resent.body).toMatchObject({ object: 'webhook_delivery', event_id: event.id, event_type: 'payout.created', status: 'pending' });
    await expect
      .poll(
        () =>
          receiver()
            .at('/resend')
            .map((r) => r.id),
        poll,
      )
      .toEqual([event.id]);
    // The event's deliveries (walked by its index, the rest checked on the way): the resend newest first.
    const ofEvent = await deliveries({ event_id: event.id });
    expect(ofEvent[0]!.id).toBe(resent.body.id);
    expect(new Set(ofEvent.map((d) => d.event_id))).toEqual(new Set([event.id]));
    expect((await deliveries({ event_id: event.id, endpoint_id: ep.id })).map((d) => d.id)).toEqual([resent.body.id]);

    const stranger = await createMerchant(api().db, { name: 'Stranger', openingBalance: 0 });
    const as = (body: unknown) => callApi(api().url, stranger.secretKey, body);
    expect((await as({ action: 'list_webhook_deliveries', event_id: event.id })).body.data).toEqual([]);
    expect((await as({ action: 'get_event', id: event.id })).status).toBe(404);
    expect((await as({ action: 'get_webhook_endpoint', id: ep.id })).status).toBe(404);
    expect((await as({ action: 'resend_event', id: event.id, endpoint_id: ep.id })).body.error).toMatchObject({
      code: 'not_found',
      param: 'id',
    });
    expect((await as({ action: 'list_events' })).body.data).toEqual([]);
    await api().call({ action: 'delete_webhook_endpoint', id: ep.id });
  });

  it('validates endpoints: the URL, the event types, and at most 16 per merchant', async () => {
    const bad = async (body: Record<string, unknown>) => (await api().call({ action: 'create_webhook_endpoint', ...body })).body.error;
    expect(await bad({ url: 'ftp://example.com/x' })).toMatchObject({ code: 'invalid_request', param: 'url' });
    expect(await bad({ url: '/relative' })).toMatchObject({ code: 'invalid_request', param: 'url' });
    expect(await bad({ url: `https://example.com/${'a'.repeat(2048)}` })).toMatchObject({ code: 'invalid_request', param: 'url' });
    expect(await bad({ url: 'https://example.com', enabled_events: [] })).toMatchObject({ param: 'enabled_events' });
    expect(await bad({ url: 'https://example.com', enabled_events: ['payout.lost'] })).toMatchObject({ param: 'enabled_events[0]' });
    expect(await bad({ url: 'https://example.com', enabled_events: ['payout.paid', 'payout.paid'] })).toMatchObject({
      param: 'enabled_events',
    });

    const stranger = await createMerchant(api().db, { name: 'Many hooks', openingBalance: 0 });
    const create = () => callApi(api().url, stranger.secretKey, { action: 'create_webhook_endpoint', url: 'https://example.com/hook' });
    const results = await Promise.all(Array.from({ length: 20 }, create));
    expect(results.filter((r) => r.status === 200)).toHaveLength(16);
    expect(results.filter((r) => r.status === 400).map((r) => r.body.error.code)).toEqual(Array(4).fill('webhook_endpoint_limit'));
    const one = results.find((r) => r.status === 200)!.body;
    expect((await callApi(api().url, stranger.secretKey, { action: 'delete_webhook_endpoint', id: one.id })).body).toEqual({
      object: 'webhook_endpoint',
      id: one.id,
      deleted: true,
    });
    expect((await create()).status).toBe(200);

    // Any endpoint still there: the 20 creates finish in any order, and `one` is deleted.
    const kept = results
      .filter((r) => r.status === 200)
      .map((r) => r.body.id as string)
      .find((id) => id !== one.id)!;
    const updated = await callApi(api().url, stranger.secretKey, {
      action: 'update_webhook_endpoint',
      id: kept,
      enabled_events: ['payout.paid'],
      disabled: true,
    });
    expect(updated.body).toMatchObject({ enabled_events: ['payout.paid'], disabled: true, disabled_reason: 'Disabled by the merchant.' });
  });

  it('purges events past retention with their deliveries, keeping one still being delivered', async () => {
    // A merchant of its own: the endpoints of the tests above (one retries in an hour) would keep events.
    const m = await createMerchant(api().db, { name: 'Retention', openingBalance: 1_000_000 });
    const as = (body: unknown) => callApi(api().url, m.secretKey, body);
    const ep = (await as({ action: 'create_webhook_endpoint', url: receiver().endpoint('/purge') })).body;
    const a = (await as(withdrawal(10_000))).body;
    const b = (await as(withdrawal(10_000))).body;
    const mine = async () => (await as({ action: 'list_webhook_deliveries', endpoint_id: ep.id })).body.data as JsonAnswer[];
    await expect.poll(async () => (await mine()).filter((d) => d.status === 'succeeded').length, poll).toBe(2);
    const [eventA, eventB] = await Promise.all(
      [a, b].map(async (p) => (await api().db.query<{ id: string }>(`SELECT id FROM events WHERE object_id = $1`, [p.id]))[0]!.id),
    );
    await api().db.query(`UPDATE events SET created_at = now() - interval '40 days' WHERE id = ANY($1)`, [[eventA, eventB]]);
    // b's delivery is pending again (a retry due tomorrow): its event must stay.
    await api().db.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now() + interval '1 day' WHERE event_id = $1`,
      [eventB],
    );
    expect(await purgeOldEvents(api().db, 30)).toBe(1);
    expect((await as({ action: 'get_event', id: eventA })).status).toBe(404);
    expect((await as({ action: 'get_event', id: eventB })).status).toBe(200);
    expect((await mine()).map((d) => d.event_id)).toEqual([eventB]);
  });
});
