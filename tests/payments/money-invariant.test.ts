import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payCheckoutSession } from '@/lib/payments/checkout/checkout-payment';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import { returnDuePayouts } from '@/lib/payments/payouts/payout-returns';
import { settleDueRefunds } from '@/lib/payments/refunds/refund-settlement';
import { callApi, useTestApi, withdrawal } from '../helpers/api-server';
import { backends } from '../../testing/databases';
import { isExact, ledgerCheck, refundCheck } from '../../testing/ledger';

const step = fc.oneof(
  fc.record({
    kind: fc.constant('withdraw' as const),
    amount: fc.integer({ min: 10_000, max: 400_000 }),
    account: fc.constantFrom('1234567890', '4000000001', '4000000002', '4000000003', '4000000004'),
  }),
  fc.record({
    kind: fc.constant('checkout' as const),
    amount: fc.integer({ min: 1_000, max: 300_000 }),
    card: fc.constantFrom('4242424242424242', '4000000000000002', '4000000000005126'),
  }),
  // A refund of the newest paid session: its rest (no amount) or a part, which may exceed what is left or available.
  fc.record({ kind: fc.constant('refund' as const), amount: fc.option(fc.integer({ min: 1, max: 300_000 }), { nil: undefined }) }),
  // The bank returns the newest paid payout (simulate_payout), or the returns of 4000000004 fall due (the job).
  fc.record({ kind: fc.constant('return' as const), by: fc.constantFrom('simulate' as const, 'job' as const) }),
  // Small batches make one settlement call run several of them.
  fc.record({ kind: fc.constant('settle' as const), batchSize: fc.integer({ min: 1, max: 4 }) }),
);

describe.each(backends)('the money invariant ($name)', (backend) => {
  const api = useTestApi(backend, { settings: { settlementDelaySeconds: 0 } });

  it('after any mix of payouts, failures, returns, payments and refunds, available equals the sum of the ledger, pending the sum of pending payouts, the records explain it and the low-balance alerts follow available', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.array(step, { maxLength: 12 }),
        fc.option(fc.integer({ min: 0, max: 1_200_000 }), { nil: null }),
        async (opening, steps, threshold) => {
          const m = await createMerchant(api().db, { name: 'Prop', openingBalance: opening });
          await callApi(api().url, m.secretKey, { action: 'update_account_settings', low_balance_threshold: threshold });
          for (const s of steps) {
            if (s.kind === 'withdraw') {
              const res = await callApi(api().url, m.secretKey, withdrawal(s.amount, { account_number: s.account }));
              expect([200, 422]).toContain(res.status);
            } else if (s.kind === 'checkout') {
              const session = await callApi(api().url, m.secretKey, { action: 'create_checkout_session', amount: s.amount });
              await payCheckoutSession(api().db, session.body.id, s.card, api().url);
            } else if (s.kind === 'refund') {
              const [paid] = await api().db.query<{ id: string }>(
                `SELECT id FROM checkout_sessions WHERE merchant_id = $1 AND status IN ('complete', 'refunded') ORDER BY seq DESC LIMIT 1`,
                [m.id],
              );
              if (paid) {
                const res = await callApi(api().url, m.secretKey, {
                  action: 'create_refund',
                  checkout_session_id: paid.id,
                  ...(s.amount ? { amount: s.amount } : {}),
                });
                expect([200, 422]).toContain(res.status);
              }
            } else if (s.kind === 'return') {
              if (s.by === 'job') {
                await api().db.query(`UPDATE payouts SET return_after = now() WHERE merchant_id = $1 AND return_after IS NOT NULL`, [m.id]);
                await returnDuePayouts(api().db);
              } else {
                const [paid] = await api().db.query<{ id: string }>(
                  `SELECT id FROM payouts WHERE merchant_id = $1 AND status = 'paid' ORDER BY seq DESC LIMIT 1`,
                  [m.id],
                );
                if (paid)
                  expect(
                    (await callApi(api().url, m.secretKey, { action: 'simulate_payout', id: paid.id, outcome: 'returned' })).status,
                  ).toBe(200);
              }
            } else {
              await settleDuePayouts(api().db, { batchSize: s.batchSize });
              await settleDueRefunds(api().db);
            }
            expect(isExact(await refundCheck(api().db, m.id))).toBe(true);
            const check = await ledgerCheck(api().db, m.id);
            expect(check.available).toBe(check.ledger);
            expect(check.pending).toBe(check.pendingSum);
            expect(check.available).toBeGreaterThanOrEqual(0);
            // Balance alerts: low and recovered in turn, each on its side of the threshold, the last one saying where available is.
            const alerts = await api().db.query<{ type: string; available: string; threshold: string }>(
              `SELECT type, data->>'available' AS available, data->>'low_balance_threshold' AS threshold
             FROM events WHERE merchant_id = $1 AND type IN ('balance.low', 'balance.recovered') ORDER BY seq`,
              [m.id],
            );
            alerts.forEach((a, i) => {
              expect(a.type).toBe(i % 2 === 0 ? 'balance.low' : 'balance.recovered');
              expect(Number(a.available) < Number(a.threshold)).toBe(a.type === 'balance.low');
            });
            expect(alerts.at(-1)?.type === 'balance.low').toBe(threshold !== null && check.available < threshold);
          }
          // The records explain the balance: opening + paid sessions - payouts that did not fail.
          const [row] = await api().db.query<{ paid_in: number; paid_out: number }>(
            `SELECT (SELECT COALESCE(SUM(amount), 0) FROM checkout_sessions WHERE merchant_id = $1 AND status IN ('complete', 'refunded')) AS paid_in,
                  (SELECT COALESCE(SUM(amount), 0) FROM payouts WHERE merchant_id = $1 AND status NOT IN ('failed', 'returned'))
                  + (SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE merchant_id = $1 AND status <> 'failed') AS paid_out`,
            [m.id],
          );
          const end = await ledgerCheck(api().db, m.id);
          expect(end.available).toBe(opening + row!.paid_in - row!.paid_out);
          // Every payout or refund not failed is either still pending or settled: available + pending never loses money.
          const [paid] = await api().db.query<{ sum: number }>(
            `SELECT (SELECT COALESCE(SUM(amount), 0) FROM payouts WHERE merchant_id = $1 AND status = 'paid')
                  + (SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE merchant_id = $1 AND status = 'succeeded') AS sum`,
            [m.id],
          );
          const { pendingRefunds } = await refundCheck(api().db, m.id);
          expect(end.available + end.pending + pendingRefunds).toBe(opening + row!.paid_in - paid!.sum);
        },
      ),
      { numRuns: 12 },
    );
  });
});
