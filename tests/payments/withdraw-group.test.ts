import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, type Db } from '@/lib/db/types';
import type { CallerKey } from '@/lib/payments/pipeline/caller';
import { fingerprint, type IdempotentCall } from '@/lib/payments/pipeline/idempotency-key';
import type { AnyWriteAction, RequestContext, StoredResult } from '@/lib/payments/pipeline/action';
import { createGroupCommit } from '@/lib/payments/pipeline/group-commit';
import { writeAlone } from '@/lib/payments/pipeline/write-plan';
import { withdraw } from '@/lib/payments/payouts/payout-actions';
import { createMerchant, type CreatedMerchant } from '@/lib/payments/merchants/merchants';
import { payoutObject, PAYOUT_COLUMNS, type PayoutRow } from '@/lib/payments/payouts/payout-object';
import type { GroupedWithdrawal } from '@/lib/payments/payouts/withdraw-group';
import { planWithdrawal } from '@/lib/payments/payouts/withdraw-plan';
import { testSecretBox } from '../helpers/api-server';
import { backends, postgresBackend, postgresUrl } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';

const settings = { idempotencyTtlSeconds: 86_400, idempotencyWaitSeconds: 5, settlementDelaySeconds: 3, secretBox: testSecretBox };
const secretKey: CallerKey = { id: 'key_test', type: 'secret', name: null, permissions: null, maxPayoutAmount: null, lastUseStale: false };

/** Group commit of withdrawals, as the core builds it from the action table. */
const createWithdrawGroups = (db: Db, opts: { waitSeconds: number; onGroup?: (size: number) => void }) =>
  createGroupCommit(db, withdraw, opts);

/** A request written alone, on the core's own path (write-plan.ts). */
const alone = (db: Db, r: GroupedWithdrawal) => writeAlone(db, withdraw as AnyWriteAction, r.ctx, r.plan, r.call, r.requestId);

/** A withdraw request as the core submits it: its context, its plan and its key. */
function request(
  merchant: CreatedMerchant,
  amount: number,
  idempotencyKey?: string,
  account = '1234567890',
  waitSeconds = 0.3,
): GroupedWithdrawal {
  const input = { action: 'withdraw' as const, amount, bank_code: 'BCA' as const, account_number: account };
  const ctx: RequestContext = {
    merchant,
    key: secretKey,
    settings,
    origin: 'http://127.0.0.1',
    storedAnswer: async (_db, _action, _status, body) => body,
  };
  const plan = planWithdrawal(ctx, input);
  const call: IdempotentCall | undefined =
    idempotencyKey === undefined
      ? undefined
      : {
          merchantId: merchant.id,
          key: idempotencyKey,
          action: 'withdraw',
          fingerprint: fingerprint(input),
          ttlSeconds: 86_400,
          waitSeconds,
        };
  const requestId = `req_${idempotencyKey ?? amount}`;
  return { ctx, plan, call, requestId };
}

/** A database whose statements can be made to fail: the fault is injected, everything else is the real database. */
function faulty(db: Db, fail: (sql: string) => Error | undefined): Db {
  const wrap = <T extends Pick<Db, 'query'>>(q: T) => ({
    ...q,
    query: (sql: string, params?: readonly unknown[]) => {
      const error = fail(sql);
      return error ? Promise.reject(error) : q.query(sql, params);
    },
  });
  return { ...db, ...wrap(db), transaction: (fn, opts) => db.transaction((tx) => fn(wrap(tx) as typeof tx), opts) } as Db;
}

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const settled = (rs: PromiseSettledResult<StoredResult>[]) =>
  rs.map((r) => (r.status === 'fulfilled' ? [r.value.status, r.value.replayed] : ['error', (r.reason as { code?: string }).code]));

describe.each(backends)('withdrawals committed as a group ($name)', (backend) => {
  let db: Db;
  beforeAll(async () => {
    db = await backend.open();
  });
  afterAll(async () => db.close());

  it('writes payouts that wait for approval in the same group: held in awaiting_approval, created then awaiting_approval', async () => {
    const m = await createMerchant(db, { name: 'Group approvals', openingBalance: 500_000 });
    const caught = { ...m, payoutApproval: { required: true, aboveAmount: 50_000, forKeys: 'all' as const } };
    const sizes: number[] = [];
    const groups = createWithdrawGroups(db, { waitSeconds: 5, onGroup: (n) => sizes.push(n) });
    const reqs = [request(caught, 60_000, 'ga-1'), request(caught, 40_000, 'ga-2'), request(caught, 70_000)];
    const results = await Promise.allSettled(reqs.map((r) => groups.submit(r)));
    expect(sizes).toEqual([3]);
    expect(settled(results)).toEqual([
      [200, false],
      [200, false],
      [200, false],
    ]);
    const rows = await db.query<PayoutRow>(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE merchant_id = $1 ORDER BY seq`, [m.id]);
    expect(rows.map((r) => r.status)).toEqual(['awaiting_approval', 'pending', 'awaiting_approval']);
    // Each answer, decided before the statement, is the row as written.
    results.forEach((r, i) => expect(JSON.parse((r as PromiseFulfilledResult<StoredResult>).value.body)).toEqual(payoutObject(rows[i]!)));
    const [balance] = await db.query('SELECT available, pending_payouts, awaiting_approval FROM balances WHERE merchant_id = $1', [m.id]);
    expect(balance).toEqual({ available: 330_000, pending_payouts: 40_000, awaiting_approval: 130_000 });
    const ids = reqs.map((r) => r.plan.row.payoutId);
    const events = await db.query<{ object_id: string; type: string }>(
      'SELECT object_id, type FROM events WHERE merchant_id = $1 ORDER BY seq',
      [m.id],
    );
    expect(events.map((e) => [e.object_id, e.type])).toEqual([
      [ids[0], 'payout.created'],
      [ids[0], 'payout.awaiting_approval'],
      [ids[1], 'payout.created'],
      [ids[2], 'payout.created'],
      [ids[2], 'payout.awaiting_approval'],
    ]);
  });

  it('applies one group in arrival order against a running balance: one that would overdraw is refused alone, the others go', async () => {
    const m = await createMerchant(db, { name: 'Group', openingBalance: 100_000 });
    const sizes: number[] = [];
    const groups = createWithdrawGroups(db, { waitSeconds: 5, onGroup: (n) => sizes.push(n) });
    const reqs = [request(m, 60_000, 'g-1'), request(m, 50_000, 'g-2'), request(m, 40_000, 'g-3'), request(m, 1_000)];
    const results = await Promise.allSettled(reqs.map((r) => groups.submit(r)));

    expect(sizes).toEqual([4]);
    expect(settled(results)).toEqual([
      [200, false],
      [422, false],
      [200, false],
      ['error', 'insufficient_funds'],
    ]);
    expect((results[3] as PromiseRejectedResult).reason).toMatchObject({ code: 'insufficient_funds', param: 'amount' });
    const refusal = JSON.parse((results[1] as PromiseFulfilledResult<StoredResult>).value.body);
    expect(refusal.error).toMatchObject({ code: 'insufficient_funds', param: 'amount', request_id: 'req_g-2' });

    // Each request has its own record: the answer it got, byte for byte; payouts, entries and events of the paid ones only.
    const stored = await db.query<{ key: string; response_status: number; response_body: string; answer_ref: string }>(
      'SELECT key, response_status, response_body, answer_ref FROM idempotency_keys WHERE merchant_id = $1 ORDER BY key',
      [m.id],
    );
    // Beside each answer, what a replay's request-log row says of it: the payout's id, or the refusal's code.
    expect(stored.map((s) => [s.key, s.response_status, s.answer_ref])).toEqual([
      ['g-1', 200, reqs[0]!.plan.row.payoutId],
      ['g-2', 422, 'insufficient_funds'],
      ['g-3', 200, reqs[2]!.plan.row.payoutId],
    ]);
    stored.forEach((s, i) => expect(s.response_body).toBe((results[i] as PromiseFulfilledResult<StoredResult>).value.body));
    const entries = await db.query<{ amount: number; balance_after: number; reference_id: string }>(
      `SELECT amount, balance_after, reference_id FROM ledger_entries WHERE merchant_id = $1 AND kind = 'payout' ORDER BY id`,
      [m.id],
    );
    expect(entries.map((e) => [e.amount, e.balance_after, e.reference_id])).toEqual([
      [-60_000, 40_000, reqs[0]!.plan.row.payoutId],
      [-40_000, 0, reqs[2]!.plan.row.payoutId],
    ]);
    const events = await db.query<{ object_id: string }>(
      `SELECT object_id FROM events WHERE merchant_id = $1 AND type = 'payout.created' ORDER BY seq`,
      [m.id],
    );
    expect(events.map((e) => e.object_id)).toEqual([reqs[0]!.plan.row.payoutId, reqs[2]!.plan.row.payoutId]);
    expect(await ledgerCheck(db, m.id)).toMatchObject({ available: 0, ledger: 0, pending: 100_000, pendingSum: 100_000, payouts: 2 });

    // The answer is the payout as get_payout reads it from the row: same created_at, same everything.
    const [row] = await db.query<PayoutRow>(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE id = $1`, [reqs[0]!.plan.row.payoutId]);
    expect((results[0] as PromiseFulfilledResult<StoredResult>).value.body).toBe(JSON.stringify(payoutObject(row!)));
  });

  it('keeps each merchant of a group to its own balance', async () => {
    const [a, b] = await Promise.all([
      createMerchant(db, { name: 'A', openingBalance: 30_000 }),
      createMerchant(db, { name: 'B', openingBalance: 10_000 }),
    ]);
    const groups = createWithdrawGroups(db, { waitSeconds: 5 });
    const reqs = [request(a, 20_000, 'a-1'), request(b, 20_000, 'b-1'), request(a, 10_000, 'a-2'), request(b, 10_000, 'b-2')];
    expect(settled(await Promise.allSettled(reqs.map((r) => groups.submit(r))))).toEqual([
      [200, false],
      [422, false],
      [200, false],
      [200, false],
    ]);
    expect(await ledgerCheck(db, a.id)).toMatchObject({ available: 0, ledger: 0, payouts: 2 });
    expect(await ledgerCheck(db, b.id)).toMatchObject({ available: 0, ledger: 0, payouts: 1 });
  });

  it('makes one payout of two requests with the same key at once: the second is the replay of the first', async () => {
    const m = await createMerchant(db, { name: 'Twice', openingBalance: 100_000 });
    const sizes: number[] = [];
    const groups = createWithdrawGroups(db, { waitSeconds: 5, onGroup: (n) => sizes.push(n) });
    const results = await Promise.all(
      [request(m, 10_000, 'same'), request(m, 20_000, 'other'), request(m, 10_000, 'same')].map((r) => groups.submit(r)),
    );
    expect(results.map((r) => [r.status, r.replayed])).toEqual([
      [200, false],
      [200, false],
      [200, true],
    ]);
    expect(results[2]!.body).toBe(results[0]!.body);
    expect(sizes).toEqual([2, 1]);
    expect(await ledgerCheck(db, m.id)).toMatchObject({ available: 70_000, payouts: 2 });
  });

  it('answers a key already used by an earlier request alone: its replay, or the reuse refused', async () => {
    const m = await createMerchant(db, { name: 'Earlier', openingBalance: 100_000 });
    const groups = createWithdrawGroups(db, { waitSeconds: 5 });
    const first = await groups.submit(request(m, 10_000, 'used'));
    // In the next group: the same request again (its replay), a new key, and the used key with another amount (its reuse refused).
    const again = await Promise.allSettled(
      [request(m, 10_000, 'used'), request(m, 20_000, 'used-2'), request(m, 5_000, 'used')].map((r) => groups.submit(r)),
    );
    expect(settled(again)).toEqual([
      [200, true],
      [200, false],
      ['error', 'idempotency_key_reused'],
    ]);
    expect((again[0] as PromiseFulfilledResult<StoredResult>).value.body).toBe(first.body);
    expect(await ledgerCheck(db, m.id)).toMatchObject({ available: 70_000, ledger: 70_000, payouts: 2 });
  });

  it('runs the requests of a group whose transaction fails one by one, each with its record', async () => {
    const m = await createMerchant(db, { name: 'Deadlock', openingBalance: 100_000 });
    let failures = 0;
    const flaky = faulty(db, (sql) =>
      sql.startsWith('WITH req AS') && failures++ === 0 ? withCode('deadlock detected', '40P01') : undefined,
    );
    const groups = createWithdrawGroups(flaky, { waitSeconds: 5 });
    const results = await Promise.all(
      [request(m, 10_000, 'd-1'), request(m, 20_000, 'd-2'), request(m, 200_000, 'd-3')].map((r) => groups.submit(r)),
    );
    expect(failures).toBe(1);
    expect(results.map((r) => r.status)).toEqual([200, 200, 422]);
    const keys = await db.query<{ key: string; response_status: number }>(
      'SELECT key, response_status FROM idempotency_keys WHERE merchant_id = $1 ORDER BY key',
      [m.id],
    );
    expect(keys.map((k) => [k.key, k.response_status])).toEqual([
      ['d-1', 200],
      ['d-2', 200],
      ['d-3', 422],
    ]);
    expect(await ledgerCheck(db, m.id)).toMatchObject({ available: 70_000, ledger: 70_000, payouts: 2 });
  });

  it('fails every request of a group as one request would when the database is lost, and writes nothing', async () => {
    const m = await createMerchant(db, { name: 'Lost', openingBalance: 100_000 });
    const lost = faulty(db, (sql) =>
      sql.startsWith('WITH req AS') ? withCode('terminating connection due to administrator command', '57P01') : undefined,
    );
    const groups = createWithdrawGroups(lost, { waitSeconds: 5 });
    const results = await Promise.allSettled([request(m, 10_000, 'l-1'), request(m, 20_000)].map((r) => groups.submit(r)));
    expect(results.every((r) => r.status === 'rejected' && isDatabaseUnavailable(r.reason))).toBe(true);
    expect(await db.query('SELECT 1 FROM idempotency_keys WHERE merchant_id = $1', [m.id])).toHaveLength(0);
    expect(await ledgerCheck(db, m.id)).toMatchObject({ available: 100_000, payouts: 0 });
  });
});

// Only PostgreSQL has another connection to hold a key with: the embedded database runs one transaction at a time.
describe.runIf(postgresUrl)('a key held elsewhere (postgres)', () => {
  let db: Db;
  beforeAll(async () => {
    db = await postgresBackend.open();
  });
  afterAll(async () => db.close());

  it('answers the others of a group at once when one key is held by another transaction past the wait', async () => {
    const m = await createMerchant(db, { name: 'Held', openingBalance: 100_000 });
    let release!: () => void;
    let claimed!: () => void;
    const holding = new Promise<void>((r) => (claimed = r));
    // Another instance's request that claimed the key and has not committed yet.
    const holder = db
      .transaction(async (tx) => {
        await tx.query(`INSERT INTO idempotency_keys (merchant_id, key, action, fingerprint) VALUES ($1, 'held', 'withdraw', 'x')`, [m.id]);
        claimed();
        await new Promise<void>((r) => (release = r));
        throw new Error('rolled back');
      })
      .catch(() => {});
    await holding;
    const groups = createWithdrawGroups(db, { waitSeconds: 0.3 });
    const results = await Promise.allSettled(
      [request(m, 10_000, 'free-1'), request(m, 20_000, 'held'), request(m, 30_000, 'free-2')].map((r) => groups.submit(r)),
    );
    release();
    await holder;
    expect(settled(results)).toEqual([
      [200, false],
      ['error', 'idempotency_request_in_progress'],
      [200, false],
    ]);
    expect(await ledgerCheck(db, m.id)).toMatchObject({ available: 60_000, ledger: 60_000, payouts: 2 });
  });

  it('rolls a group back when its balance moved between its read and its write, and runs its requests one by one', async () => {
    const m = await createMerchant(db, { name: 'Moved', openingBalance: 100_000 });
    let raced = false;
    // Another instance's withdrawal of 50,000 commits after the group read the balance (unlocked) and before its write.
    const racing: Db = {
      ...db,
      transaction: (fn, opts) =>
        db.transaction(
          (tx) =>
            fn({
              ...tx,
              query: async (sql: string, params?: readonly unknown[]) => {
                if (sql.startsWith('WITH req AS') && !raced) {
                  raced = true;
                  await alone(db, request(m, 50_000, 'elsewhere')); // on another connection of the pool
                }
                return tx.query(sql, params);
              },
            } as typeof tx),
          opts,
        ),
    };
    const groups = createWithdrawGroups(racing, { waitSeconds: 5 });
    const results = await Promise.all([request(m, 30_000, 'm-1'), request(m, 40_000, 'm-2')].map((r) => groups.submit(r)));
    // Read at 100,000, both fit; written against 50,000, the group's conditional update fails and each goes alone.
    // Alone they run at once, so either may come first: one is paid, the other no longer fits.
    expect(raced).toBe(true);
    const statuses = results.map((r) => r.status);
    expect([...statuses].sort()).toEqual([200, 422]);
    const keys = await db.query<{ key: string; response_status: number }>(
      'SELECT key, response_status FROM idempotency_keys WHERE merchant_id = $1 ORDER BY key',
      [m.id],
    );
    expect(keys.map((k) => [k.key, k.response_status])).toEqual([
      ['elsewhere', 200],
      ['m-1', statuses[0]],
      ['m-2', statuses[1]],
    ]);
    const left = 50_000 - (statuses[0] === 200 ? 30_000 : 40_000);
    expect(await ledgerCheck(db, m.id)).toMatchObject({ available: left, ledger: left, payouts: 2 });
  });
});
