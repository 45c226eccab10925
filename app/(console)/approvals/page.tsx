// /approvals: payouts waiting for approval; a key with payouts:approve approves or rejects them, others see the queue.
import { ApprovalsPanel } from '@/components/approvals-panel';
import { ConsoleShell } from '@/components/console-shell';
import { viewerCan } from '@/lib/client/viewer';
import { env } from '@/lib/config/env';
import { pageTimeZone } from '@/lib/console/merchant-zone';
import { requireSession } from '@/lib/session/session';

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
