// /refunds: every refund, newest first, filtered by status and days in the merchant's zone; the same view as a CSV.
// Server-rendered: the filter is a plain GET form and "Older" a plain link. A refund opens on its checkout session's
// page (/refunds/re_… goes there), where it was made.
import Link from 'next/link';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { DataTable } from '@/console/browser/components/data-table';
import { EmptyState } from '@/console/browser/components/empty-state';
import { Time } from '@/console/browser/components/time-zone';
import { readRefundView, refundFilterOf, refundViewSearch } from '@/console/browser/refund-view';
import { REFUND_STATUS } from '@/console/browser/labels';
import { RefundStatusBadge } from '@/console/browser/components/refund-status-badge';
import { viewerCan } from '@/console/browser/viewer';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { requireSession } from '@/console/server/session/session';
import { isId, REFUND_STATUSES } from '@/lib/contract';
import { createdByLabel, formatMoney } from '@/lib/format';

export const metadata = { title: 'Refunds · Merchant Console' };

type Search = Record<string, string | string[] | undefined>;

export default async function RefundsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const session = await requireSession();
  const zone = await pageTimeZone(session);
  if (!viewerCan(session.viewer, 'refunds:read')) return <ConsoleShell viewer={session.viewer} timeZone={zone} needs="refunds:read" />;
  const params = await searchParams;
  const view = readRefundView(params);
  const after = typeof params.after === 'string' && isId('re', params.after) ? params.after : undefined;
  const page = (
    await pageData(session, () =>
      session.api.listRefunds({ ...refundFilterOf(view, zone), limit: 50, ...(after ? { starting_after: after } : {}) }),
    )
  ).data;
  const rows = page.data;
  const filtered = Boolean(view.status || view.from || view.to);
  return (
    <ConsoleShell viewer={session.viewer} timeZone={zone} needs="refunds:read">
      <h1>Refunds</h1>
      <form className="card filters" method="get" action="/refunds" aria-label="Filter refunds">
        <label>
          Status
          <select name="status" defaultValue={view.status ?? ''}>
            <option value="">Any status</option>
            {REFUND_STATUSES.map((s) => (
              <option key={s} value={s}>
                {REFUND_STATUS[s].label}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" name="from" defaultValue={view.from ?? ''} />
        </label>
        <label>
          To
          <input type="date" name="to" defaultValue={view.to ?? ''} />
        </label>
        <div className="filters-actions">
          <button type="submit">Filter</button>
          <a href={`/api/refunds/export${refundViewSearch(view)}`} download>
            Download CSV
          </a>
        </div>
      </form>
      <section className="card" aria-labelledby="refunds-heading">
        <h2 id="refunds-heading">Refunds</h2>
        <p className="muted">Days are read in {zone}, the account&apos;s time zone.</p>
        {rows.length === 0 ? (
          <EmptyState>
            <p data-testid="refunds-empty">
              {filtered ? (
                <>
                  No refund matches this filter. <Link href="/refunds">Clear the filter</Link> to see every refund.
                </>
              ) : (
                <>
                  No refunds yet. Refund a paid payment from its page under <Link href="/checkout-sessions">Checkout</Link>.
                </>
              )}
            </p>
          </EmptyState>
        ) : (
          <DataTable
            label="Refunds"
            rows={rows}
            rowKey={(r) => r.id}
            rowProps={(r) => ({ 'data-testid': 'refund-row', 'data-refund-id': r.id, 'data-status': r.status, 'data-amount': r.amount })}
            columns={[
              { header: 'Created', cell: (r) => <Time iso={r.created_at} /> },
              {
                header: 'Refund',
                cell: (r) => (
                  <>
                    <Link href={`/refunds/${r.id}`}>{r.id}</Link>
                    <div className="muted">
                      of <Link href={`/checkout-sessions/${r.checkout_session_id}`}>{r.checkout_session_id}</Link>
                    </div>
                    {r.reason && <div className="muted cell-note">{r.reason}</div>}
                  </>
                ),
              },
              {
                header: 'Status',
                // As on the checkout session's page: why in words on the badge, the bank's message in its title.
                cell: (r) => <RefundStatusBadge refund={r} />,
              },
              { header: 'By', cell: (r) => createdByLabel(r.created_by) },
              { header: 'Amount', numeric: true, cell: (r) => formatMoney(r.amount, r.currency) },
            ]}
          />
        )}
        {page.has_more && (
          <p>
            <Link href={`/refunds${refundViewSearch(view, { after: rows.at(-1)!.id })}`}>Older refunds</Link>
          </p>
        )}
      </section>
    </ConsoleShell>
  );
}
