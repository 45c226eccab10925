'use client';
import { useInfiniteQuery } from '@tanstack/react-query';
import { payoutPagesQuery } from '@/lib/client/queries';
import type { PayoutStatus } from '@/lib/contract';
import { LoadMoreButton } from './load-more-button';
import { PayoutsTable } from './payouts-table';
import { NoPayouts } from './empty-state';

/** Every payout of one status, newest first, a page at a time; polls the loaded pages while any is settling. */
export function PayoutsList({ status }: { status: PayoutStatus | 'all' }) {
  const query = useInfiniteQuery(payoutPagesQuery(status));
  const { data, error, isPending } = query;
  if (isPending) return <p className="muted">Loading payouts…</p>;
  if (error && !data) return <p className="error" role="alert">The payouts could not be loaded: {error.message}</p>;
  if (data.length === 0) return <NoPayouts status={status} />;
  return (
    <>
      <PayoutsTable payouts={data} />
      <LoadMoreButton query={query} noun="payouts" />
    </>
  );
}
