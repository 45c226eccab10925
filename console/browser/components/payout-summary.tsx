'use client';
import { useQuery } from '@tanstack/react-query';
import { payoutSummaryQuery } from '@/console/browser/queries/queries';
import type { PayoutListFilter } from '@/console/browser/queries/query-keys';
import { payoutViewSearch, type PayoutView } from '@/console/browser/payout-view';
import type { PayoutSummary as Summary } from '@/lib/contract';
import { formatMoney } from '@/lib/format';

/**
 * The filter's count and total (every matching payout, not the page shown), and its CSV export.
 * Rendered first with the server's figures, then kept current as payouts settle.
 */
export function PayoutSummary({ initial, filter, view }: { initial: Summary; filter: PayoutListFilter; view: PayoutView }) {
  const summary = useQuery({ ...payoutSummaryQuery(filter), initialData: initial }).data;
  return (
    <div className="summary-bar">
      <p data-testid="payout-summary" data-count={summary.count} data-total={summary.total_amount} aria-live="polite">
        <strong>
          {summary.count.toLocaleString('en-US')} {summary.count === 1 ? 'payout' : 'payouts'}
        </strong>
        , {formatMoney(summary.total_amount, summary.currency)} in total
      </p>
      <p>
        <a href={`/api/payouts/export${payoutViewSearch(view)}`} download>
          Export CSV
        </a>
      </p>
    </div>
  );
}
