'use client';
import { useRouter } from 'next/navigation';
import { useTransition, type ReactNode } from 'react';
import type { PayoutView } from '@/console/browser/payout-view';
import { PayoutFilters } from './payout-filters';

/** The form's fields as the page's query: empty ones and "all statuses" left out, so links stay short. */
function viewQuery(form: HTMLFormElement): string {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    const v = String(value).trim();
    if (v && !(name === 'status' && v === 'all')) params.set(name, v);
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/**
 * The filter and what it shows. Applying a filter navigates to its URL (the
 * server renders the view: a link reproduces it); until that view arrives, the
 * old rows and figures give way to "Loading", so none is taken for the new filter's.
 */
export function PayoutsView({ view, children }: { view: PayoutView; children: ReactNode }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const apply = (form: HTMLFormElement) => startTransition(() => router.push(`/payouts${viewQuery(form)}`));
  return (
    <>
      <PayoutFilters view={view} onApply={apply} />
      {pending ? (
        <p className="muted" aria-live="polite">
          Loading payouts…
        </p>
      ) : (
        children
      )}
    </>
  );
}
