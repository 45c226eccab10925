import { describe, expect, it } from 'vitest';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { callApi, useTestApi, withdrawal } from '../helpers/api-server';
import { apiTargets } from '../helpers/api-targets';
import { ledgerCheck } from '../../testing/ledger';

describe.each(apiTargets)('balance and payouts ($name)', (backend) => {
  const api = useTestApi(backend, { openingBalance: 1_000_000 });

  it('get_balance returns the balance object in integers of the smallest unit', async () => {
    const res = await api().call({ action: 'get_balance' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'balance',
      merchant: { id: api().merchant.id, name: 'Test Shop' },
      currency: 'IDR',
      available: 1_000_000,
      pending_payouts: 0,
      pending_refunds: 0,
      awaiting_approval: 0,
      livemode: false,
    });
  });

  it('withdraw creates a pending payout and debits available in the same transaction', async () => {
    const res = await api().call(withdrawal(250_000), { idempotencyKey: 'p-1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'payout',
      id: expect.stringMatching(/^po_[0-9A-Za-z]{24}$/),
      amount: 250_000,
      currency: 'IDR',
      bank_code: 'BCA',
      account_last4: '7890',
      status: 'pending',
      failure_code: null,
    });
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(res.text).not.toContain('1234567890');
    const balance = await api().call({ action: 'get_balance' });
    expect(balance.body).toMatchObject({ available: 750_000, pending_payouts: 250_000 });
    expect(await ledgerCheck(api().db, api().merchant.id)).toEqual({
      available: 750_000,
      ledger: 750_000,
      pending: 250_000,
      pendingSum: 250_000,
      payouts: 1,
    });
  });

  it('refuses a withdrawal above available with 422 insufficient_funds and changes nothing', async () => {
    const res = await api().call(withdrawal(750_001));
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'insufficient_funds', param: 'amount' });
    const check = await ledgerCheck(api().db, api().merchant.id);
    expect(check).toMatchObject({ available: 750_000, ledger: 750_000, payouts: 1 });
    expect(check.pending).toBe(check.pendingSum);
  });

  it('allows a withdrawal of exactly the available balance, down to zero', async () => {
    const other = await createMerchant(api().db, { name: 'Exact', openingBalance: 40_000 });
    const res = await callApi(api().url, other.secretKey, withdrawal(40_000));
    expect(res.status).toBe(200);
    const check = await ledgerCheck(api().db, other.id);
    expect(check).toMatchObject({ available: 0, ledger: 0, payouts: 1 });
    expect(check.pending).toBe(check.pendingSum);
  });

  it('get_payout returns the payout; another merchant gets the same 404 as for a missing id', async () => {
    const created = await api().call(withdrawal(10_000));
    const own = await api().call({ action: 'get_payout', id: created.body.id });
    expect(own.body).toEqual(created.body);

    const stranger = await createMerchant(api().db, { name: 'Stranger', openingBalance: 0 });
    const foreign = await callApi(api().url, stranger.secretKey, { action: 'get_payout', id: created.body.id });
    const missing = await callApi(api().url, stranger.secretKey, { action: 'get_payout', id: 'po_doesnotexist0000000000' });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect(foreign.body.error.message.replace(created.body.id, 'X')).toBe(
      missing.body.error.message.replace('po_doesnotexist0000000000', 'X'),
    );
  });

  it('list_payouts pages newest first with a cursor and has_more', async () => {
    const shop = await createMerchant(api().db, { name: 'Lister', openingBalance: 1_000_000 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await callApi(api().url, shop.secretKey, withdrawal(10_000 + i))).body.id);
    const newestFirst = [...ids].reverse();

    const page1 = await callApi(api().url, shop.secretKey, { action: 'list_payouts', limit: 2 });
    expect(page1.body).toMatchObject({ object: 'list', has_more: true });
    expect(page1.body.data.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(0, 2));
    const page2 = await callApi(api().url, shop.secretKey, { action: 'list_payouts', limit: 2, starting_after: newestFirst[1] });
    expect(page2.body.data.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(2, 4));
    const page3 = await callApi(api().url, shop.secretKey, { action: 'list_payouts', limit: 2, starting_after: newestFirst[3] });
    expect(page3.body).toMatchObject({ has_more: false, data: [{ id: newestFirst[4] }] });

    const all = await callApi(api().url, shop.secretKey, { action: 'list_payouts' });
    expect(all.body.data).toHaveLength(5);
    const pendingOnly = await callApi(api().url, shop.secretKey, { action: 'list_payouts', status: 'paid' });
    expect(pendingOnly.body.data).toEqual([]);

    const foreignCursor = await api().call({ action: 'list_payouts', starting_after: ids[0] });
    expect(foreignCursor.status).toBe(404);
    expect(foreignCursor.body.error.param).toBe('starting_after');
  });
});
