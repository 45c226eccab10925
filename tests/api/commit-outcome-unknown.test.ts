// A COMMIT whose answer is lost (the primary died after committing, or before): the request gets 503
// with Retry-After, and a retry with the same idempotency key settles the outcome. If the transaction
// committed, the retry replays its stored answer; if it did not, the retry runs once. The lost answer
// is a fault injected around the real database: the transaction itself runs for real.
import { describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/types';
import { startTestApi, withdrawal } from '../helpers/api-server';
import { backends } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';

const REPLAYED = 'x-service-idempotent-replayed';
const lostAnswer = () => new Error('Connection terminated unexpectedly');

/**
 * `db`, whose next transaction that writes a payout loses its COMMIT's answer: after it committed, or instead of
 * committing. A lone keyed withdrawal is one statement that is its own transaction: its answer is lost the same way.
 */
function losingCommitAnswer(db: Db) {
  let armed: 'after-commit' | 'before-commit' | undefined;
  const faulty: Db = {
    ...db,
    query: async (sql, params) => {
      if (!armed || !/INSERT INTO payouts/i.test(sql)) return db.query(sql, params);
      const when = armed;
      armed = undefined;
      if (when === 'after-commit') await db.query(sql, params);
      throw lostAnswer();
    },
    transaction: async (fn, opts) => {
      let wrotePayout = false;
      const result = await db.transaction(async (tx) => {
        const value = await fn({
          ...tx,
          query: (sql, params) => ((wrotePayout ||= /INSERT INTO payouts/i.test(sql)), tx.query(sql, params)),
        });
        if (wrotePayout && armed === 'before-commit') {
          armed = undefined;
          throw lostAnswer(); // rolled back: the COMMIT never happened
        }
        return value;
      }, opts);
      if (wrotePayout && armed === 'after-commit') {
        armed = undefined;
        throw lostAnswer(); // committed, but the answer never arrived
      }
      return result;
    },
  };
  return { db: faulty, arm: (when: 'after-commit' | 'before-commit') => void (armed = when) };
}

describe.each(backends)('a COMMIT whose outcome is unknown ($name)', (backend) => {
  it.each(['after-commit', 'before-commit'] as const)(
    '%s: 503 with Retry-After, then the retry with the same key settles it exactly once',
    async (when) => {
      const real = await backend.open();
      const { db, arm } = losingCommitAnswer(real);
      // Grouping off: a lone request's own transaction, the one a failover cuts.
      const api = await startTestApi(db, { openingBalance: 1_000_000, settings: { withdrawGroupCommit: false } });
      try {
        arm(when);
        const lost = await api.call(withdrawal(100_000), { idempotencyKey: `unknown-${when}` });
        expect(lost.status).toBe(503);
        expect(lost.body.error.code).toBe('service_unavailable');
        expect(lost.headers.get('retry-after')).toBe('1');

        const retried = await api.call(withdrawal(100_000), { idempotencyKey: `unknown-${when}` });
        expect(retried.status).toBe(200);
        // Committed: the stored answer is replayed. Not committed: the retry is the first run.
        expect(retried.headers.get(REPLAYED)).toBe(when === 'after-commit' ? 'true' : null);
        const again = await api.call(withdrawal(100_000), { idempotencyKey: `unknown-${when}` });
        expect(again.text).toBe(retried.text);
        expect(await ledgerCheck(real, api.merchant.id)).toMatchObject({ available: 900_000, ledger: 900_000, payouts: 1 });
      } finally {
        await api.close();
        await real.close();
      }
    },
  );
});
