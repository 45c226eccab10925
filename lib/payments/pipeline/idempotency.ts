import { deleteInBatches } from '../../db/delete-in-batches';
import { prepared } from '../../db/prepared';
import { PG_LOCK_NOT_AVAILABLE, pgErrorCode, type Db, type Queryable } from '../../db/types';
import { ApiError, IDEMPOTENCY_HEADER } from '../../contract';
import { inTransaction, STORED_INLINE, type AnyWriteAction, type RequestContext, type StoredResult } from './action';
import { objectIdOf } from './api-object';
import type { IdempotentCall } from './idempotency-key';
import type { InlineAnswer } from './stored-answer';
import { notOnTestClockSql, setClock } from './clock';

/**
 * A claim's ON CONFLICT, shared by every statement that claims a key: a key in use stays (no row back); a key
 * past retention (`ttlParam` seconds) is taken again, with no stored answer (`none`) or with the one the claim
 * inserts (`inserted`: a statement that claims with its answer in it, withdraw-one-statement.ts).
 */
export function claimConflictSql(ttlParam: string, answer: 'none' | 'inserted'): string {
  const stored = (column: string) => (answer === 'none' ? 'NULL' : `EXCLUDED.${column}`);
  return `ON CONFLICT (merchant_id, key) DO UPDATE
    SET action = EXCLUDED.action, fingerprint = EXCLUDED.fingerprint, created_at = app_now(),
        response_status = ${stored('response_status')}, response_body = ${stored('response_body')}, answer_ref = ${stored('answer_ref')}
    WHERE idempotency_keys.created_at <= app_now() - make_interval(secs => ${ttlParam})`;
}

/**
 * Claims (merchant, key): a new key, or one past retention, returns a row; a key in
 * use returns none (then replay). A concurrent duplicate waits here, on the unique
 * index, for the original's transaction. Params: merchant, key, action, fingerprint, ttl seconds.
 */
export const CLAIM_SQL = prepared(`INSERT INTO idempotency_keys (merchant_id, key, action, fingerprint)
  VALUES ($1, $2, $3, $4)
  ${claimConflictSql('$5', 'none')}
  RETURNING app_now() AS now, set_config('lock_timeout', '0', true) AS unbounded`);

/**
 * Writes a plan at most once per (merchant, key) within the retention period.
 *
 * Everything happens in one transaction: the claim of the key, the business
 * writes and the stored response commit together or not at all. A concurrent
 * duplicate blocks on the unique index until the original commits, then replays
 * its response; past `waitSeconds` it gets 409. A business refusal (an ApiError
 * from the action) is stored like a success, after rolling back to a savepoint so
 * that nothing it may have written survives (`atomic` actions write in one
 * statement that writes nothing when it refuses: they need no savepoint). An
 * action may store its success answer itself, in its own last statement
 * (stored-answer.ts); otherwise it is stored here.
 */
export async function runIdempotent(
  db: Db,
  call: IdempotentCall,
  action: AnyWriteAction,
  ctx: RequestContext,
  plan: unknown,
  requestId: string,
  /** A sandbox's test clock: the transaction is stamped with its time (clock.ts), the claim's retention included. */
  clock?: Date,
): Promise<StoredResult> {
  try {
    return await db.transaction(
      async (tx) => {
        if (clock) await setClock(tx, clock);
        const claimed = await tx.query<{ now: Date }>(CLAIM_SQL, [
          call.merchantId,
          call.key,
          call.action,
          call.fingerprint,
          call.ttlSeconds,
        ]);
        // The wait bound is for the claim alone: the RETURNING above lifted it in the same round trip,
        // since business writes may queue on a busy balance row (bounded by statement_timeout).
        if (claimed.length === 0) return replay(tx, call, action);

        const inline: InlineAnswer = { now: new Date(claimed[0]!.now), merchantId: call.merchantId, key: call.key };
        if (!action.atomic) await tx.query('SAVEPOINT business');
        let status = 200;
        let body: string;
        let storedBody: string | undefined;
        let storedInline = false;
        let objectId: string | null = null;
        let errorCode: string | null = null;
        try {
          const answer = await action.write(inTransaction(ctx, tx, inline), plan);
          body = JSON.stringify(answer);
          // A secret shown once is never kept in the idempotency store.
          const secretField = action.oneTimeSecret === true ? 'secret' : action.oneTimeSecret;
          if (secretField) storedBody = JSON.stringify({ ...answer, [secretField]: null });
          storedInline = STORED_INLINE in answer;
          objectId = objectIdOf(answer);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          if (!action.atomic) await tx.query('ROLLBACK TO SAVEPOINT business');
          const refusal = error.toBody();
          refusal.error.request_id = requestId;
          status = error.status;
          body = JSON.stringify(refusal);
          errorCode = error.code;
        }
        if (!storedInline) {
          await tx.query(
            `UPDATE idempotency_keys SET response_status = $3, response_body = $4, answer_ref = $5 WHERE merchant_id = $1 AND key = $2`,
            [call.merchantId, call.key, status, storedBody ?? body, errorCode ?? objectId],
          );
        }
        return { status, body, replayed: false, objectId, errorCode };
      },
      { lockTimeoutMs: call.waitSeconds * 1000 },
    );
  } catch (error) {
    throw inProgressIfWaited(error);
  }
}

/** A claim that waited past the bound for a duplicate still in flight: 409, retry with the same key. */
export function inProgressIfWaited(error: unknown): unknown {
  if (pgErrorCode(error) !== PG_LOCK_NOT_AVAILABLE) return error;
  return new ApiError(
    'idempotency_request_in_progress',
    'A request with this idempotency key is still being processed. Retry after a moment with the same key.',
    undefined,
    { 'Retry-After': '1' },
  );
}

async function replay(tx: Queryable, call: IdempotentCall, action: AnyWriteAction): Promise<StoredResult> {
  const [row] = await tx.query<{
    fingerprint: string;
    action: string;
    response_status: number | null;
    response_body: string | null;
    answer_ref: string | null;
  }>(
    // Counts the replay (get_idempotent_request); a mismatch below throws, and its rollback undoes the count.
    `UPDATE idempotency_keys SET replay_count = replay_count + 1 WHERE merchant_id = $1 AND key = $2
     RETURNING fingerprint, action, response_status, response_body, answer_ref`,
    [call.merchantId, call.key],
  );
  if (!row || row.fingerprint !== call.fingerprint) {
    throw new ApiError(
      'idempotency_key_reused',
      `This idempotency key was already used with a different request${row && row.action !== call.action ? ` (action ${row.action})` : ''}. Use a new key for a new request.`,
      IDEMPOTENCY_HEADER,
    );
  }
  // The row is only ever visible committed with its response: claim and response share one transaction.
  const stored = row.response_body ?? '';
  // Same fingerprint, same command: the action that stored it is this request's, and puts back what it compacted.
  const body = action.expandStored && row.response_status === 200 ? await action.expandStored(tx, call.merchantId, stored) : stored;
  // What the request log says of it was stored with it (answer_ref): the object's id, or the refusal's code.
  const ok = row.response_status === 200;
  return {
    status: row.response_status ?? 500,
    body,
    replayed: true,
    objectId: ok ? row.answer_ref : null,
    errorCode: ok ? null : row.answer_ref,
  };
}

/**
 * Deletes keys past retention in batches of `batchSize` (each its own short
 * statement, counting rows rather than returning them); returns how many went.
 */
export function purgeExpiredIdempotencyKeys(db: Queryable, ttlSeconds: number, batchSize = 1000): Promise<number> {
  return deleteInBatches(db, {
    table: 'idempotency_keys',
    key: '(merchant_id, key)',
    // A sandbox with a test clock keeps its keys by its clock (advance_test_clock makes them new); its purge deletes them.
    select: `SELECT merchant_id, key FROM idempotency_keys WHERE created_at <= now() - make_interval(secs => $1) AND ${notOnTestClockSql('idempotency_keys')}`,
    params: [ttlSeconds],
    batchSize,
  });
}
