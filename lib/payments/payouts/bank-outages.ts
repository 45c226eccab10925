import type { Db, Queryable } from '../../db/types';

/**
 * A receiving bank that is down: its payouts stay pending and wait for it, rather than fail (docs/operations.md).
 * The operator marks the window (`npm run merchant -- bank-down`); settlement holds the payouts it claims for that
 * bank until the window's end; `bank-up` ends the window early and makes the held payouts due at once.
 */
export interface BankOutage {
  id: string;
  bank_code: string;
  starts_at: Date;
  ends_at: Date;
  reason: string;
}

/**
 * Settlement's side: the claimed payouts whose bank is down now (CLAIM_SQL's `held_until`) get the outage's end as
 * their time to settle, in the claim's transaction. The row leaves the head of the queue, so a long outage costs one
 * update per held payout, not a step over it in every later claim. Returns how many were held.
 */
export async function holdForOutage(tx: Queryable, claimed: { id: string; held_until: string | null }[]): Promise<number> {
  const held = claimed.filter((p) => p.held_until !== null);
  if (held.length === 0) return 0;
  await tx.query(
    `UPDATE payouts p SET settle_after = h.until
     FROM unnest($1::text[], $2::timestamptz[]) AS h(id, until) WHERE p.id = h.id AND p.status = 'pending'`,
    [held.map((p) => p.id), held.map((p) => p.held_until)],
  );
  return held.length;
}

/** Marks `bankCode` down from `startsAt` (now by default) until `endsAt`. */
export async function markBankDown(
  db: Queryable,
  o: { bankCode: string; endsAt: Date; startsAt?: Date; reason?: string },
): Promise<BankOutage> {
  const [row] = await db.query<BankOutage>(
    `INSERT INTO bank_outages (bank_code, starts_at, ends_at, reason) VALUES ($1, COALESCE($2::timestamptz, now()), $3, $4)
     RETURNING id, bank_code, starts_at, ends_at, reason`,
    [o.bankCode, o.startsAt ?? null, o.endsAt, o.reason ?? ''],
  );
  return row!;
}

/** The outages covering now or still to come, soonest first. */
export const currentBankOutages = (db: Queryable) =>
  db.query<BankOutage>(`SELECT id, bank_code, starts_at, ends_at, reason FROM bank_outages WHERE ends_at > now() ORDER BY starts_at, id`);

/**
 * The bank is back: every window of `bankCode` covering now ends now, and the payouts held until one of those ends
 * are due at once. Found through payout_states' (state, due_at) index at each window's end, then checked against
 * the payout's bank; moved in steps of `step` payouts, each its own short transaction. A settlement batch in flight
 * may still hold a few payouts until the old end as this runs: a second pass, after such a batch has committed
 * (`lateMs`), makes those due too. The state rows are locked before the payouts (a payout's lock order:
 * docs/prove.md, "Lock order"), waiting for one held: none is left behind. Returns how many payouts it released.
 */
export async function markBankUp(db: Db, bankCode: string, opts: { step?: number; lateMs?: number } = {}) {
  const { step = 10_000, lateMs = 2000 } = opts;
  const ended = await db.query<{ was: string }>(
    `WITH e AS (SELECT id, ends_at AS was FROM bank_outages WHERE bank_code = $1 AND starts_at <= now() AND ends_at > now() FOR UPDATE)
     UPDATE bank_outages o SET ends_at = GREATEST(now(), o.starts_at + interval '1 microsecond') FROM e WHERE o.id = e.id RETURNING e.was::text AS was`,
    [bankCode],
  );
  const release = async () => {
    let released = 0;
    for (const { was } of ended)
      for (;;) {
        const [row] = await db.query<{ n: number }>(
          `WITH due AS (
             SELECT p.seq FROM payout_states s JOIN payouts p ON p.seq = s.seq
             WHERE s.state = 'pending' AND s.due_at = $2 AND p.bank_code = $1 AND p.settle_after = $2 LIMIT $3
             FOR UPDATE OF s),
           u AS (UPDATE payouts p SET settle_after = now() FROM due WHERE p.seq = due.seq AND p.status = 'pending' RETURNING 1)
           SELECT count(*)::int AS n FROM u`,
          [bankCode, was, step],
        );
        released += row!.n;
        if (row!.n < step) break;
      }
    return released;
  };
  let released = await release();
  if (ended.length > 0 && lateMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, lateMs));
    released += await release();
  }
  return { outages: ended.length, released };
}
