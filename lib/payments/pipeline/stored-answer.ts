/**
 * Lets a write store its own success answer inside its last statement, so that
 * its transaction ends with that statement and COMMIT: the rows it locks (a
 * merchant's balance) are held for one round trip. The answer must be final when
 * the statement is written, hence `now`, the timestamp every row of this
 * transaction gets from now(). The idempotency store (idempotency.ts) has claimed
 * the key in the same transaction.
 */
export interface InlineAnswer {
  now: Date;
  merchantId: string;
  key: string;
}

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
