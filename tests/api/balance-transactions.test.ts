// list_balance_transactions: the ledger, exact, after a payout, a failed payout, a checkout payment and a top-up.
import { describe, expect, it } from 'vitest';
import { useTestApi, withdrawal } from '../helpers/api-server';
import { apiTargets } from '../helpers/api-targets';
import type { JsonAnswer } from '../helpers/json-answer';

describe.each(apiTargets)('list_balance_transactions ($name)', (target) => {
  const api = useTestApi(target, { openingBalance: 1_000_000, settings: { settlementDelaySeconds: 3600 } });

  it('lists every change of available, signed, with balance_after, newest first, in pages', async () => {
    const paid = (await api().call(withdrawal(100_000))).body;
    await api().call({ action: 'simulate_payout', id: paid.id, outcome: 'paid' });
    const failed = (await api().call(withdrawal(50_000))).body;
    await api().call({ action: 'simulate_payout', id: failed.id, outcome: 'failed', failure_code: 'invalid_account' });
    const session = (await api().call({ action: 'create_checkout_session', amount: 150_000 })).body;
    await api().call({ action: 'simulate_checkout_payment', id: session.id });
    await api().call({ action: 'create_test_topup', amount: 7_000 }, { idempotencyKey: 'topup-txn' });

    const all = await api().call({ action: 'list_balance_transactions', limit: 100 });
    expect(all.status).toBe(200);
    const rows = all.body.data.map((t: JsonAnswer) => [t.type, t.amount, t.balance_after, t.source]);
    expect(rows).toEqual([
      ['topup', 7_000, 1_057_000, expect.any(String)],
      ['checkout_payment', 150_000, 1_050_000, session.id],
      ['payout_reversal', 50_000, 900_000, failed.id],
      ['payout', -50_000, 850_000, failed.id],
      ['payout', -100_000, 900_000, paid.id],
      ['opening_balance', 1_000_000, 1_000_000, expect.any(String)],
    ]);
    expect(all.body.data[0]).toMatchObject({
      object: 'balance_transaction',
      currency: 'IDR',
      id: expect.stringMatching(/^txn_\d+$/),
      created_at: expect.any(String),
    });
    const balance = (await api().call({ action: 'get_balance' })).body;
    expect(all.body.data[0].balance_after).toBe(balance.available);

    // Pages of 2 walk the same rows with no gap or repeat.
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = (await api().call({ action: 'list_balance_transactions', limit: 2, ...(after ? { starting_after: after } : {}) })).body;
      seen.push(...page.data.map((t: JsonAnswer) => t.id));
      if (!page.has_more) break;
      after = page.data.at(-1).id;
    }
    expect(seen).toEqual(all.body.data.map((t: JsonAnswer) => t.id));

    const payouts = (await api().call({ action: 'list_balance_transactions', type: 'payout' })).body.data;
    expect(payouts.map((t: JsonAnswer) => t.amount)).toEqual([-50_000, -100_000]);
    const future = (await api().call({ action: 'list_balance_transactions', created_gte: new Date(Date.now() + 60_000).toISOString() }))
      .body.data;
    expect(future).toEqual([]);
    const past = (await api().call({ action: 'list_balance_transactions', created_lt: new Date(Date.now() + 60_000).toISOString() })).body
      .data;
    expect(past).toHaveLength(6);
  });

  it('refuses a bad filter with a 400 naming it, and an unknown cursor with 404', async () => {
    const bad = await api().call({ action: 'list_balance_transactions', type: 'gift' });
    expect([bad.status, bad.body.error.param]).toEqual([400, 'type']);
    const badTime = await api().call({ action: 'list_balance_transactions', created_gte: 'yesterday' });
    expect([badTime.status, badTime.body.error.param]).toEqual([400, 'created_gte']);
    const missing = await api().call({ action: 'list_balance_transactions', starting_after: 'txn_999999999' });
    expect([missing.status, missing.body.error.param]).toEqual([404, 'starting_after']);
    const junk = await api().call({ action: 'list_balance_transactions', starting_after: 'txn_abc' });
    expect(junk.status).toBe(404);
  });

  it('finds the one entry of a type an object caused (source), and refuses source without such a type', async () => {
    const failed = (await api().call(withdrawal(40_000))).body;
    await api().call({ action: 'simulate_payout', id: failed.id, outcome: 'failed', failure_code: 'invalid_account' });
    const other = (await api().call(withdrawal(30_000))).body;
    await api().call({ action: 'simulate_payout', id: other.id, outcome: 'failed', failure_code: 'invalid_account' });
    const found = await api().call({ action: 'list_balance_transactions', type: 'payout_reversal', source: failed.id });
    expect(found.body.data.map((t: JsonAnswer) => [t.type, t.source, t.amount])).toEqual([['payout_reversal', failed.id, 40_000]]);
    const sent = await api().call({ action: 'list_balance_transactions', type: 'payout', source: failed.id });
    expect(sent.body.data.map((t: JsonAnswer) => [t.type, t.amount])).toEqual([['payout', -40_000]]);
    const none = await api().call({ action: 'list_balance_transactions', type: 'payout_return', source: failed.id });
    expect([none.status, none.body.data]).toEqual([200, []]);
    for (const query of [{ source: failed.id }, { type: 'topup', source: failed.id }, { type: 'payout', source: 'not an id' }]) {
      const res = await api().call({ action: 'list_balance_transactions', ...query });
      expect([res.status, res.body.error?.param], JSON.stringify(query)).toEqual([400, 'source']);
    }
  });
});
