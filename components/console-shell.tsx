import Link from 'next/link';
import type { ReactNode } from 'react';
import { SignOutButtons } from './sign-out-buttons';

/** The frame of every signed-in page: navigation, the test-mode banner, sign-out. */
export function ConsoleShell({ testMode, children }: { testMode: boolean; children: ReactNode }) {
  return (
    <>
      {testMode && (
        <div className="test-banner" role="status">
          Test mode: payouts and payments are simulated; no real money moves.
        </div>
      )}
      <header className="topbar">
        <strong>Merchant Console</strong>
        <nav aria-label="Console">
          <Link href="/dashboard">Dashboard</Link>
          <Link href="/payouts">Payouts</Link>
          <Link href="/payout-batches">Batch payout</Link>
          <Link href="/checkout-sessions">Checkout</Link>
          <Link href="/webhooks">Webhooks</Link>
        </nav>
        <SignOutButtons />
      </header>
      <main className="page">{children}</main>
    </>
  );
}
