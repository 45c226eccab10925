// /payout-batches/[id]: one batch (who made it, when, its payouts counted by how they ended) and its payouts, in pages.
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { notPaid, stillOpen } from '@/console/browser/components/payout-batches-table';
import { PayoutsTable } from '@/console/browser/components/payouts-table';
import { StatusBadge } from '@/console/browser/components/status-badge';
import { PAYOUT_BATCH_STATUS } from '@/console/browser/labels';
import { viewerCan } from '@/console/browser/viewer';
import { isId } from '@/lib/contract';
import { createdByLabel, formatMoney, formatTime } from '@/lib/format';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { requireSession } from '@/console/server/session/session';

export const metadata = { title: 'Payout batch · Merchant Console' };

export default async function PayoutBatchPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ after?: string }>;
}) {
  const session = await requireSession();
  const zone = await pageTimeZone(session);
  if (!viewerCan(session.viewer, 'payouts:read')) return <ConsoleShell viewer={session.viewer} timeZone={zone} needs="payouts:read" />;
  const { id } = await params;
  if (!isId('pb', id)) notFound();
  const { after } = await searchParams;
  const [batch, payouts] = await pageData(session, () =>
    Promise.all([
      session.api.getPayoutBatch(id).then((r) => r.data),
      session.api
        .listPayouts({ batch_id: id, limit: 100, ...(typeof after === 'string' && isId('po', after) ? { starting_after: after } : {}) })
        .then((r) => r.data),
    ]),
  );
  return (
    <ConsoleShell viewer={session.viewer} timeZone={zone} needs="payouts:read">
      <p>
        <Link href="/payout-batches">← All batches</Link>
      </p>
      <h1>Batch {batch.id}</h1>
      <section className="card" aria-labelledby="batch-summary" data-testid="batch-summary">
        <h2 id="batch-summary">Summary</h2>
        <dl className="details">
          <dt>Status</dt>
          <dd>
            <StatusBadge {...PAYOUT_BATCH_STATUS[batch.status]} code={batch.status} testId="batch-status" />
          </dd>
          <dt>Made</dt>
          <dd>{formatTime(batch.created_at, zone)}</dd>
          <dt>Made by</dt>
          <dd>{createdByLabel(batch.created_by)}</dd>
          <dt>Payouts</dt>
          <dd data-testid="batch-count">{batch.payout_count.toLocaleString('en-US')}</dd>
          <dt>Paid</dt>
          <dd data-testid="batch-paid">{batch.counts.paid.toLocaleString('en-US')}</dd>
          <dt>Not paid</dt>
          <dd data-testid="batch-failed">{notPaid(batch).toLocaleString('en-US')}</dd>
          <dt>Pending</dt>
          <dd data-testid="batch-pending">{stillOpen(batch).toLocaleString('en-US')}</dd>
          <dt>Total</dt>
          <dd>{formatMoney(batch.total_amount, batch.currency)}</dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="batch-payouts">
        <h2 id="batch-payouts">Its payouts</h2>
        <PayoutsTable payouts={payouts.data} />
        {payouts.has_more && (
          <p>
            <Link href={`/payout-batches/${batch.id}?after=${payouts.data.at(-1)!.id}`}>More payouts</Link>
          </p>
        )}
      </section>
    </ConsoleShell>
  );
}
