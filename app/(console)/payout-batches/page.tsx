// /payout-batches: every batch, however it was made (this page or create_payout_batch through the API), newest first,
// each opening to its payouts; and, for a key that may send payouts, a CSV file checked row by row and sent as one
// batch, with a template file to start from.
import Link from 'next/link';
import { BatchPayoutPanel } from '@/console/browser/components/batch-payout-panel';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { EmptyState } from '@/console/browser/components/empty-state';
import { PayoutBatchesTable } from '@/console/browser/components/payout-batches-table';
import { viewerCan } from '@/console/browser/viewer';
import { env } from '@/lib/config/env';
import { isId } from '@/lib/contract';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { requireSession } from '@/console/server/session/session';

export const metadata = { title: 'Batch payout · Merchant Console' };

export default async function PayoutBatchesPage({ searchParams }: { searchParams: Promise<{ after?: string }> }) {
  const session = await requireSession();
  const zone = await pageTimeZone(session);
  if (!viewerCan(session.viewer, 'payouts:read') && !viewerCan(session.viewer, 'payouts:write'))
    return <ConsoleShell viewer={session.viewer} timeZone={zone} needs="payouts:read" />;
  const { after } = await searchParams;
  const canList = viewerCan(session.viewer, 'payouts:read');
  const page = canList
    ? (
        await pageData(session, () =>
          session.api.listPayoutBatches({
            limit: 20,
            ...(typeof after === 'string' && isId('pb', after) ? { starting_after: after } : {}),
          }),
        )
      ).data
    : null;
  return (
    <ConsoleShell viewer={session.viewer} timeZone={zone} needs={canList ? 'payouts:read' : 'payouts:write'}>
      <h1 id="batch-heading">Batch payout</h1>
      {viewerCan(session.viewer, 'payouts:write') && (
        <section className="card" aria-labelledby="send-heading">
          <h2 id="send-heading">Send a batch</h2>
          <p className="hint">
            Up to 1,000 payouts from a CSV file, checked row by row before anything is sent.{' '}
            <a href="/api/payout-batches/template" download>
              Download a template (CSV)
            </a>
          </p>
          <BatchPayoutPanel currency="IDR" retentionSeconds={env().IDEMPOTENCY_KEY_TTL_SECONDS} />
        </section>
      )}
      {page && (
        <section className="card" aria-labelledby="batches-heading">
          <h2 id="batches-heading">Batches</h2>
          <p className="muted">Every batch, sent from this page or through the API (create_payout_batch).</p>
          {page.data.length === 0 ? (
            <EmptyState>
              <p>No batches yet. Send one above, or with the API’s create_payout_batch.</p>
            </EmptyState>
          ) : (
            <PayoutBatchesTable batches={page.data} />
          )}
          {page.has_more && (
            <p>
              <Link href={`/payout-batches?after=${page.data.at(-1)!.id}`}>Older batches</Link>
            </p>
          )}
        </section>
      )}
    </ConsoleShell>
  );
}
