import { describe, expect, it } from 'vitest';
import { loggedRequests, withTestApi, withdrawal } from '../helpers/api-server';
import { apiTargets } from '../helpers/api-targets';
import { ledgerCheck } from '../../testing/ledger';

describe.each(apiTargets)('concurrent withdrawals ($name)', (backend) => {
  it('100 concurrent withdrawals that together exceed the balance never take it below zero', async () => {
    // 100 x 30,000 = 3,000,000 asked of 1,000,000: exactly 33 succeed, the rest are refused.
    await withTestApi(backend, { openingBalance: 1_000_000 }, async (api) => {
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => api.call(withdrawal(30_000), { idempotencyKey: `c-${i}` })));
      const statuses = results.map((r) => r.status);
      // On failure, say what came back instead: counts per status and one unexpected answer.
      const counts = statuses.reduce<Record<number, number>>((n, s) => ({ ...n, [s]: (n[s] ?? 0) + 1 }), {});
      const seen = `statuses ${JSON.stringify(counts)}; e.g. ${results.find((r) => r.status !== 200 && r.status !== 422)?.text}`;
      expect(
        statuses.filter((s) => s === 200),
        seen,
      ).toHaveLength(33);
      expect(statuses.filter((s) => s === 422)).toHaveLength(67);
      for (const r of results.filter((x) => x.status === 422)) expect(r.body.error.code).toBe('insufficient_funds');
      const check = await ledgerCheck(api.db, api.merchant.id);
      expect(check).toMatchObject({ available: 10_000, ledger: 10_000, payouts: 33 });
      // Compared with the records, not a fixed sum: the Next target settles in the background.
      expect(check.pending).toBe(check.pendingSum);
      // The request log: exactly one row per request, under its request-id, with the status it answered.
      const answered = new Map(results.map((r) => [r.headers.get('request-id')!, r.status]));
      const rows = await loggedRequests(api, answered.size);
      expect(new Map(rows.map((r) => [r.id, r.status]))).toEqual(answered);
    });
  });
});
