'use client';
import { useState } from 'react';
import type { PayoutStatus } from '@/lib/upstream/schemas';
import { PayoutsTable } from './payouts-table';

const FILTERS = ['all', 'pending', 'paid', 'failed'] as const;

export function PayoutsBrowser() {
  const [status, setStatus] = useState<PayoutStatus | 'all'>('all');
  return (
    <section className="card">
      <label className="inline">
        Status
        <select value={status} onChange={(e) => setStatus(e.target.value as PayoutStatus | 'all')}>
          {FILTERS.map((f) => (
            <option key={f} value={f}>
              {f === 'all' ? 'All statuses' : f}
            </option>
          ))}
        </select>
      </label>
      <PayoutsTable status={status} limit={50} />
    </section>
  );
}
