import { randomUUID } from 'node:crypto';
import { pgErrorCode, type Db } from '../../db/types';
import type { StoredResult } from '../pipeline/action';
import type { IdempotentCall } from '../pipeline/idempotency-key';
import type { PlannedWithdrawal } from './withdraw-plan';
import { NOT_COVERED, withdrawClaimingStatement } from './withdraw-statement';
import { withdrawalAnswer } from './withdrawal';

/**
 * Where the answer's text holds the transaction's timestamps until the statement writes them in. Random
 * per process, so that nothing a merchant chooses (a key's name, shown in `created_by`) can hold one.
 */
const MARKS = { now: `now-${randomUUID()}`, expires: `expires-${randomUUID()}` };

/** PostgreSQL's raise_exception: abort_statement's error (migration 086). */
const RAISED = 'P0001';

/**
 * A lone keyed withdrawal in one round trip: one statement that is its own transaction claims the key
 * with the answer in it, moves the balance, and writes the ledger entry, the payout and its events
 * (withdrawClaimingStatement). Against the ordinary path (BEGIN, the claim, the write, COMMIT) that is
 * three round trips fewer, and the balance row is held for the statement and its commit only.
 *
 * Undefined when it wrote nothing, so that the ordinary path decides (write-plan.ts): the key was in use
 * (a replay, or its reuse refused), or the balance did not cover the amount (the refusal, stored). The
 * answer is the stored text itself, so a replay is the same bytes.
 */
export async function withdrawInOneStatement(db: Db, plan: PlannedWithdrawal, call: IdempotentCall): Promise<StoredResult | undefined> {
  const answer = withdrawalAnswer(plan, new Date(0));
  const template = JSON.stringify({
    ...answer,
    created_at: MARKS.now,
    approval_expires_at: answer.approval_expires_at === null ? null : MARKS.expires,
  });
  const { sql, params } = withdrawClaimingStatement(plan.row, call, template, MARKS);
  try {
    const [row] = await db.query<{ response_body: string }>(sql, params);
    if (!row) return undefined;
    return { status: 200, body: row.response_body, replayed: false, objectId: plan.row.payoutId, errorCode: null };
  } catch (error) {
    if (pgErrorCode(error) === RAISED && (error as Error).message === NOT_COVERED) return undefined;
    throw error;
  }
}
