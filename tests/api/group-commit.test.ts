import { describe, expect, it } from 'vitest';
import { withTestApi, withdrawal } from '../helpers/api-server';
import { backends } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';

// Group commit through the API over real HTTP: concurrent withdrawals share transactions, and every
// request still gets its own payout, record and answer, as with WITHDRAW_GROUP_COMMIT=false.
describe.each(backends)('group commit of concurrent withdrawals ($name)', (backend) => {
  it.each([true, false])(
    'withdrawGroupCommit %s: 40 keys and 20 duplicates at once make 40 payouts, each answer its own and stored',
    async (grouping) => {
      const sizes: number[] = [];
      await withTestApi(
        backend,
        { openingBalance: 10_000_000, settings: { withdrawGroupCommit: grouping }, onGroup: (n) => sizes.push(n) },
        async (api) => {
          const keys = Array.from({ length: 60 }, (_, i) => `gc-${i % 40}`);
          const results = await Promise.all(keys.map((key, i) => api.call(withdrawal(10_000 + (i % 40)), { idempotencyKey: key })));
          expect(results.map((r) => r.status)).toEqual(keys.map(() => 200));
          // A key's answers are one payout, whichever came first; replays are marked.
          const byKey = new Map<string, Set<string>>();
          results.forEach((r, i) => byKey.set(keys[i]!, (byKey.get(keys[i]!) ?? new Set()).add(r.text)));
          expect([...byKey.values()].every((answers) => answers.size === 1)).toBe(true);
          expect(results.filter((r) => r.headers.get('x-service-idempotent-replayed') === 'true')).toHaveLength(20);
          const stored = await api.db.query<{ key: string; response_body: string; answer_ref: string }>(
            'SELECT key, response_body, answer_ref FROM idempotency_keys WHERE merchant_id = $1',
            [api.merchant.id],
          );
          expect(new Map(stored.map((s) => [s.key, s.response_body]))).toEqual(new Map([...byKey].map(([k, v]) => [k, [...v][0]])));
          // Beside each answer, what a replay's request-log row says of it: the payout's id, not read back from the JSON.
          expect(stored.every((s) => s.answer_ref === (JSON.parse(s.response_body) as { id: string }).id)).toBe(true);
          const events = await api.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM events WHERE merchant_id = $1 AND type = 'payout.created'`,
            [api.merchant.id],
          );
          expect(events[0]!.n).toBe(40);
          const check = await ledgerCheck(api.db, api.merchant.id);
          expect(check).toMatchObject({ payouts: 40, available: check.ledger, pending: check.pendingSum });
          expect(check.available).toBe(10_000_000 - Array.from({ length: 40 }, (_, i) => 10_000 + i).reduce((a, b) => a + b, 0));
          // Grouping on: every request went through the groups, and on PostgreSQL groups of more than one
          // formed under this load (PGlite answers each request so fast that they seldom overlap here;
          // tests/payments/withdraw-group.test.ts makes its groups directly). Off: no group at all.
          if (!grouping) expect(sizes).toEqual([]);
          else {
            expect(sizes.reduce((a, b) => a + b, 0)).toBe(60);
            if (backend.name === 'postgres') expect(Math.max(...sizes)).toBeGreaterThan(1);
          }
        },
      );
    },
  );
});
