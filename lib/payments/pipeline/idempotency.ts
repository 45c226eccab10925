import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import { deleteInBatches } from '../../db/delete-in-batches';
import { prepared } from '../../db/prepared';
import { PG_LOCK_NOT_AVAILABLE, pgErrorCode, type Db, type Queryable } from '../../db/types';
import type { HeaderReader } from './api-request';
import { ApiError, IDEMPOTENCY_HEADER } from '../../contract';
import { notOnTestClockSql } from '../test-clock/wall-clock';

/** Visible ASCII only (no spaces or control characters), 1 to 255 of them. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function parseIdempotencyKey(headers: HeaderReader): string | undefined {
  const key = headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return undefined;
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_idempotency_key', `${IDEMPOTENCY_HEADER} must be 1 to 255 visible ASCII characters`, IDEMPOTENCY_HEADER);
  }
  return key;
}

/** Same command, same fingerprint: key order and whitespace of the JSON do not matter. */
export const fingerprint = (command: unknown) =>
  createHash('sha256')
    .update(stringify(command) ?? '', 'utf8')
    .digest('hex');

export interface StoredResult {
  status: number;
  body: string;
  replayed: boolean;
  /** The id of the object the answer is about (the request log's), from the action's result; null for none or an error. */
  objectId: string | null;
  /** The error code of a refusal; null for a success. */
  errorCode: string | null;
}

/**
 * Claims (merchant, key): a new key, or one past retention, returns a row; a key in
 * use returns none (then replay). A concurrent duplicate waits here, on the unique
 * index, for the original's transaction. Params: merchant, key, action, fingerprint, ttl seconds.
 */
export const CLAIM_SQL = prepared(`INSERT INTO idempotency_keys (merchant_id, key, action, fingerprint)
  VALUES ($1, $2, $3, $4)
  ON CONFLICT (merchant_id, key) DO UPDATE
    SET action = EXCLUDED.action, fingerprint = EXCLUDED.fingerprint, created_at = app_now(),
        response_status = NULL, response_body = NULL, answer_ref = NULL
    WHERE idempotency_keys.created_at <= app_now() - make_interval(secs => $5)
  RETURNING app_now() AS now, set_config('lock_timeout', '0', true) AS unbounded`);

/**
 * The UPDATE that stores a 200 answer, as a CTE of another statement: only when `cte` returned rows.
 * `answer_ref` keeps what the request log says of the answer (the object's id; a refusal's error code),
 * so that a replay logs it without reading the answer's text.
 */
export const storeAnswerSql = (
  merchantId: string,
  key: string,
  body: string,
  objectId: string | null,
  firstParam: number,
  cte: string,
) => ({
  sql: `UPDATE idempotency_keys SET response_status = 200, response_body = $${firstParam + 2}, answer_ref = $${firstParam + 3}
        WHERE merchant_id = $${firstParam} AND key = $${firstParam + 1} AND EXISTS (SELECT 1 FROM ${cte})`,
  params: [merchantId, key, body, objectId],
});

export interface IdempotentCall {
  merchantId: string;
  key: string;
  action: string;
  fingerprint: string;
  ttlSeconds: number;
  waitSeconds: number;
}

/**
 * Lets an action store its own success answer inside its last statement, so that
 * its transaction ends with that statement and COMMIT: the rows it locks (a
 * merchant's balance) are held for one round trip. The answer must be final when
 * the statement is written, hence `now`, the timestamp every row of this
 * transaction gets from app_now().
 */
export interface InlineAnswer {
  now: Date;
  /** An UPDATE for a CTE of the action's statement: stores `body` (about `objectId`) as the 200 answer when `cte` returned rows. */
  store(body: string, objectId: string | null, firstParam: number, cte: string): { sql: string; params: unknown[] };
}

export interface ExecuteResult {
  status: number;
  body: string;
  objectId: string | null;
  /** The action stored the answer itself (InlineAnswer). */
  stored?: boolean;
  /** What to keep for replays when it differs from `body` (an answer with a one-time secret). */
  storedBody?: string;
}

/**
 * Runs `execute` at most once per (merchant, key) within the retention period.
 *
 * Everything happens in one transaction: the claim of the key, the business
 * writes and the stored response commit together or not at all. A concurrent
 * duplicate blocks on the unique index until the original commits, then replays
 * its response; past `waitSeconds` it gets 409. A business refusal (an ApiError
 * from `execute`) is stored like a success, after rolling back to a savepoint so
 * that nothing it may have written survives (`atomic` actions write in one
 * statement that writes nothing when it refuses: they need no savepoint).
 */
export async function runIdempotent(
  db: Db,
  call: IdempotentCall,
  execute: (tx: Queryable, inline: InlineAnswer) => Promise<ExecuteResult>,
  opts: {
    requestId?: string;
    atomic?: boolean;
    expand?: (tx: Queryable, body: string) => Promise<string>;
    /** Runs first in the transaction, before the claim (a test clock's time). */
    before?: (tx: Queryable) => Promise<void>;
  } = {},
): Promise<StoredResult> {
  try {
    return await db.transaction(
      async (tx) => {
        if (opts.before) await opts.before(tx);
        const claimed = await tx.query<{ now: Date }>(CLAIM_SQL, [
          call.merchantId,
          call.key,
          call.action,
          call.fingerprint,
          call.ttlSeconds,
        ]);
        // The wait bound is for the claim alone: the RETURNING above lifted it in the same round trip,
        // since business writes may queue on a busy balance row (bounded by statement_timeout).
        if (claimed.length === 0) return replay(tx, call, opts.expand);

        const inline: InlineAnswer = {
          now: new Date(claimed[0]!.now),
          store: (body, objectId, n, cte) => storeAnswerSql(call.merchantId, call.key, body, objectId, n, cte),
        };
        if (!opts.atomic) await tx.query('SAVEPOINT business');
        let result: ExecuteResult;
        let errorCode: string | null = null;
        try {
          result = await execute(tx, inline);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          if (!opts.atomic) await tx.query('ROLLBACK TO SAVEPOINT business');
          const body = error.toBody();
          if (opts.requestId) body.error.request_id = opts.requestId;
          result = { status: error.status, body: JSON.stringify(body), objectId: null };
          errorCode = error.code;
        }
        if (!result.stored) {
          await tx.query(
            `UPDATE idempotency_keys SET response_status = $3, response_body = $4, answer_ref = $5 WHERE merchant_id = $1 AND key = $2`,
            [call.merchantId, call.key, result.status, result.storedBody ?? result.body, errorCode ?? result.objectId],
          );
        }
        return { status: result.status, body: result.body, replayed: false, objectId: result.objectId, errorCode };
      },
      { lockTimeoutMs: call.waitSeconds * 1000 },
    );
  } catch (error) {
    if (pgErrorCode(error) === PG_LOCK_NOT_AVAILABLE) {
      throw new ApiError(
        'idempotency_request_in_progress',
        'A request with this idempotency key is still being processed. Retry after a moment with the same key.',
        undefined,
        { 'Retry-After': '1' },
      );
    }
    throw error;
  }
}

async function replay(
  tx: Queryable,
  call: IdempotentCall,
  expand?: (tx: Queryable, body: string) => Promise<string>,
): Promise<StoredResult> {
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
  const body = expand && row.response_status === 200 ? await expand(tx, stored) : stored;
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

/** The id of the object an answer is about: none for a list or an answer without one (a balance). */
export function objectIdOf(answer: object): string | null {
  const { object, id } = answer as { object?: unknown; id?: unknown };
  return typeof object === 'string' && object !== 'list' && typeof id === 'string' ? id : null;
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
