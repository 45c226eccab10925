import type { Db, Queryable } from '../../db/types';
import type { GroupMember, GroupWriter, StoredResult } from '../pipeline/action';
import { CLAIM_AND_READ_SQL, writeGroupStatement, type StoredAnswers } from './withdraw-group-statements';
import type { PlannedWithdrawal } from './withdraw-plan';
import { insufficientFunds, withdrawalAnswer } from './withdrawal';

export type GroupedWithdrawal = GroupMember<PlannedWithdrawal>;

/**
 * How withdrawals are written as a group (group-commit.ts runs the queue and the fallbacks): one
 * transaction per group. Claim the keys and read the merchants' balances (one statement), decide in
 * arrival order against a running balance per merchant who is paid and who is refused
 * (`insufficient_funds`, alone), then lock the balances in merchant order and write every payout,
 * ledger entry, event and stored answer (one statement), COMMIT. A balance that moved in between so
 * that it no longer covers the group rolls the group back (its requests then go one by one). Every
 * request gets the answer it would have had alone, and none before the COMMIT. A request whose key
 * was already in use is answered after the group, alone (its replay, or the key's reuse refused).
 */
export const withdrawGroupWriter: GroupWriter<PlannedWithdrawal> = {
  commit: (db, group, { waitSeconds, alone }) => commitGroup(db, group, waitSeconds, alone),
};

type Outcome = { kind: 'paid'; body: string; id: string } | { kind: 'refused'; body?: string; available: number } | { kind: 'alone' };

async function commitGroup(
  db: Db,
  group: GroupedWithdrawal[],
  waitSeconds: number,
  alone: (member: GroupedWithdrawal) => Promise<StoredResult>,
): Promise<PromiseSettledResult<StoredResult>[]> {
  const outcomes = await db.transaction(
    async (tx) => {
      const { balances, claimed } = await claimAndRead(tx, group);
      // Requests whose key is in use are answered alone once this group is done.
      const taking = group.map((w) => !w.call || claimed.has(`${w.call.merchantId} ${w.call.key}`));
      if (!taking.some(Boolean)) return group.map((): Outcome => ({ kind: 'alone' }));
      const now = new Date(balances[0]!.now);
      const left = new Map(balances.map((b) => [b.merchant_id, Number(b.available)]));
      const accepted: PlannedWithdrawal['row'][] = [];
      const answers: StoredAnswers = { merchantIds: [], keys: [], statuses: [], bodies: [], refs: [] };
      const store = (w: GroupedWithdrawal, status: number, body: string, ref: string) => {
        if (!w.call) return;
        answers.merchantIds.push(w.call.merchantId);
        answers.keys.push(w.call.key);
        answers.statuses.push(status);
        answers.bodies.push(body);
        answers.refs.push(ref);
      };
      const outcomes = group.map((w, i): Outcome => {
        if (!taking[i]) return { kind: 'alone' };
        const { row } = w.plan;
        const available = left.get(row.merchantId) ?? -1;
        if (available < row.amount) {
          const refusal = insufficientFunds(row.amount, available);
          const body = refusal.toBody();
          body.error.request_id = w.requestId;
          const text = JSON.stringify(body);
          store(w, refusal.status, text, refusal.code);
          return { kind: 'refused', body: w.call ? text : undefined, available };
        }
        left.set(row.merchantId, available - row.amount);
        accepted.push(row);
        const body = JSON.stringify(withdrawalAnswer(w.plan, now));
        store(w, 200, body, row.payoutId);
        return { kind: 'paid', body, id: row.payoutId };
      });

      const { sql, params } = writeGroupStatement(accepted, answers);
      const [written] = await tx.query<{ balances: number; payouts: number; stored: number }>(sql, params);
      const payingMerchants = new Set(accepted.map((r) => r.merchantId)).size;
      // A balance that no longer covers its merchant's total (moved since it was read) or any other count: rolled back, then one by one.
      if (written!.balances !== payingMerchants || written!.payouts !== accepted.length || written!.stored !== answers.keys.length) {
        throw new Error(`withdraw group wrote ${JSON.stringify(written)} for ${accepted.length} payouts of ${payingMerchants} merchants`);
      }
      return outcomes;
    },
    { lockTimeoutMs: waitSeconds * 1000 },
  );

  // Committed: every answer is final. Replays and reused keys go through the ordinary path.
  return Promise.allSettled(
    group.map(async (w, i): Promise<StoredResult> => {
      const o = outcomes[i]!;
      if (o.kind === 'alone') return alone(w);
      if (o.kind === 'paid') return { status: 200, body: o.body, replayed: false, objectId: o.id, errorCode: null };
      const refusal = insufficientFunds(w.plan.row.amount, o.available);
      if (o.body === undefined) throw refusal;
      return { status: refusal.status, body: o.body, replayed: false, objectId: null, errorCode: refusal.code };
    }),
  );
}

/** Claims the keys of the group's keyed requests and reads its merchants' balances; claimed keys as `merchant key`. */
async function claimAndRead(tx: Queryable, group: GroupedWithdrawal[]) {
  const calls = group.flatMap((w) => (w.call ? [w.call] : []));
  const merchants = [...new Set(group.map((w) => w.plan.row.merchantId))];
  const balances = await tx.query<{ merchant_id: string; available: number; now: Date; claimed: string[] }>(CLAIM_AND_READ_SQL, [
    calls.map((c) => c.merchantId),
    calls.map((c) => c.key),
    calls.map((c) => c.action),
    calls.map((c) => c.fingerprint),
    calls[0]?.ttlSeconds ?? 0,
    merchants,
  ]);
  return { balances, claimed: new Set(balances.flatMap((b) => b.claimed.map((key) => `${b.merchant_id} ${key}`))) };
}
