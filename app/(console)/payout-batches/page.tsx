// /payout-batches: send up to 1,000 payouts from a CSV file, checked row by row first.
import { BatchPayoutPanel } from '@/console/browser/components/batch-payout-panel';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { env } from '@/lib/config/env';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { requireSession } from '@/console/server/session/session';

export const metadata = { title: 'Batch payout · Merchant Console' };

export default async function PayoutBatchesPage() {
  const session = await requireSession();
  return (
    <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="payouts:write">
      <section className="card" aria-labelledby="batch-heading">
        <h1 id="batch-heading">Batch payout</h1>
        <BatchPayoutPanel currency="IDR" retentionSeconds={env().IDEMPOTENCY_KEY_TTL_SECONDS} />
      </section>
    </ConsoleShell>
  );
}
