'use client';
import Link from 'next/link';
import { PAYOUT_STATUSES } from '@/lib/contract/fields';
import type { PayoutView } from '@/console/browser/payout-view';
import { zoneLabel } from '@/lib/format';
import { useTimeZone } from './time-zone';

/**
 * The payouts page's filter as a GET form: the view lives in the URL, so a link
 * reproduces it, and the form works before hydration. A new status applies at once.
 * The dates are days of the merchant's zone (the server reads them so: payout-view.ts).
 */
export function PayoutFilters({ view, onApply }: { view: PayoutView; onApply: (form: HTMLFormElement) => void }) {
  const zone = useTimeZone();
  return (
    <form
      action="/payouts"
      method="get"
      className="filters"
      aria-label="Filter payouts"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(e.currentTarget);
      }}
    >
      <div className="field">
        <label htmlFor="payout-search">Search</label>
        <input
          id="payout-search"
          name="q"
          type="search"
          defaultValue={view.q ?? ''}
          placeholder="po_… or last 4 digits"
          aria-describedby="payout-search-hint"
          autoComplete="off"
        />
        <span id="payout-search-hint" className="field-hint">
          A payout id, or the last four digits of the account.
        </span>
      </div>
      <div className="field">
        <label htmlFor="payout-status">Status</label>
        <select
          id="payout-status"
          name="status"
          defaultValue={view.status ?? 'all'}
          onChange={(e) => e.currentTarget.form && onApply(e.currentTarget.form)}
        >
          <option value="all">All statuses</option>
          {PAYOUT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="payout-from">From</label>
        <input id="payout-from" name="from" type="date" defaultValue={view.from ?? ''} aria-describedby="payout-days-hint" />
      </div>
      <div className="field">
        <label htmlFor="payout-to">To</label>
        <input id="payout-to" name="to" type="date" defaultValue={view.to ?? ''} aria-describedby="payout-days-hint" />
        <span id="payout-days-hint" className="field-hint" data-testid="payout-days-hint">
          Whole days in {zoneLabel(zone)} ({zone})
        </span>
      </div>
      <div className="filters-actions">
        <button type="submit">Apply</button>
        <Link href="/payouts">Clear</Link>
      </div>
    </form>
  );
}
