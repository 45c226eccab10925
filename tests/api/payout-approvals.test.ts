// Payout approvals (maker-checker) and the account holder's name (docs/api.md, "Payout approvals"), on PGlite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { createLogger } from '@/lib/log';
import { expireUnapprovedPayouts } from '@/lib/payments/payouts/payout-approvals';
import { startBackgroundJobs } from '@/lib/server/background-jobs';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import type { Queryable } from '@/lib/db/types';
import { callApi, useTestApi, withdrawal, type TestApi } from '../helpers/api-server';
import { backends } from '../../testing/databases';

const as = (api: TestApi, key: string) => (body: Record<string, unknown>, idempotencyKey?: string) =>
  callApi(api.url, key, body, { idempotencyKey });

/**
 * The balance's three figures and what explains each, in one snapshot: available is the
 * sum of the ledger, pending_payouts the sum of pending payouts, awaiting_approval the
 * sum of payouts awaiting approval; and their total only ever drops by what was paid.
 */
async function figures(db: Queryable, merchantId: string) {
  const [row] = await db.query<Record<string, number>>(
    `SELECT b.available, b.pending_payouts AS pending, b.awaiting_approval AS awaiting,
            (SELECT COALESCE(sum(amount), 0) FROM ledger_entries WHERE merchant_id = $1) AS ledger,
            (SELECT COALESCE(sum(amount), 0) FROM payouts WHERE merchant_id = $1 AND status = 'pending') AS "pendingSum",
            (SELECT COALESCE(sum(amount), 0) FROM payouts WHERE merchant_id = $1 AND status = 'awaiting_approval') AS "awaitingSum",
            (SELECT COALESCE(sum(amount), 0) FROM payouts WHERE merchant_id = $1 AND status = 'paid') AS paid
     FROM balances b WHERE b.merchant_id = $1`,
    [merchantId],
  );
  const f = row!;
  expect(f.available, 'available is the sum of the ledger').toBe(f.ledger);
  expect(f.pending, 'pending_payouts is the sum of pending payouts').toBe(f.pendingSum);
  expect(f.awaiting, 'awaiting_approval is the sum of waiting payouts').toBe(f.awaitingSum);
  return {
    available: f.available!,
    pending: f.pending!,
    awaiting: f.awaiting!,
    total: f.available! + f.pending! + f.awaiting!,
    paid: f.paid!,
  };
}

const eventsOf = async (db: Queryable, id: string) =>
  (await db.query<{ type: string }>('SELECT type FROM events WHERE object_id = $1 ORDER BY seq', [id])).map((e) => e.type);

describe.each(backends)('payout approvals ($name)', (backend) => {
  const groups: number[] = [];
  const api = useTestApi(backend, {
    openingBalance: 50_000_000,
    settings: { settlementDelaySeconds: 0 },
    onGroup: (size) => groups.push(size),
  });
  const secret = () => as(api(), api().merchant.secretKey);
  const keys: Record<string, { id: string; secret: string }> = {};
  const key = async (name: string, permissions: string[]) => {
    if (!keys[name]) {
      const res = await secret()({ action: 'create_restricted_key', name, permissions });
      expect(res.status, res.text).toBe(200);
      keys[name] = res.body;
    }
    return keys[name]!;
  };
  const support = async () => as(api(), (await key('Support — Ana', ['payouts:write', 'payouts:read'])).secret);
  const approver = async () => as(api(), (await key('Finance — Budi', ['payouts:approve', 'payouts:read'])).secret);
  const policy = (body: Record<string, unknown>) => secret()({ action: 'update_payout_approval_policy', ...body });
  const state = () => figures(api().db, api().merchant.id);

  it('is off by default: payouts leave at once, as before; the policy reads back', async () => {
    const got = await (await support())({ action: 'get_payout_approval_policy' });
    expect(got.body).toMatchObject({
      object: 'payout_approval_policy',
      required: false,
      above_amount: 0,
      for_keys: 'restricted',
      expires_after_seconds: 604_800,
      updated_at: null,
    });
    const res = await (await support())(withdrawal(20_000));
    expect(res.body).toMatchObject({
      status: 'pending',
      account_holder_name: 'Budi Santoso',
      approval_expires_at: null,
      approved_by: null,
    });
    expect((await api().call({ action: 'get_balance' })).body.awaiting_approval).toBe(0);
  });

  it('holds what the policy catches: awaiting_approval, out of available, nothing sent; events created then awaiting_approval', async () => {
    expect((await policy({ required: true, above_amount: 100_000 })).body).toMatchObject({
      required: true,
      above_amount: 100_000,
      for_keys: 'restricted',
    });
    const before = await state();
    const sup = await support();
    const small = (await sup(withdrawal(100_000))).body; // not above the threshold
    const big = (await sup(withdrawal(100_001, { account_number: '9876543210' }))).body;
    const own = (await secret()(withdrawal(500_000))).body; // the secret key is not caught with for_keys "restricted"
    expect([small.status, big.status, own.status]).toEqual(['pending', 'awaiting_approval', 'pending']);
    expect(big).toMatchObject({ account_holder_name: 'Siti Rahayu', created_by: { type: 'restricted', key_name: 'Support — Ana' } });
    expect(Date.parse(big.approval_expires_at) - Date.parse(big.created_at)).toBe(604_800_000);
    const after = await state();
    expect(after).toMatchObject({
      available: before.available - 700_001,
      pending: before.pending + 600_000,
      awaiting: before.awaiting + 100_001,
      total: before.total,
    });
    expect(await eventsOf(api().db, big.id)).toEqual(['payout.created', 'payout.awaiting_approval']);
    // Not sent: settlement leaves it alone.
    await settleDuePayouts(api().db);
    expect((await api().call({ action: 'get_payout', id: big.id })).body.status).toBe('awaiting_approval');
    expect((await api().call({ action: 'simulate_payout', id: big.id, outcome: 'paid' })).status).toBe(409);
    // The new statuses filter lists and summaries.
    const listed = await api().call({ action: 'list_payouts', status: 'awaiting_approval', limit: 100 });
    expect(listed.body.data.map((p: { id: string }) => p.id)).toContain(big.id);
    expect(listed.body.data.every((p: { status: string }) => p.status === 'awaiting_approval')).toBe(true);
    const summary = await api().call({ action: 'summarize_payouts', status: 'awaiting_approval' });
    expect(summary.body).toMatchObject({ count: listed.body.data.length, total_amount: after.awaiting });
  });

  it('approves with another key: pending, approved_by, paid by settlement; the figures exact at each step', async () => {
    await policy({ required: true });
    const w = (await (await support())(withdrawal(150_000))).body;
    const before = await state();
    const res = await (await approver())({ action: 'approve_payouts', ids: [w.id] }, 'approve-1');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data[0]).toMatchObject({
      id: w.id,
      status: 'pending',
      approved_by: { key_id: keys['Finance — Budi']!.id, key_name: 'Finance — Budi' },
    });
    expect(res.body.data[0].approved_at).not.toBeNull();
    expect(await state()).toMatchObject({
      available: before.available,
      pending: before.pending + 150_000,
      awaiting: before.awaiting - 150_000,
      total: before.total,
    });
    // A replay answers the same, changes nothing, reports nothing twice.
    const again = await (await approver())({ action: 'approve_payouts', ids: [w.id] }, 'approve-1');
    expect([again.status, again.headers.get('x-service-idempotent-replayed'), again.text]).toEqual([200, 'true', res.text]);
    await settleDuePayouts(api().db);
    expect((await api().call({ action: 'get_payout', id: w.id })).body).toMatchObject({
      status: 'paid',
      approved_by: { key_name: 'Finance — Budi' },
    });
    const after = await state();
    // Settlement paid this payout (and any other pending one): the total dropped by exactly what was paid.
    expect(after.paid - before.paid).toBeGreaterThanOrEqual(150_000);
    expect(after.total).toBe(before.total - (after.paid - before.paid));
    expect(await eventsOf(api().db, w.id)).toEqual(['payout.created', 'payout.awaiting_approval', 'payout.approved', 'payout.paid']);
    const approved = (await api().call({ action: 'list_events', object_id: w.id, type: 'payout.approved' })).body.data[0];
    expect(approved.data.object).toMatchObject({
      status: 'pending',
      approved_by: { key_name: 'Finance — Budi' },
      account_holder_name: 'Budi Santoso',
    });
  });

  it('four eyes: the key that made a payout cannot decide it (403); the secret key can decide what others made', async () => {
    await policy({ required: true, for_keys: 'all' });
    const mine = (await secret()(withdrawal(30_000))).body;
    const theirs = (await (await support())(withdrawal(40_000))).body;
    const before = await state();
    const self = await secret()({ action: 'approve_payouts', ids: [theirs.id, mine.id] });
    expect([self.status, self.body.error.code, self.body.error.param]).toEqual([403, 'self_approval_not_allowed', 'ids[1]']);
    const selfReject = await secret()({ action: 'reject_payouts', ids: [mine.id], reason: 'oops' });
    expect(selfReject.body.error.code).toBe('self_approval_not_allowed');
    // A key with payouts:approve that also made the payout is refused the same way.
    const both = as(api(), (await key('Both', ['payouts:write', 'payouts:approve'])).secret);
    const made = (await both(withdrawal(25_000))).body;
    expect((await both({ action: 'approve_payouts', ids: [made.id] })).body.error.code).toBe('self_approval_not_allowed');
    // Without payouts:approve: permission_denied.
    expect((await (await support())({ action: 'approve_payouts', ids: [mine.id] })).body.error.code).toBe('permission_denied');
    expect((await state()).awaiting).toBe(before.awaiting + 25_000);
    expect((await api().call({ action: 'approve_payouts', ids: [theirs.id] })).body.data[0].status).toBe('pending');
    expect((await (await approver())({ action: 'approve_payouts', ids: [mine.id, made.id] })).status).toBe(200);
  });

  it("is all or nothing: one id not waiting (409) or not the merchant's (404) refuses the call naming it; nothing changes", async () => {
    await policy({ required: true });
    const sup = await support();
    const [a, b] = [(await sup(withdrawal(11_000))).body, (await sup(withdrawal(12_000))).body];
    const paid = (await sup(withdrawal(13_000))).body;
    await (
      await approver()
    )({ action: 'approve_payouts', ids: [paid.id] });
    const before = await state();
    const eventsBefore = await api().db.query('SELECT count(*)::int AS n FROM events');
    const notWaiting = await (await approver())({ action: 'approve_payouts', ids: [a.id, paid.id, b.id] }, 'all-or-nothing');
    expect([notWaiting.status, notWaiting.body.error.code, notWaiting.body.error.param]).toEqual([
      409,
      'payout_not_awaiting_approval',
      'ids[1]',
    ]);
    // Its replay is the same refusal.
    expect((await (await approver())({ action: 'approve_payouts', ids: [a.id, paid.id, b.id] }, 'all-or-nothing')).text).toBe(
      notWaiting.text,
    );
    const missing = await (await approver())({ action: 'reject_payouts', ids: [a.id, 'po_doesnotexist'], reason: 'x' });
    expect([missing.status, missing.body.error.code, missing.body.error.param]).toEqual([404, 'not_found', 'ids[1]']);
    expect((await (await approver())({ action: 'approve_payouts', ids: [a.id, a.id] })).body.error).toMatchObject({
      code: 'invalid_request',
      param: 'ids',
    });
    expect((await (await approver())({ action: 'approve_payouts' })).body.error).toMatchObject({ code: 'invalid_request', param: 'ids' });
    expect((await (await approver())({ action: 'reject_payouts', ids: [a.id] })).body.error).toMatchObject({
      code: 'invalid_request',
      param: 'reason',
    });
    expect((await (await approver())({ action: 'approve_payouts', ids: Array.from({ length: 1001 }, (_, i) => `po_${i}`) })).status).toBe(
      400,
    );
    expect(await state()).toEqual(before);
    expect(await api().db.query('SELECT count(*)::int AS n FROM events')).toEqual(eventsBefore);
    for (const p of [a, b]) expect((await api().call({ action: 'get_payout', id: p.id })).body.status).toBe('awaiting_approval');
  });

  it("cannot touch another merchant's payouts (404)", async () => {
    const { createMerchant } = await import('@/lib/payments/merchants/merchants');
    const other = await createMerchant(api().db, { name: 'Other', openingBalance: 1_000_000 });
    await callApi(api().url, other.secretKey, { action: 'update_payout_approval_policy', required: true, for_keys: 'all' });
    const theirs = (await callApi(api().url, other.secretKey, withdrawal(50_000))).body;
    expect(theirs.status).toBe('awaiting_approval');
    const res = await (await approver())({ action: 'approve_payouts', ids: [theirs.id] });
    expect([res.status, res.body.error.code, res.body.error.param]).toEqual([404, 'not_found', 'ids[0]']);
  });

  it('rejects with a reason: rejected, the money back to available with a ledger entry, payout.rejected once', async () => {
    await policy({ required: true });
    const w = (await (await support())(withdrawal(60_000))).body;
    const before = await state();
    const res = await (await approver())({ action: 'reject_payouts', ids: [w.id], reason: 'Unknown supplier' }, 'reject-1');
    expect(res.body.data[0]).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Unknown supplier',
      rejected_by: { key_name: 'Finance — Budi' },
    });
    expect(await state()).toMatchObject({
      available: before.available + 60_000,
      awaiting: before.awaiting - 60_000,
      pending: before.pending,
      total: before.total,
    });
    const replay = await (await approver())({ action: 'reject_payouts', ids: [w.id], reason: 'Unknown supplier' }, 'reject-1');
    expect([replay.headers.get('x-service-idempotent-replayed'), replay.text]).toEqual(['true', res.text]);
    const entries = await api().db.query<{ kind: string; amount: number }>(
      'SELECT kind, amount FROM ledger_entries WHERE reference_id = $1 ORDER BY id',
      [w.id],
    );
    expect(entries).toEqual([
      { kind: 'payout', amount: -60_000 },
      { kind: 'payout_reversal', amount: 60_000 },
    ]);
    expect(await eventsOf(api().db, w.id)).toEqual(['payout.created', 'payout.awaiting_approval', 'payout.rejected']);
    expect((await (await approver())({ action: 'approve_payouts', ids: [w.id] })).body.error.code).toBe('payout_not_awaiting_approval');
  });

  it('holds every item of a batch; a whole batch is approved or rejected by batch_id', async () => {
    await policy({ required: true, above_amount: 50_000 });
    const before = await state();
    const items = [
      { amount: 60_000, bank_code: 'BNI', account_number: '1234567890' },
      { amount: 40_000, bank_code: 'BNI', account_number: '5555666677' },
      { amount: 70_000, bank_code: 'BRI', account_number: '1111222233', account_holder_name: 'pt. maju jaya' },
    ];
    const batch = (await (await support())({ action: 'create_payout_batch', payouts: items }, 'batch-approvals')).body;
    expect(batch.counts).toEqual({ pending: 1, paid: 0, failed: 0, awaiting_approval: 2, rejected: 0, expired: 0, returned: 0 });
    expect(await state()).toMatchObject({
      available: before.available - 170_000,
      pending: before.pending + 40_000,
      awaiting: before.awaiting + 130_000,
    });
    const listed = (await api().call({ action: 'list_payouts', batch_id: batch.id })).body.data;
    expect(listed.map((p: { account_holder_name: string }) => p.account_holder_name).sort()).toEqual([
      'Budi Santoso',
      'Dewi Lestari',
      'PT Maju Jaya',
    ]);
    const res = await (await approver())({ action: 'approve_payouts', batch_id: batch.id }, 'approve-batch');
    expect(res.body.data.map((p: { status: string }) => p.status)).toEqual(['pending', 'pending']);
    expect((await api().call({ action: 'get_payout_batch', id: batch.id })).body.counts).toMatchObject({
      pending: 3,
      awaiting_approval: 0,
    });
    // Nothing left waiting in it: 409 naming batch_id. Both ids and batch_id: 400.
    expect((await (await approver())({ action: 'reject_payouts', batch_id: batch.id, reason: 'late' })).body.error).toMatchObject({
      code: 'payout_not_awaiting_approval',
      param: 'batch_id',
    });
    expect((await (await approver())({ action: 'approve_payouts', batch_id: batch.id, ids: [listed[0].id] })).status).toBe(400);
    expect((await (await approver())({ action: 'approve_payouts', batch_id: 'pb_none' })).body.error).toMatchObject({
      code: 'not_found',
      param: 'batch_id',
    });

    const second = (await (await support())({ action: 'create_payout_batch', payouts: [items[0], items[2]] })).body;
    const mid = await state();
    const rejected = await (await approver())({ action: 'reject_payouts', batch_id: second.id, reason: 'Duplicate batch' });
    expect(rejected.body.data.map((p: { status: string }) => p.status)).toEqual(['rejected', 'rejected']);
    expect(await state()).toMatchObject({ available: mid.available + 130_000, awaiting: mid.awaiting - 130_000, total: mid.total });
    expect((await api().call({ action: 'get_payout_batch', id: second.id })).body).toMatchObject({
      status: 'completed',
      counts: { rejected: 2 },
    });
  });

  it('holds concurrent withdrawals committed as a group, each exactly as alone', async () => {
    await policy({ required: true, above_amount: 20_000 });
    const before = await state();
    const sup = await support();
    const amounts = Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? 15_000 : 25_000));
    groups.length = 0;
    const results = await Promise.all(amounts.map((a, i) => sup(withdrawal(a), `group-${i}`)));
    // On PostgreSQL some of them are committed together (PGlite answers too fast for them to overlap; the
    // group writer itself is tested with groups made directly in tests/payments/withdraw-group.test.ts).
    if (backend.name === 'postgres') expect(Math.max(...groups), 'some of them were committed together').toBeGreaterThan(1);
    results.forEach((r, i) => expect(r.body.status, r.text).toBe(amounts[i]! > 20_000 ? 'awaiting_approval' : 'pending'));
    expect(await state()).toMatchObject({
      available: before.available - 480_000,
      pending: before.pending + 180_000,
      awaiting: before.awaiting + 300_000,
    });
    for (const r of results.slice(0, 2)) {
      expect(await eventsOf(api().db, r.body.id)).toEqual(
        r.body.status === 'pending' ? ['payout.created'] : ['payout.created', 'payout.awaiting_approval'],
      );
      const event = (await api().call({ action: 'list_events', object_id: r.body.id, type: 'payout.created' })).body.data[0];
      expect(event.data.object).toEqual((await api().call({ action: 'get_payout', id: r.body.id })).body);
    }
    // Each answer (built before the statement, from the transaction's timestamp) is the payout as stored.
    for (const r of results.slice(0, 4)) expect(r.body).toEqual((await api().call({ action: 'get_payout', id: r.body.id })).body);
    // A replay of each answers as the first time.
    const replay = await sup(withdrawal(amounts[1]), 'group-1');
    expect(replay.text).toBe(results[1]!.text);
  });

  it('replays update_payout_approval_policy and refuses it to restricted keys', async () => {
    const first = await secret()(
      { action: 'update_payout_approval_policy', required: true, above_amount: 1_000_000, for_keys: 'all' },
      'policy-1',
    );
    const again = await secret()(
      { action: 'update_payout_approval_policy', required: true, above_amount: 1_000_000, for_keys: 'all' },
      'policy-1',
    );
    expect([again.headers.get('x-service-idempotent-replayed'), again.text]).toEqual(['true', first.text]);
    const denied = await (await approver())({ action: 'update_payout_approval_policy', required: false });
    expect([denied.status, denied.body.error.code]).toEqual([403, 'permission_denied']);
    expect((await secret()({ action: 'get_payout_approval_policy' })).body).toMatchObject({
      required: true,
      above_amount: 1_000_000,
      for_keys: 'all',
    });
  });

  it("checks the holder's name: validate_bank_account, names that match in any case, spacing, punctuation and order; a mismatch writes nothing", async () => {
    await policy({ required: false });
    const sup = await support();
    const valid = await sup({ action: 'validate_bank_account', bank_code: 'BCA', account_number: '1234567890' });
    expect(valid.body).toMatchObject({
      object: 'bank_account_validation',
      bank_code: 'BCA',
      account_last4: '7890',
      status: 'valid',
      account_holder_name: 'Budi Santoso',
      failure_code: null,
    });
    expect(valid.body.id).toMatch(/^bav_/);
    // Kept for 24 hours: the same answer again; the number never in clear.
    expect((await sup({ action: 'validate_bank_account', bank_code: 'BCA', account_number: '1234567890' })).body.id).toBe(valid.body.id);
    const stored = await api().db.query<Record<string, string>>('SELECT * FROM bank_account_validations WHERE id = $1', [valid.body.id]);
    expect(JSON.stringify(stored)).not.toContain('1234567890');
    expect(Date.parse(valid.body.expires_at) - Date.parse(valid.body.created_at)).toBe(86_400_000);
    const invalid = await sup({ action: 'validate_bank_account', bank_code: 'BNI', account_number: '4000000001' });
    expect(invalid.body).toMatchObject({ status: 'invalid', account_holder_name: null, failure_code: 'invalid_account' });
    // Any other account: a made-up name, the same every time.
    const [x, y] = [
      await sup({ action: 'validate_bank_account', bank_code: 'BRI', account_number: '31415926535' }),
      await sup({ action: 'validate_bank_account', bank_code: 'MANDIRI', account_number: '31415926535' }),
    ];
    expect(x.body.account_holder_name).toMatch(/^\p{L}+ \p{L}+$/u);
    expect(y.body.account_holder_name).toBe(x.body.account_holder_name);

    for (const name of ['Budi Santoso', 'SANTOSO, budi', '  budi   santoso. ', 'Búdi Santoso']) {
      const ok = await sup(withdrawal(10_000, { account_holder_name: name }));
      expect(ok.status, `${name}: ${ok.text}`).toBe(200);
      expect(ok.body.account_holder_name).toBe('Budi Santoso');
    }
    const before = await state();
    const count = await api().db.query('SELECT count(*)::int AS n FROM payouts');
    for (const [body, param] of [
      [withdrawal(10_000, { account_holder_name: 'Budi Santosa' }), 'account_holder_name'],
      [withdrawal(10_000, { account_holder_name: 'Budi' }), 'account_holder_name'],
      [withdrawal(10_000, { account_number: '4000000001', account_holder_name: 'Budi Santoso' }), 'account_holder_name'],
      [
        {
          action: 'create_payout_batch',
          payouts: [
            { amount: 10_000, bank_code: 'BCA', account_number: '1234567890' },
            { amount: 10_000, bank_code: 'BCA', account_number: '9876543210', account_holder_name: 'Budi Santoso' },
          ],
        },
        'payouts[1].account_holder_name',
      ],
    ] as const) {
      const res = await sup(body as Record<string, unknown>, `mismatch-${param}-${JSON.stringify(body).length}`);
      expect([res.status, res.body.error.code, res.body.error.param]).toEqual([422, 'account_name_mismatch', param]);
    }
    expect(await state()).toEqual(before);
    expect(await api().db.query('SELECT count(*)::int AS n FROM payouts')).toEqual(count);
  });
});

describe.each(backends)('payout approval expiry ($name)', (backend) => {
  const api = useTestApi(backend, { openingBalance: 5_000_000, settings: { settlementDelaySeconds: 0, payoutApprovalExpirySeconds: 1 } });

  it('expires an unapproved payout after PAYOUT_APPROVAL_EXPIRY_SECONDS: expired, money back, ledger entry, payout.expired once', async () => {
    const secret = as(api(), api().merchant.secretKey);
    await secret({ action: 'update_payout_approval_policy', required: true, for_keys: 'all' });
    const [a, b] = [(await secret(withdrawal(100_000))).body, (await secret(withdrawal(200_000, { account_number: '9876543210' }))).body];
    const before = await figures(api().db, api().merchant.id);
    expect(before.awaiting).toBe(300_000);
    expect(await expireUnapprovedPayouts(api().db)).toBe(0); // not yet
    await new Promise((r) => setTimeout(r, 1100));
    // Past its expiry, no key can approve it any more, even before the job has run.
    const approver = (await secret({ action: 'create_restricted_key', name: 'Late', permissions: ['payouts:approve'] })).body.secret;
    const late = await callApi(api().url, approver, { action: 'approve_payouts', ids: [a.id] });
    expect([late.status, late.body.error.code]).toEqual([409, 'payout_not_awaiting_approval']);
    // Two instances at once: each payout expires once.
    const [x, y] = await Promise.all([expireUnapprovedPayouts(api().db), expireUnapprovedPayouts(api().db)]);
    expect(x + y).toBe(2);
    const after = await figures(api().db, api().merchant.id);
    expect(after).toMatchObject({ available: before.available + 300_000, awaiting: 0, total: before.total });
    for (const p of [a, b]) {
      expect((await secret({ action: 'get_payout', id: p.id })).body.status).toBe('expired');
      expect(await eventsOf(api().db, p.id)).toEqual(['payout.created', 'payout.awaiting_approval', 'payout.expired']);
    }
    const entries = await api().db.query<{ reference_id: string; amount: number; balance_after: number }>(
      `SELECT reference_id, amount, balance_after FROM ledger_entries WHERE kind = 'payout_reversal' ORDER BY id`,
    );
    expect(entries.map((e) => e.amount).sort()).toEqual([100_000, 200_000]);
    expect(entries[1]!.balance_after).toBe(after.available);
    expect(await expireUnapprovedPayouts(api().db)).toBe(0);
  });

  it('is a background job of the runtime: a waiting payout past its expiry ends expired without anyone calling', async () => {
    const secret = as(api(), api().merchant.secretKey);
    await secret({ action: 'update_payout_approval_policy', required: true, for_keys: 'all' });
    const w = (await secret(withdrawal(50_000))).body;
    const runs: string[] = [];
    const jobs = startBackgroundJobs(api().db, createLogger({ level: 'silent' }), {
      idempotencyTtlSeconds: 86_400,
      publicOrigin: api().url,
      tickMs: 50,
      observe: (job, outcome) => runs.push(`${job}:${outcome}`),
    });
    try {
      await expect.poll(async () => (await secret({ action: 'get_payout', id: w.id })).body.status, { timeout: 10_000 }).toBe('expired');
    } finally {
      await jobs.stop();
    }
    expect(runs).toContain('payout_approval_expiry:ok');
    expect(await eventsOf(api().db, w.id)).toEqual(['payout.created', 'payout.awaiting_approval', 'payout.expired']);
    expect((await figures(api().db, api().merchant.id)).awaiting).toBe(0);
  });
});
