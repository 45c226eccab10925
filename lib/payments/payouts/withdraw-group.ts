import { isDatabaseUnavailable, type Db, type Queryable } from '../../db/types';
import { createGroupQueue } from '../pipeline/group-queue';
import type { IdempotentCall, StoredResult } from '../pipeline/idempotency';
import { CLAIM_AND_READ_SQL, writeGroupStatement, type StoredAnswers } from './withdraw-group-statements';
import { insufficientFunds, type PreparedWithdrawal } from './withdrawal';

/** One withdraw request waiting for its group. */
export interface GroupedWithdrawal {
  prepared: PreparedWithdrawal;
  /** Its idempotency key, when the request sent one. */
  call?: IdempotentCall;
  requestId: string;
  /** The request alone, exactly as without grouping: for a lone request, a replay, and a group that failed. */
  alone(): Promise<StoredResult>;
}

/** At most this many withdrawals in one transaction (the batch action's bound). */
export const MAX_GROUP_SIZE = 1000;

/**
 * Group commit for withdrawals: concurrent withdraw requests, of any merchants, are
 * committed together, one transaction per group (group-queue.ts decides who goes
 * together; a lone request goes alone, at once, through the ordinary path).
 *
 * A group's transaction: claim the keys and read the merchants' balances (one
 * statement), decide in arrival order against a running balance per merchant who
 * is paid and who is refused (`insufficient_funds`, alone), then lock the
 * balances in merchant order and write every payout, ledger entry, event and
 * stored answer (one statement), COMMIT. A balance that moved in between so that
 * it no longer covers the group rolls the group back (its requests then go one
 * by one). Every request gets the answer it would have had alone, and none
 * before the COMMIT.
 *
 * A request whose key was already in use is answered after the group, alone (its
 * replay, or the key's reuse refused). A group whose transaction fails for any
 * reason but a lost database runs its requests again one by one, each in its own
 * transaction as without grouping: no payout is ever written without its
 * idempotency record and answer. A lost database fails every request as it
 * would fail one (503 with Retry-After).
 */
export function createWithdrawGroups(db: Db, opts: { waitSeconds: number; maxSize?: number; onGroup?: (size: number) => void }) {
  const queue = createGroupQueue<GroupedWithdrawal, StoredResult>({
    maxSize: opts.maxSize ?? MAX_GROUP_SIZE,
    keyOf: (w) => (w.call ? `${w.call.merchantId} ${w.call.key}` : undefined),
    run: async (group) => {
      opts.onGroup?.(group.length);
      if (group.length === 1) return Promise.allSettled([group[0]!.alone()]);
      try {
        return await commitGroup(db, group, opts.waitSeconds);
      } catch (error) {
        if (isDatabaseUnavailable(error)) throw error;
        // A deadlock, a key held by another instance past the wait, a statement that failed: each request
        // alone, in a transaction of its own (at once: one key that waits must not hold up the others).
        return Promise.allSettled(group.map((w) => w.alone()));
      }
    },
  });
  return { submit: (w: GroupedWithdrawal) => queue.submit(w), get waiting() { return queue.waiting; } };
}

export type WithdrawGroups = ReturnType<typeof createWithdrawGroups>;

type Outcome = { kind: 'paid'; body: string } | { kind: 'refused'; body?: string } | { kind: 'alone' };

async function commitGroup(db: Db, group: GroupedWithdrawal[], waitSeconds: number): Promise<PromiseSettledResult<StoredResult>[]> {
  const outcomes = await db.transaction(async (tx) => {
    const { balances, claimed } = await claimAndRead(tx, group);
    // Requests whose key is in use are answered alone once this group is done.
    const taking = group.map((w) => !w.call || claimed.has(`${w.call.merchantId} ${w.call.key}`));
    if (!taking.some(Boolean)) return group.map((): Outcome => ({ kind: 'alone' }));
    const now = new Date(balances[0]!.now);
    const left = new Map(balances.map((b) => [b.merchant_id, Number(b.available)]));
    const accepted: GroupedWithdrawal['prepared']['row'][] = [];
    const answers: StoredAnswers = { merchantIds: [], keys: [], statuses: [], bodies: [] };
    const store = (w: GroupedWithdrawal, status: number, body: string) => {
      if (!w.call) return;
      answers.merchantIds.push(w.call.merchantId);
      answers.keys.push(w.call.key);
      answers.statuses.push(status);
      answers.bodies.push(body);
    };
    const outcomes = group.map((w, i): Outcome => {
      if (!taking[i]) return { kind: 'alone' };
      const { row } = w.prepared;
      const available = left.get(row.merchantId) ?? -1;
      if (available < row.amount) {
        const refusal = insufficientFunds(row.amount);
        const body = refusal.toBody();
        body.error.request_id = w.requestId;
        const text = JSON.stringify(body);
        store(w, refusal.status, text);
        return { kind: 'refused', body: w.call ? text : undefined };
      }
      left.set(row.merchantId, available - row.amount);
      accepted.push(row);
      const body = JSON.stringify(w.prepared.answer(now));
      store(w, 200, body);
      return { kind: 'paid', body };
    });

    const { sql, params } = writeGroupStatement(accepted, answers);
    const [written] = await tx.query<{ balances: number; payouts: number; stored: number }>(sql, params);
    const payingMerchants = new Set(accepted.map((r) => r.merchantId)).size;
    // A balance that no longer covers its merchant's total (moved since it was read) or any other count: rolled back, then one by one.
    if (written!.balances !== payingMerchants || written!.payouts !== accepted.length || written!.stored !== answers.keys.length) {
      throw new Error(`withdraw group wrote ${JSON.stringify(written)} for ${accepted.length} payouts of ${payingMerchants} merchants`);
    }
    return outcomes;
  }, { lockTimeoutMs: waitSeconds * 1000 });

  // Committed: every answer is final. Replays and reused keys go through the ordinary path.
  return Promise.allSettled(
    group.map(async (w, i): Promise<StoredResult> => {
      const o = outcomes[i]!;
      if (o.kind === 'alone') return w.alone();
      if (o.kind === 'paid') return { status: 200, body: o.body, replayed: false };
      const refusal = insufficientFunds(w.prepared.row.amount);
      if (o.body === undefined) throw refusal;
      return { status: refusal.status, body: o.body, replayed: false };
    }),
  );
}

/** Claims the keys of the group's keyed requests and reads its merchants' balances; claimed keys as `merchant key`. */
async function claimAndRead(tx: Queryable, group: GroupedWithdrawal[]) {
  const calls = group.flatMap((w) => (w.call ? [w.call] : []));
  const merchants = [...new Set(group.map((w) => w.prepared.row.merchantId))];
  const balances = await tx.query<{ merchant_id: string; available: number; now: Date; claimed: string[] }>(CLAIM_AND_READ_SQL, [
    calls.map((c) => c.merchantId), calls.map((c) => c.key), calls.map((c) => c.action), calls.map((c) => c.fingerprint),
    calls[0]?.ttlSeconds ?? 0, merchants,
  ]);
  return { balances, claimed: new Set(balances.flatMap((b) => b.claimed.map((key) => `${b.merchant_id} ${key}`))) };
}
