// Test-mode helpers: payouts and payments driven into every state at once, through the real paths.
import { describe, expect, it } from 'vitest';
import { useTestApi, withdrawal } from '../helpers/api-server';
import { apiTargets } from '../helpers/api-targets';
import { ledgerCheck } from '../../testing/ledger';

describe.each(apiTargets)('test-mode helpers ($name)', (target) => {
  // A settlement delay of an hour: only the helpers settle anything here.
  const api = useTestApi(target, { openingBalance: 1_000_000, settings: { settlementDelaySeconds: 3600 } });

  it('simulate_payout pays or fails a pending payout now, with the ledger exact, and refuses a settled one', async () => {
    const paid = (await api().call(withdrawal(100_000))).body;
    const failed = (await api().call(withdrawal(50_000))).body;
    const before = await ledgerCheck(api().db, api().merchant.id);

    const p = await api().call({ action: 'simulate_payout', id: paid.id, outcome: 'paid' }, { idempotencyKey: `sim-${paid.id}` });
    expect(p.body).toMatchObject({ id: paid.id, status: 'paid', settled_at: expect.any(String), failure_code: null });
    const f = await api().call({ action: 'simulate_payout', id: failed.id, outcome: 'failed', failure_code: 'invalid_account' });
    expect(f.body).toMatchObject({ id: failed.id, status: 'failed', failure_code: 'invalid_account', failure_message: expect.any(String) });

    const after = await ledgerCheck(api().db, api().merchant.id);
    expect(after.available).toBe(before.available + 50_000); // the failed one came back
    expect(after.ledger).toBe(after.available);
    expect(after.pending).toBe(before.pending - 150_000);
    expect(after.pending).toBe(after.pendingSum);
    const reversals = await api().db.query(`SELECT amount FROM ledger_entries WHERE kind = 'payout_reversal' AND reference_id = $1`, [
      failed.id,
    ]);
    expect(reversals).toEqual([{ amount: 50_000 }]);

    // A retry with the same key replays; a new attempt on a settled payout is refused.
    const replay = await api().call({ action: 'simulate_payout', id: paid.id, outcome: 'paid' }, { idempotencyKey: `sim-${paid.id}` });
    expect(replay.headers.get('x-service-idempotent-replayed')).toBe('true');
    const again = await api().call({ action: 'simulate_payout', id: paid.id, outcome: 'failed' });
    expect([again.status, again.body.error.code]).toEqual([409, 'payout_not_pending']);
    const missing = await api().call({ action: 'simulate_payout', id: 'po_nope', outcome: 'paid' });
    expect(missing.status).toBe(404);
  });

  it('simulate_checkout_payment pays an open session as the hosted page would, and refuses a paid one or a declined card', async () => {
    const session = (await api().call({ action: 'create_checkout_session', amount: 25_000 })).body;
    const before = await ledgerCheck(api().db, api().merchant.id);
    const declined = await api().call({ action: 'simulate_checkout_payment', id: session.id, card_number: '4000000000000002' });
    expect([declined.status, declined.body.error.code]).toEqual([402, 'card_declined']);
    const paid = await api().call({ action: 'simulate_checkout_payment', id: session.id });
    expect(paid.body).toMatchObject({ id: session.id, status: 'complete', completed_at: expect.any(String) });
    expect((await ledgerCheck(api().db, api().merchant.id)).available).toBe(before.available + 25_000);
    const twice = await api().call({ action: 'simulate_checkout_payment', id: session.id });
    expect([twice.status, twice.body.error.code]).toEqual([409, 'checkout_session_not_open']);
  });

  it('create_test_topup adds to available with a ledger entry of its own kind', async () => {
    const before = await ledgerCheck(api().db, api().merchant.id);
    const res = await api().call({ action: 'create_test_topup', amount: 7_000_000 }, { idempotencyKey: 'topup-1' });
    expect(res.body).toMatchObject({ object: 'balance', available: before.available + 7_000_000 });
    await api().call({ action: 'create_test_topup', amount: 7_000_000 }, { idempotencyKey: 'topup-1' }); // replay: once
    const after = await ledgerCheck(api().db, api().merchant.id);
    expect(after.available).toBe(before.available + 7_000_000);
    expect(after.ledger).toBe(after.available);
    const kinds = await api().db.query(`SELECT kind, amount FROM ledger_entries WHERE kind = 'topup'`);
    expect(kinds).toEqual([{ kind: 'topup', amount: 7_000_000 }]);
    const tooMuch = await api().call({ action: 'create_test_topup', amount: 0 });
    expect([tooMuch.status, tooMuch.body.error.param]).toEqual([400, 'amount']);
  });
});
