// Batch payouts: one request, one key, one transaction; all items reserved together or none.
import { describe, expect, it } from 'vitest';
import { compactBatchCounts } from '@/lib/payments/payouts/batch-counts';
import { expireUnapprovedPayouts } from '@/lib/payments/payouts/payout-approvals';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import { callApi, useTestApi } from '../helpers/api-server';
import { apiTargets } from '../helpers/api-targets';
import { ledgerCheck } from '../../testing/ledger';

const item = (amount: number, account = '1234567890', reference?: string) => ({
  amount,
  bank_code: 'BNI',
  account_number: account,
  ...(reference ? { reference } : {}),
});

describe.each(apiTargets)('payout batches ($name)', (target) => {
  // Not 0: the server's own settlement job must not settle a batch between a test's two looks at the ledger.
  const api = useTestApi(target, { openingBalance: 50_000_000, settings: { settlementDelaySeconds: 30 } });

  it('reserves the whole batch in one go: a payout and a ledger entry per item, balance_after exact', async () => {
    const before = await ledgerCheck(api().db, api().merchant.id);
    const res = await api().call(
      { action: 'create_payout_batch', payouts: [item(100_000, '1234567890', 'inv-1'), item(200_000, '4000000001'), item(300_000)] },
      { idempotencyKey: 'batch-1' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'payout_batch',
      status: 'processing',
      currency: 'IDR',
      total_amount: 600_000,
      payout_count: 3,
      counts: { pending: 3, paid: 0, failed: 0 },
      livemode: false,
    });
    expect(res.body.id).toMatch(/^pb_/);
    expect(res.body.payout_ids).toHaveLength(3);
    const after = await ledgerCheck(api().db, api().merchant.id);
    expect(after).toMatchObject({
      available: before.available - 600_000,
      ledger: before.available - 600_000,
      pending: before.pending + 600_000,
      payouts: before.payouts + 3,
    });
    expect(after.pending).toBe(after.pendingSum);
    // One entry per item, in item order, each with the balance as if debited one by one.
    const entries = await api().db.query<{ reference_id: string; amount: number; balance_after: number }>(
      `SELECT reference_id, amount, balance_after FROM ledger_entries WHERE reference_id = ANY($1::text[]) ORDER BY id`,
      [res.body.payout_ids],
    );
    expect(entries).toEqual([
      { reference_id: res.body.payout_ids[0], amount: -100_000, balance_after: before.available - 100_000 },
      { reference_id: res.body.payout_ids[1], amount: -200_000, balance_after: before.available - 300_000 },
      { reference_id: res.body.payout_ids[2], amount: -300_000, balance_after: before.available - 600_000 },
    ]);
    const listed = await api().call({ action: 'list_payouts', batch_id: res.body.id, limit: 10 });
    expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual([...res.body.payout_ids].reverse());
    expect(listed.body.data[2]).toMatchObject({ batch_id: res.body.id, reference: 'inv-1', amount: 100_000 });

    // Each payout settles on its own; the batch counts them (the server's job may be the one that settles them).
    await api().db.query(`UPDATE payouts SET settle_after = now() WHERE batch_id = $1`, [res.body.id]);
    await settleDuePayouts(api().db);
    await expect.poll(async () => (await api().call({ action: 'get_payout_batch', id: res.body.id })).body.status).toBe('completed');
    const got = await api().call({ action: 'get_payout_batch', id: res.body.id });
    expect(got.body).toMatchObject({ status: 'completed', counts: { pending: 0, paid: 2, failed: 1 }, payout_ids: res.body.payout_ids });
    const list = await api().call({ action: 'list_payout_batches', limit: 1 });
    expect(list.body.data[0].id).toBe(res.body.id);

    // A retry with the same key replays the same answer and creates nothing.
    const again = await api().call(
      { action: 'create_payout_batch', payouts: [item(100_000, '1234567890', 'inv-1'), item(200_000, '4000000001'), item(300_000)] },
      { idempotencyKey: 'batch-1' },
    );
    expect(again.headers.get('x-service-idempotent-replayed')).toBe('true');
    expect(again.text).toBe(res.text);
    expect((await ledgerCheck(api().db, api().merchant.id)).payouts).toBe(before.payouts + 3);
    // The stored answer keeps no copy of the payout ids (the payouts hold them); the replay and the
    // idempotency record put them back.
    const [stored] = await api().db.query<{ response_body: string }>(
      `SELECT response_body FROM idempotency_keys WHERE key = 'batch-1' AND merchant_id = $1`,
      [api().merchant.id],
    );
    expect(JSON.parse(stored!.response_body).payout_ids).toEqual([]);
    const record = await api().call({ action: 'get_idempotent_request', idempotency_key: 'batch-1' });
    expect(JSON.stringify(record.body.response)).toBe(res.text);
  });

  it('keeps who made a batch once, on the batch: each payout answers it in get, list and its event (migration 075)', async () => {
    const res = await api().call({ action: 'create_payout_batch', payouts: [item(10_000), item(20_000)] });
    expect(res.status).toBe(200);
    const [id] = res.body.payout_ids as string[];
    const stored = await api().db.query<{ payout: unknown; batch: { key_id: string; type: string } }>(
      'SELECT p.created_by AS payout, b.created_by AS batch FROM payouts p JOIN payout_batches b ON b.id = p.batch_id WHERE p.id = $1',
      [id],
    );
    expect(stored[0]!.payout).toBeNull();
    const createdBy = stored[0]!.batch;
    expect(createdBy).toMatchObject({ key_id: expect.stringMatching(/^key_/), type: 'secret' });
    expect((await api().call({ action: 'get_payout', id })).body.created_by).toEqual(createdBy);
    const list = (await api().call({ action: 'list_payouts', batch_id: res.body.id })).body.data as { created_by: unknown }[];
    expect(list.map((p) => p.created_by)).toEqual([createdBy, createdBy]);
    const [event] = (await api().call({ action: 'list_events', object_id: id })).body.data as {
      data: { object: { created_by: unknown } };
    }[];
    expect(event!.data.object.created_by).toEqual(createdBy);
    // The batch answers it too, made, got and listed alike (the console's list of batches shows who made each).
    expect(res.body.created_by).toEqual(createdBy);
    expect((await api().call({ action: 'get_payout_batch', id: res.body.id })).body.created_by).toEqual(createdBy);
    const batches = (await api().call({ action: 'list_payout_batches', limit: 100 })).body.data as { id: string; created_by: unknown }[];
    expect(batches.find((b) => b.id === res.body.id)!.created_by).toEqual(createdBy);
    const rk = (await api().call({ action: 'create_restricted_key', name: 'Payroll', permissions: ['payouts:write', 'payouts:read'] }))
      .body;
    const byRestricted = await api().call({ action: 'create_payout_batch', payouts: [item(10_000)] }, { key: rk.secret });
    expect(byRestricted.body.created_by).toEqual({ key_id: rk.id, key_name: 'Payroll', type: 'restricted' });
    expect((await api().call({ action: 'get_payout_batch', id: byRestricted.body.id })).body.created_by).toEqual(
      byRestricted.body.created_by,
    );
  });

  it('validates every item first: a bad one is a 400 naming it, and nothing is created', async () => {
    const before = await ledgerCheck(api().db, api().merchant.id);
    const payouts = Array.from({ length: 20 }, () => item(10_000));
    payouts[17] = { ...item(10_000), account_number: '12ab' };
    const res = await api().call({ action: 'create_payout_batch', payouts });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'payouts[17].account_number' });
    const unknownField = await api().call({ action: 'create_payout_batch', payouts: [item(10_000), { ...item(10_000), memo: 'x' }] });
    expect(unknownField.body.error.param).toBe('payouts[1].memo');
    for (const bad of [[], Array.from({ length: 1001 }, () => item(10_000))]) {
      const r = await api().call({ action: 'create_payout_batch', payouts: bad });
      expect([r.status, r.body.error.param]).toEqual([400, 'payouts']);
    }
    expect(await ledgerCheck(api().db, api().merchant.id)).toEqual(before);
  });

  it('refuses the whole batch when its total is not covered: nothing reserved, no payout', async () => {
    const before = await ledgerCheck(api().db, api().merchant.id);
    const payouts = [item(before.available - 10_000 > 100_000_000 ? 100_000_000 : before.available - 10_000), item(20_000)];
    const res = await api().call({ action: 'create_payout_batch', payouts }, { idempotencyKey: 'batch-too-big' });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'insufficient_funds', param: 'payouts' });
    expect(await ledgerCheck(api().db, api().merchant.id)).toEqual(before);
    expect(
      (
        await api().db.query(`SELECT 1 FROM payout_batches WHERE merchant_id = $1 AND total_amount = $2`, [
          api().merchant.id,
          payouts[0]!.amount + 20_000,
        ])
      ).length,
    ).toBe(0);
  });

  it('takes 1,000 items in one request', async () => {
    const res = await api().call({
      action: 'create_payout_batch',
      payouts: Array.from({ length: 1000 }, (_, i) => item(10_000, String(1_000_000 + i))),
    });
    expect(res.status).toBe(200);
    expect(res.body.payout_count).toBe(1000);
    const check = await ledgerCheck(api().db, api().merchant.id);
    expect(check.ledger).toBe(check.available);
    expect(check.pending).toBe(check.pendingSum);
  });

  it('keeps counts exact through settlement, approval, rejection and expiry; a list leaves payout ids out, get has them', async () => {
    const { db } = api();
    /** The batch's counts as get and the list answer them, and as a count of its payouts. */
    const counts = async (id: string) => {
      const rows = await db.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM payouts WHERE batch_id = $1 GROUP BY status',
        [id],
      );
      const scanned = {
        pending: 0,
        paid: 0,
        failed: 0,
        awaiting_approval: 0,
        rejected: 0,
        expired: 0,
        returned: 0,
        ...Object.fromEntries(rows.map((r) => [r.status, r.n])),
      };
      const got = (await api().call({ action: 'get_payout_batch', id })).body;
      const listed = (await api().call({ action: 'list_payout_batches', limit: 100 })).body.data.find((b: { id: string }) => b.id === id);
      expect([got.counts, listed.counts]).toEqual([scanned, scanned]);
      return scanned;
    };
    // Every key's payouts above 50,000 wait for approval; another key approves and rejects them.
    expect(
      (await api().call({ action: 'update_payout_approval_policy', required: true, above_amount: 50_000, for_keys: 'all' })).status,
    ).toBe(200);
    const approver = (
      await api().call({ action: 'create_restricted_key', name: 'Approver', permissions: ['payouts:approve', 'payouts:read'] })
    ).body.secret;
    const small = [item(10_000), item(20_000, '4000000001'), item(30_000), item(40_000, '4000000001')];
    const big = Array.from({ length: 6 }, (_, i) => item(60_000 + i, String(2_000_000 + i)));
    // Without an idempotency key the answer is built from the rows: the same bytes as a get of the batch.
    const created = await api().call({ action: 'create_payout_batch', payouts: [...small, ...big] });
    expect(created.text).toBe((await api().call({ action: 'get_payout_batch', id: created.body.id })).text);
    const id = created.body.id;
    const waiting = created.body.payout_ids.slice(4) as string[];
    expect(await counts(id)).toMatchObject({ pending: 4, awaiting_approval: 6 });

    expect(
      (await callApi(api().url, approver, { action: 'approve_payouts', ids: waiting.slice(0, 2) }, { idempotencyKey: 'approve-2' })).status,
    ).toBe(200);
    expect(await counts(id)).toMatchObject({ pending: 6, awaiting_approval: 4 });
    await compactBatchCounts(db, 1);
    expect(
      (
        await callApi(
          api().url,
          approver,
          { action: 'reject_payouts', ids: waiting.slice(2, 4), reason: 'Duplicate' },
          { idempotencyKey: 'reject-2' },
        )
      ).status,
    ).toBe(200);
    expect(await counts(id)).toMatchObject({ pending: 6, awaiting_approval: 2, rejected: 2 });
    await db.query(`UPDATE payouts SET approval_expires_at = now() - interval '1 second' WHERE id = ANY($1::text[])`, [waiting.slice(4)]);
    await expireUnapprovedPayouts(db);
    await expect.poll(async () => (await counts(id)).expired).toBe(2);
    while ((await compactBatchCounts(db)) > 0);
    await db.query(`UPDATE payouts SET settle_after = now() WHERE batch_id = $1 AND status = 'pending'`, [id]);
    await settleDuePayouts(db);
    // The server's own job may be the one settling them: exact once they all have.
    await expect.poll(async () => (await counts(id)).pending).toBe(0);
    expect(await counts(id)).toEqual({ pending: 0, paid: 4, failed: 2, awaiting_approval: 0, rejected: 2, expired: 2, returned: 0 });
    // The bank returns one of the paid ones: it moves from paid to returned.
    const [paidOne] = await db.query<{ id: string }>(`SELECT id FROM payouts WHERE batch_id = $1 AND status = 'paid' LIMIT 1`, [id]);
    expect((await api().call({ action: 'simulate_payout', id: paidOne!.id, outcome: 'returned' })).status).toBe(200);
    expect(await counts(id)).toEqual({ pending: 0, paid: 3, failed: 2, awaiting_approval: 0, rejected: 2, expired: 2, returned: 1 });
    const [rows] = await db.query<{ merged: number }>(
      'SELECT count(*) FILTER (WHERE merged)::int AS merged FROM payout_batch_counts WHERE batch_id = $1',
      [id],
    );
    expect(rows!.merged).toBeGreaterThan(0);

    // The list answers each batch without its payout ids; get has them, in item order.
    const page = (await api().call({ action: 'list_payout_batches', limit: 100 })).body.data as Record<string, unknown>[];
    expect(page.length).toBeGreaterThan(1);
    for (const b of page)
      expect(Object.keys(b)).toEqual([
        'object',
        'id',
        'status',
        'currency',
        'total_amount',
        'payout_count',
        'counts',
        'created_at',
        'livemode',
        'created_by',
      ]);
    const got = (await api().call({ action: 'get_payout_batch', id })).body;
    expect(got).toMatchObject({ status: 'completed', payout_ids: created.body.payout_ids });
    expect(page.find((b) => b.id === id)).toEqual(Object.fromEntries(Object.entries(got).filter(([k]) => k !== 'payout_ids')));
    expect((await api().call({ action: 'update_payout_approval_policy', required: false })).status).toBe(200);
  });
});
