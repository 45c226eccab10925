// Every event is written through lib/payments/webhooks/event-sql.ts (eventCtes), which also writes its deliveries:
// an INSERT INTO events anywhere else could write an event that no endpoint ever hears of. The one exception is the
// balance alert of migration 45: a row trigger on balances, since every statement that moves `available` must send
// it; it writes the deliveries too (tests/api/low-balance.test.ts checks that a receiver gets them).
import { describe, expect, it } from 'vitest';
import { readSource, sourceFiles } from './source-files';

describe('event writes', () => {
  it('happen only in lib/payments/webhooks/event-sql.ts', () => {
    const writers = sourceFiles(['lib', 'console', 'app', 'scripts']).filter((f) => /INSERT\s+INTO\s+events\b/i.test(readSource(f)));
    expect(writers.sort()).toEqual(['lib/db/migrations/045-payout-returns.ts', 'lib/payments/webhooks/event-sql.ts']);
  });

  it('and every state change that reports one goes through it', () => {
    const users = sourceFiles(['lib']).filter((f) => readSource(f).includes('eventCtes('));
    expect(users.sort()).toEqual(
      [
        'lib/payments/checkout/checkout-session-actions.ts', // expire_checkout_session
        'lib/payments/checkout/checkout-payment.ts', // checkout_session.completed
        'lib/payments/checkout/checkout-expiry.ts', // checkout_session.expired: the expiry job, and a test clock's advance
        'lib/payments/payouts/settlement-sql.ts', // payout.paid, payout.failed
        'lib/payments/refunds/refunds.ts', // refund.created
        'lib/payments/refunds/refund-settlement.ts', // refund.succeeded, refund.failed
        'lib/payments/payouts/withdraw-statement.ts', // payout.created (and payout.awaiting_approval), alone, in a group, in a batch
        'lib/payments/payouts/payout-approvals.ts', // payout.approved, payout.rejected, payout.expired
        'lib/payments/statements/statement-ready.ts', // statement.ready
        'lib/payments/payouts/payout-returns.ts', // payout.returned
      ].sort(),
    );
  });
});
