// /webhooks: endpoints that receive events, their secrets (shown once), and what was delivered to them.
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { WebhooksPanel } from '@/console/browser/components/webhooks-panel';
import { env } from '@/lib/config/env';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { requireSession } from '@/console/server/session/session';

export const metadata = { title: 'Webhooks · Merchant Console' };

export default async function WebhooksPage() {
  const session = await requireSession();
  return (
    <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="webhooks:write">
      <h1>Webhooks</h1>
      <p className="hint">
        Every payout and checkout outcome is sent to your endpoints as a signed event (Standard Webhooks). Verify the signature and
        deduplicate by <code>webhook-id</code>; see docs/webhooks.md.
      </p>
      <WebhooksPanel retentionSeconds={env().IDEMPOTENCY_KEY_TTL_SECONDS} />
    </ConsoleShell>
  );
}
