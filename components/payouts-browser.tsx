'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { firstPageOnly } from '@/lib/client/list-pages';
import { payoutPagesQuery } from '@/lib/client/queries';
import { PAYOUT_STATUSES, type PayoutStatus } from '@/lib/contract';
import { PayoutsList } from './payouts-list';

const FILTERS = ['all', ...PAYOUT_STATUSES] as const;

export function PayoutsBrowser() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<PayoutStatus | 'all'>('all');
  const choose = (next: PayoutStatus | 'all') => {
    // Each filter starts from its first page, also one whose older pages were loaded before.
    queryClient.setQueryData(payoutPagesQuery(next).queryKey, firstPageOnly);
    setStatus(next);
  };
  return (
    <section className="card">
      <label className="inline">
        Status
        <select value={status} onChange={(e) => choose(e.target.value as PayoutStatus | 'all')}>
          {FILTERS.map((f) => (
            <option key={f} value={f}>
              {f === 'all' ? 'All statuses' : f}
            </option>
          ))}
        </select>
      </label>
      <PayoutsList status={status} />
    </section>
  );
}
