import { expect } from 'vitest';
import type { ledgerCheck } from '../../testing/ledger';

type LedgerCheck = Awaited<ReturnType<typeof ledgerCheck>>;

/**
 * What every stress case asserts of the ledger once the load is over: `available` equals the sum
 * of the merchant's ledger entries and `pending_payouts` the sum of its pending payouts, and, where
 * the case knows them, the payouts made and the balance they leave (nothing lost or doubled).
 */
export function expectLedgerExact(check: LedgerCheck, expected: { payouts?: number; available?: number } = {}) {
  expect(check.ledger).toBe(check.available);
  expect(check.pending).toBe(check.pendingSum);
  if (expected.payouts !== undefined) expect(check.payouts).toBe(expected.payouts);
  if (expected.available !== undefined) expect(check.available).toBe(expected.available);
}
