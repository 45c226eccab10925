// /payouts/[id]: one payout, with the failure reason when it failed.
import Link from 'next/link';
import { ConsoleShell } from '@/components/console-shell';
import { PayoutDetail } from '@/components/payout-detail';
import { requireSession } from '@/lib/session/session';

export const metadata = { title: 'Payout · Merchant Console' };

export default async function PayoutPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession();
  const { id } = await params;
  return (
    <ConsoleShell viewer={session.viewer} needs="payouts:read">
      <p>
        <Link href="/payouts">← All payouts</Link>
      </p>
      <h1>
        Payout <code>{id}</code>
      </h1>
      <PayoutDetail id={id} />
    </ConsoleShell>
  );
}
