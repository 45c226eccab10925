'use client';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { firstPageOnly } from '@/console/browser/queries/list-pages';
import { payoutPagesQuery } from '@/console/browser/queries/queries';
import type { PayoutListFilter } from '@/console/browser/queries/query-keys';
import { LoadMoreButton } from './load-more-button';
import { PayoutsTable } from './payouts-table';
import { NoPayouts } from './empty-state';
import { ErrorText } from './error-text';

/**
 * The payouts of a filter, newest first, a page at a time; polls the loaded pages while any is settling.
 * Mounted once per filter (keyed by it): a filter shown again starts from its first page.
 */
export function PayoutsList({ filter }: { filter: PayoutListFilter }) {
  const queryClient = useQueryClient();
  // Before the query reads its cache, so no older pages flash in.
  useState(() => queryClient.setQueryData(payoutPagesQuery(filter).queryKey, firstPageOnly));
  const query = useInfiniteQuery(payoutPagesQuery(filter));
  const { data, error, isPending } = query;
  if (isPending) return <p className="muted">Loading payouts…</p>;
  if (error && !data)
    return (
      <p className="error" role="alert">
        The payouts could not be loaded: <ErrorText error={error} />
      </p>
    );
  if (data.length === 0) return <NoPayouts filtered={Object.keys(filter).length > 0} />;
  return (
    <>
      <PayoutsTable payouts={data} />
      <LoadMoreButton query={query} noun="payouts" />
    </>
  );
}
