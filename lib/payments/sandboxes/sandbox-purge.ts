import type { Db } from '../../db/types';
import { purgeMerchant } from './wipe';

/**
 * Sandboxes deleted or expired at least `graceSeconds` ago, purged: every row of their merchants,
 * one sandbox per transaction, claimed FOR UPDATE SKIP LOCKED so that instances share the work. The
 * grace lets what was already on its way for the sandbox (its request log, buffered for at most
 * 200 ms) land first; its key has answered 401 since the delete. A log write later than that waits
 * for the purge and is dropped (purgeMerchant, the request log). Answers how many went.
 */
export async function purgeSandboxes(db: Db, opts: { graceSeconds?: number; maxSandboxes?: number } = {}): Promise<number> {
  const { graceSeconds = 5, maxSandboxes = 20 } = opts;
  let purged = 0;
  for (; purged < maxSandboxes; purged++) {
    const done = await db.transaction(async (tx) => {
      const [due] = await tx.query<{ merchant_id: string }>(
        `SELECT merchant_id FROM sandboxes WHERE LEAST(deleted_at, expires_at) <= now() - make_interval(secs => $1)
         ORDER BY LEAST(deleted_at, expires_at) LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [graceSeconds],
      );
      if (!due) return false;
      await purgeMerchant(tx, due.merchant_id);
      return true;
    });
    if (!done) break;
  }
  return purged;
}
