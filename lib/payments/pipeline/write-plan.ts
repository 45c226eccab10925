import type { Db } from '../../db/types';
import { inTransaction, type AnyWriteAction, type RequestContext, type StoredResult } from './action';
import { objectIdOf } from './api-object';
import type { IdempotentCall } from './idempotency-key';
import { inProgressIfWaited, runIdempotent } from './idempotency';
import { setClock } from './clock';

/**
 * A plan written alone, in a transaction of its own: without a key, or claiming the key and storing
 * its answer (idempotency.ts). The one path of every state-changing request that is not written in a
 * group, and of a group's members that go alone (group-commit.ts).
 */
export async function writeAlone(
  db: Db,
  action: AnyWriteAction,
  ctx: RequestContext,
  plan: unknown,
  call: IdempotentCall | undefined,
  requestId: string,
  /** A sandbox's test clock: the transaction is stamped with its time. */
  clock?: Date,
): Promise<StoredResult> {
  if (call) {
    // One statement, when the action has one: not for a test clock's sandbox, whose transactions set the clock first.
    if (action.oneStatement && !clock && db.bareStatementsTimed !== false) {
      const written = await action.oneStatement(db, plan, call).catch((error: unknown) => {
        throw inProgressIfWaited(error);
      });
      if (written) return written;
    }
    return runIdempotent(db, call, action, ctx, plan, requestId, clock);
  }
  const answer = await db.transaction(async (tx) => {
    if (clock) await setClock(tx, clock);
    return action.write(inTransaction(ctx, tx), plan);
  });
  return { status: 200, body: JSON.stringify(answer), replayed: false, objectId: objectIdOf(answer), errorCode: null };
}
