import Link from 'next/link';
import type { ReactNode } from 'react';

/** An empty list that says what to do next. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <div className="empty-state" data-testid="empty-state">
      {children}
    </div>
  );
}

export function NoPayouts({ filtered }: { filtered?: boolean }) {
  if (filtered) {
    return (
      <EmptyState>
        <p>
          No payouts match this filter. <Link href="/payouts">Clear the filter</Link> to see every payout.
        </p>
      </EmptyState>
    );
  }
  return (
    <EmptyState>
      <p>
        No payouts yet. Send one from the <Link href="/dashboard">dashboard</Link>, many at once from a{' '}
        <Link href="/payout-batches">CSV file</Link>, or with the API:
      </p>
      <pre>
        <code>{`{"action":"withdraw","amount":50000,"bank_code":"BCA","account_number":"1234567890"}`}</code>
      </pre>
    </EmptyState>
  );
}

export function NoCheckoutSessions() {
  return (
    <EmptyState>
      <p>No checkout sessions yet. Create one above and send its link to your customer, or with the API:</p>
      <pre>
        <code>{`{"action":"create_checkout_session","amount":150000,"description":"Order 1001"}`}</code>
      </pre>
    </EmptyState>
  );
}
