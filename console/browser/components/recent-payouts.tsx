'use client';
import { useQuery } from '@tanstack/react-query';
import { payoutsQuery } from '@/console/browser/queries/queries';
import { PayoutsTable } from './payouts-table';
import { NoPayouts } from './empty-state';
import { ErrorText } from './error-text';

/** The dashboard's newest payouts, one page; polls while any is still settling. Every payout is on /payouts. */
export function RecentPayouts() {
  const { data, error, isPending } = useQuery(payoutsQuery('all'));
  if (isPending) return <p className="muted">Loading payouts…</p>;
  if (error && !data)
    return (
      <p className="error" role="alert">
        The payouts could not be loaded: <ErrorText error={error} />
      </p>
    );
  if (data.data.length === 0) return <NoPayouts />;
  return <PayoutsTable payouts={data.data} note={data.has_more ? `Showing the newest ${data.data.length}.` : undefined} />;
}
