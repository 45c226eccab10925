// /payouts/[id]: one payout (live status, failure reason), copyable ids, and its timeline: created, paid or failed,
// the balance entry that returned a failed amount, its events and webhook deliveries.
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { CopyText } from '@/console/browser/components/copy-text';
import { PayoutDetail } from '@/console/browser/components/payout-detail';
import { PayoutTimeline } from '@/console/browser/components/payout-timeline';
import { payoutTimeline } from '@/console/server/data/payout-timeline';
import { payoutIdParam } from '@/console/server/routes/request-schemas';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { viewerCan } from '@/console/browser/viewer';
import { requireSession } from '@/console/server/session/session';

export const metadata = { title: 'Payout · Merchant Console' };

export default async function PayoutPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession();
  // Before any call the key may not make: the shell says what it lacks.
  if (!viewerCan(session.viewer, 'payouts:read'))
    return <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="payouts:read" />;
  const id = payoutIdParam.safeParse((await params).id);
  if (!id.success) notFound();
  const { payout, timeline } = await pageData(session, async () => {
    const payout = (await session.api.getPayout(id.data)).data;
    return { payout, timeline: await payoutTimeline(session.api, payout) };
  });
  return (
    <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="payouts:read">
      <p>
        <Link href="/payouts">← All payouts</Link>
      </p>
      <h1>
        Payout <CopyText value={payout.id} label="payout id" />
      </h1>
      {payout.batch_id && (
        <p>
          Sent in batch <CopyText value={payout.batch_id} label="batch id" />
          {payout.reference && (
            <>
              {' '}
              with reference <code>{payout.reference}</code>
            </>
          )}
        </p>
      )}
      <PayoutDetail id={payout.id} initial={payout} />
      <PayoutTimeline payout={payout} timeline={timeline} />
    </ConsoleShell>
  );
}
