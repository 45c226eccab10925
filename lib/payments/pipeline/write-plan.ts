import type { Db } from '../../db/types';
import { STORED_INLINE, type AnyAction } from './action';
import { objectIdOf, runIdempotent, type IdempotentCall, type StoredResult } from './idempotency';
import { setClock } from './clock';

/**
 * A prepared plan written alone, in a transaction of its own: without a key, or claiming the key and
 * storing its answer (idempotency.ts). The one path of every state-changing request that is not
 * written in a group, and of a group's members that go alone (group-commit.ts).
 */
export async function writeAlone(
  db: Db,
  action: AnyAction,
  plan: unknown,
  call: IdempotentCall | undefined,
  requestId: string,
  /** A sandbox's test clock: the transaction is stamped with its time. */
  clock?: Date,
): Promise<StoredResult> {
  if (!call) {
    const answer = await db.transaction(async (tx) => {
      if (clock) await setClock(tx, clock);
      return action.write(tx, plan);
    });
    return { status: 200, body: JSON.stringify(answer), replayed: false, objectId: objectIdOf(answer), errorCode: null };
  }
  return runIdempotent(
    db,
    call,
    async (tx, inline) => {
      const answer = await action.write(tx, plan, inline);
      const body = JSON.stringify(answer);
      // A secret shown once is never kept in the idempotency store.
      const secretField = action.oneTimeSecret === true ? 'secret' : action.oneTimeSecret;
      const storedBody = secretField ? JSON.stringify({ ...answer, [secretField]: null }) : undefined;
      return { status: 200, body, storedBody, stored: STORED_INLINE in answer, objectId: objectIdOf(answer) };
    },
    {
      requestId,
      before: clock && ((tx) => setClock(tx, clock).then(() => undefined)),
      atomic: action.atomic,
      expand: action.expandStored && ((tx, body) => action.expandStored!(tx, call.merchantId, body)),
    },
  );
}
