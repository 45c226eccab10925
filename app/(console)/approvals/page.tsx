// /approvals: payouts waiting for approval; a key with payouts:approve approves or rejects them, others see the queue.
import { ApprovalsPanel } from '@/console/browser/components/approvals-panel';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { viewerCan } from '@/console/browser/viewer';
import { env } from '@/lib/config/env';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { requireSession } from '@/console/server/session/session';

export const metadata = { title: 'Approvals · Merchant Console' };

export default async function ApprovalsPage() {
  const session = await requireSession();
  if (!viewerCan(session.viewer, 'payouts:read'))
    return <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="payouts:read" />;
  const canApprove = viewerCan(session.viewer, 'payouts:approve');
  return (
    <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="payouts:read">
      <h1>Approvals</h1>
      <section className="card" aria-label="Payouts waiting for approval">
        {!canApprove && <p className="muted">This key can see the queue; approving or rejecting needs a key with payouts:approve.</p>}
        <ApprovalsPanel canApprove={canApprove} ownKeyId={session.viewer.key.id} retentionSeconds={env().IDEMPOTENCY_KEY_TTL_SECONDS} />
      </section>
    </ConsoleShell>
  );
}
