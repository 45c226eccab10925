// Sandboxes through the API (docs/testing-your-integration.md), on PGlite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/types';
import { purgeSandboxes } from '@/lib/payments/sandboxes/sandbox-purge';
import { callApi, useTestApi, withdrawal, type TestApi } from '../helpers/api-server';
import { sessionsWaitingFor } from '../helpers/lock-waits';
import { backends, postgresBackend, postgresUrl } from '../../testing/databases';

const as = (api: TestApi, key: string) => (body: Record<string, unknown>, idempotencyKey?: string) =>
  callApi(api.url, key, body, { idempotencyKey });

/** Every table with a merchant's rows, counted for one merchant (the batch counts through its batches). */
async function rowsOf(db: Db, merchantId: string) {
  const tables = [
    'merchants',
    'api_keys',
    'balances',
    'payouts',
    'payout_states',
    'payout_daily',
    'payout_batches',
    'checkout_sessions',
    'refunds',
    'events',
    'webhook_endpoints',
    'webhook_deliveries',
    'ledger_entries',
    'ledger_figures',
    'balance_daily',
    'idempotency_keys',
    'request_log',
    'sandboxes',
  ];
  const counts: Record<string, number> = {};
  for (const t of tables) {
    const column = t === 'merchants' ? 'id' : 'merchant_id';
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t} WHERE ${column} = $1`, [merchantId]);
    counts[t] = row!.n;
  }
  return counts;
}

/** What a merchant's books say: available, and the sum of its ledger, which must be equal. */
async function books(db: Db, merchantId: string) {
  const [row] = await db.query<{ available: number; ledger: number; payouts: number }>(
    `SELECT (SELECT available FROM balances WHERE merchant_id = $1) AS available,
            (SELECT COALESCE(sum(amount), 0) FROM ledger_entries WHERE merchant_id = $1) AS ledger,
            (SELECT count(*) FROM payouts WHERE merchant_id = $1)::int AS payouts`,
    [merchantId],
  );
  return { available: Number(row!.available), ledger: Number(row!.ledger), payouts: row!.payouts };
}

describe.each(backends)('sandboxes ($name)', (backend) => {
  const api = useTestApi(backend, { openingBalance: 50_000_000, settings: { settlementDelaySeconds: 3600 } });
  const parent = () => as(api(), api().merchant.secretKey);
  const newSandbox = async (fields: Record<string, unknown> = {}, idempotencyKey?: string) => {
    const res = await parent()({ action: 'create_sandbox', ...fields }, idempotencyKey);
    expect(res.status, res.text).toBe(200);
    return res.body as { id: string; merchant_id: string; secret_key: string; balance: number; expires_at: string; created_at: string };
  };

  it('makes an isolated merchant with an sk_test_ key shown once, and leaves the parent as it was', async () => {
    const before = await parent()({ action: 'get_balance' });
    const key = `sbx-${Math.random()}`;
    const sandbox = await newSandbox({ name: 'CI worker 0', balance: 2_000_000 }, key);
    expect(sandbox).toMatchObject({ object: 'sandbox', name: 'CI worker 0', balance: 2_000_000, test_clock: null });
    expect(sandbox.id).toMatch(/^sbx_/);
    expect(sandbox.secret_key).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
    const lifetime = Date.parse(sandbox.expires_at) - Date.parse(sandbox.created_at);
    expect(lifetime).toBe(86_400_000);
    // A replay answers the same sandbox without its key, as keys are.
    const replay = await parent()({ action: 'create_sandbox', name: 'CI worker 0', balance: 2_000_000 }, key);
    expect(replay.headers.get('x-service-idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual({ ...sandbox, secret_key: null });
    expect(JSON.stringify(await api().db.query('SELECT response_body FROM idempotency_keys'))).not.toContain(sandbox.secret_key);

    const mine = as(api(), sandbox.secret_key);
    const balance = await mine({ action: 'get_balance' });
    expect(balance.body).toMatchObject({ available: 2_000_000, merchant: { id: sandbox.merchant_id, name: 'CI worker 0' } });
    expect((await mine(withdrawal(50_000))).status).toBe(200);
    expect((await parent()({ action: 'get_balance' })).body).toEqual(before.body);
    expect((await parent()({ action: 'list_payouts' })).body.data).toEqual([]);
    const current = await mine({ action: 'get_current_key' });
    expect(current.body).toMatchObject({ type: 'secret', merchant: { id: sandbox.merchant_id } });
  });

  it("keeps a sandbox's key from the parent's money, the parent's key from acting as the sandbox, and a sandbox from making sandboxes", async () => {
    const parentPayout = (await parent()(withdrawal(10_000))).body;
    const sandbox = await newSandbox();
    const mine = as(api(), sandbox.secret_key);
    const own = (await mine(withdrawal(20_000))).body;
    expect((await mine({ action: 'get_payout', id: parentPayout.id })).status).toBe(404);
    expect((await mine({ action: 'simulate_payout', id: parentPayout.id, outcome: 'failed' })).status).toBe(404);
    expect((await parent()({ action: 'get_payout', id: own.id })).status).toBe(404);
    expect((await mine({ action: 'list_payouts' })).body.data.map((p: { id: string }) => p.id)).toEqual([own.id]);
    // The parent's key names a sandbox only through the sandbox actions, which never hand out its key.
    const got = await parent()({ action: 'get_sandbox', id: sandbox.id });
    expect(got.body).not.toHaveProperty('secret_key');
    const refused = await mine({ action: 'create_sandbox' });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'permission_denied']);
    expect(refused.body.error.message).toContain('sandbox');
    // A sandbox sees no sandboxes, its parent's included.
    expect((await mine({ action: 'get_sandbox', id: sandbox.id })).status).toBe(404);
    expect((await mine({ action: 'list_sandboxes' })).body.data).toEqual([]);
    expect((await mine({ action: 'delete_sandbox', id: sandbox.id })).status).toBe(404);
  });

  it('lists and gets live sandboxes, newest first in pages, and checks its fields', async () => {
    const a = await newSandbox({ name: 'a' });
    const b = await newSandbox({ name: 'b', expires_in_seconds: 7 * 86_400 });
    const page = await parent()({ action: 'list_sandboxes', limit: 1 });
    expect(page.body.data.map((s: { id: string }) => s.id)).toEqual([b.id]);
    expect(page.body.has_more).toBe(true);
    const next = await parent()({ action: 'list_sandboxes', limit: 1, starting_after: b.id });
    expect(next.body.data.map((s: { id: string }) => s.id)).toEqual([a.id]);
    for (const [field, value] of [
      ['expires_in_seconds', 7 * 86_400 + 1],
      ['balance', -1],
      ['name', ''],
      ['test_clock', 'yes'],
    ] as const) {
      const res = await parent()({ action: 'create_sandbox', [field]: value });
      expect([res.status, res.body.error.code, res.body.error.param], field).toEqual([400, 'invalid_request', field]);
    }
    expect((await parent()({ action: 'get_sandbox', id: 'sbx_missing' })).status).toBe(404);
  });

  it("copies the parent's settings when asked, and only then", async () => {
    await parent()({ action: 'update_account_settings', time_zone: 'Europe/Berlin', low_balance_threshold: 5_000 });
    try {
      const copied = as(api(), (await newSandbox({ copy_settings: true })).secret_key);
      expect((await copied({ action: 'get_account_settings' })).body).toMatchObject({
        time_zone: 'Europe/Berlin',
        low_balance_threshold: 5_000,
      });
      const plain = as(api(), (await newSandbox()).secret_key);
      expect((await plain({ action: 'get_account_settings' })).body).toMatchObject({
        time_zone: 'Asia/Jakarta',
        low_balance_threshold: null,
      });
    } finally {
      await parent()({ action: 'update_account_settings', time_zone: 'Asia/Jakarta', low_balance_threshold: null });
    }
  });

  it('resets a sandbox: its activity gone, its balance back, its id, key and settings kept', async () => {
    const sandbox = await newSandbox({ balance: 1_000_000 });
    const mine = as(api(), sandbox.secret_key);
    await mine({ action: 'update_account_settings', time_zone: 'Asia/Makassar' });
    const session = (await mine({ action: 'create_checkout_session', amount: 100_000 })).body;
    await mine({ action: 'simulate_checkout_payment', id: session.id });
    await mine({ action: 'create_refund', checkout_session_id: session.id, amount: 10_000 });
    await mine({ action: 'create_payout_batch', payouts: [{ amount: 10_000, bank_code: 'BCA', account_number: '1234567890' }] });
    await mine(withdrawal(30_000), 'reused-key');
    await mine({ action: 'create_webhook_endpoint', url: 'https://example.com/hook' });
    const parentBefore = await rowsOf(api().db, api().merchant.id);

    const reset = await parent()({ action: 'reset_sandbox', id: sandbox.id });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toMatchObject({ id: sandbox.id, merchant_id: sandbox.merchant_id, balance: 1_000_000 });
    expect((await mine({ action: 'get_balance' })).body).toMatchObject({
      available: 1_000_000,
      pending_payouts: 0,
      pending_refunds: 0,
      awaiting_approval: 0,
    });
    for (const action of [
      'list_payouts',
      'list_checkout_sessions',
      'list_refunds',
      'list_events',
      'list_webhook_endpoints',
      'list_payout_batches',
    ]) {
      expect((await mine({ action })).body.data, action).toEqual([]);
    }
    const ledger = (await mine({ action: 'list_balance_transactions' })).body.data;
    expect(ledger.map((t: { type: string; amount: number }) => [t.type, t.amount])).toEqual([['opening_balance', 1_000_000]]);
    expect((await mine({ action: 'get_account_settings' })).body.time_zone).toBe('Asia/Makassar');
    // The idempotency key is free again: the same request makes a new payout.
    const again = await mine(withdrawal(30_000), 'reused-key');
    expect(again.headers.get('x-service-idempotent-replayed')).toBeNull();
    expect(await books(api().db, sandbox.merchant_id)).toMatchObject({ available: 970_000, ledger: 970_000, payouts: 1 });
    // The parent's rows: untouched (its request log gained the reset itself, written off the request's path).
    const { request_log: _, ...parentAfter } = await rowsOf(api().db, api().merchant.id);
    const { request_log: __, ...parentRows } = parentBefore;
    expect(parentAfter).toEqual(parentRows);
  });

  it("deletes a sandbox: its key answers 401 at once, the purge deletes its rows and no one else's while both write", async () => {
    const doomed = await newSandbox({ balance: 5_000_000 });
    const neighbour = await newSandbox({ balance: 5_000_000 });
    const mine = as(api(), doomed.secret_key);
    await mine({
      action: 'create_payout_batch',
      payouts: Array.from({ length: 50 }, () => ({ amount: 10_000, bank_code: 'BCA', account_number: '1234567890' })),
    });
    await mine({ action: 'create_webhook_endpoint', url: 'https://example.com/hook' });
    await mine(withdrawal(10_000));

    const deleted = await parent()({ action: 'delete_sandbox', id: doomed.id });
    expect(deleted.body).toEqual({ object: 'sandbox', id: doomed.id, deleted: true });
    expect((await mine({ action: 'get_balance' })).status).toBe(401);
    expect((await parent()({ action: 'get_sandbox', id: doomed.id })).status).toBe(404);
    expect((await parent()({ action: 'delete_sandbox', id: doomed.id })).status).toBe(404);
    expect((await parent()({ action: 'list_sandboxes', limit: 100 })).body.data.map((s: { id: string }) => s.id)).not.toContain(doomed.id);

    // The purge runs while the parent and a neighbouring sandbox write.
    const parentBooks = await books(api().db, api().merchant.id);
    const neighbourKey = as(api(), neighbour.secret_key);
    let stop = false;
    const writes = { parent: 0, neighbour: 0 };
    const writer = async (call: ReturnType<typeof as>, who: 'parent' | 'neighbour') => {
      while (!stop) if ((await call(withdrawal(10_000))).status === 200) writes[who]++;
    };
    const running = [writer(parent(), 'parent'), writer(neighbourKey, 'neighbour'), writer(parent(), 'parent')];
    await new Promise((r) => setTimeout(r, 50));
    expect(await purgeSandboxes(api().db, { graceSeconds: 0 })).toBeGreaterThanOrEqual(1);
    stop = true;
    await Promise.all(running);

    const left = await rowsOf(api().db, doomed.merchant_id);
    expect(Object.entries(left).filter(([, n]) => n > 0)).toEqual([]);
    const parentNow = await books(api().db, api().merchant.id);
    expect(parentNow.payouts).toBe(parentBooks.payouts + writes.parent);
    expect(parentNow.available).toBe(parentBooks.available - 10_000 * writes.parent);
    expect(parentNow.ledger).toBe(parentNow.available);
    const neighbourNow = await books(api().db, neighbour.merchant_id);
    expect(neighbourNow).toMatchObject({ payouts: writes.neighbour, available: 5_000_000 - 10_000 * writes.neighbour });
    expect(writes.parent + writes.neighbour).toBeGreaterThan(0);
  });

  it('expires a sandbox: its key answers 401 from its expiry, and the purge takes it', async () => {
    const sandbox = await newSandbox({ expires_in_seconds: 60 });
    const mine = as(api(), sandbox.secret_key);
    expect((await mine({ action: 'get_balance' })).status).toBe(200);
    await api().db.query("UPDATE sandboxes SET expires_at = now() - interval '1 second' WHERE id = $1", [sandbox.id]);
    expect((await mine({ action: 'get_balance' })).status).toBe(401);
    expect((await parent()({ action: 'get_sandbox', id: sandbox.id })).status).toBe(404);
    await purgeSandboxes(api().db, { graceSeconds: 0 });
    expect((await rowsOf(api().db, sandbox.merchant_id)).merchants).toBe(0);
  });
});

describe.each(backends)('the cap on live sandboxes ($name)', (backend) => {
  const api = useTestApi(backend, { settings: { sandboxLimit: 3 } });

  it('refuses past SANDBOX_LIMIT with 400 sandbox_limit, also under concurrent creations, and frees a place on delete', async () => {
    const call = as(api(), api().merchant.secretKey);
    const answers = await Promise.all(Array.from({ length: 8 }, () => call({ action: 'create_sandbox' })));
    const made = answers.filter((a) => a.status === 200);
    expect(made).toHaveLength(3);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect([refused.status, refused.body.error.code, refused.body.error.type]).toEqual([400, 'sandbox_limit', 'invalid_request_error']);
      expect(refused.body.error.message).toContain('3');
    }
    await call({ action: 'delete_sandbox', id: made[0]!.body.id });
    expect((await call({ action: 'create_sandbox' })).status).toBe(200);
    expect((await call({ action: 'create_sandbox' })).status).toBe(400);
  });
});

// PostgreSQL only: PGlite is one connection, so nothing lands mid-purge there.
describe.runIf(postgresUrl)('the purge beside a late request-log write (PostgreSQL)', () => {
  const api = useTestApi(postgresBackend);

  it("a request-log row landing mid-purge waits for it and goes with the sandbox, rather than failing the merchant's delete", async () => {
    const parent = as(api(), api().merchant.secretKey);
    const sandbox = (await parent({ action: 'create_sandbox' })).body as { id: string; merchant_id: string };
    expect((await parent({ action: 'delete_sandbox', id: sandbox.id })).status).toBe(200);

    // A flush of the sandbox's last calls, in flight: its row written, its transaction not yet committed.
    let writing!: (pid: number) => void;
    const written = new Promise<number>((resolve) => (writing = resolve));
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    const flush = api().db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO request_log (id, merchant_id, created_at, action, status, duration_ms, key_id, replayed, origin)
         VALUES ('req_lateflush', $1, now(), 'get_balance', 200, 1, 'key_late', false, 'api')`,
        [sandbox.merchant_id],
      );
      writing((await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]!.pid);
      await committed;
    });
    const pid = await written;
    const purge = purgeSandboxes(api().db, { graceSeconds: 0 });
    await expect.poll(() => sessionsWaitingFor(api().db, pid), { timeout: 10_000, interval: 20 }).toBe(1);
    commit();
    await flush;
    expect(await purge).toBe(1);
    expect(Object.values(await rowsOf(api().db, sandbox.merchant_id)).every((n) => n === 0)).toBe(true);
  });
});
