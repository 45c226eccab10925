// /checkout-sessions: create a hosted checkout link, copy it, follow sessions' status.
import { CheckoutCreateForm } from '@/console/browser/components/checkout-create-form';
import { CheckoutSessionsTable } from '@/console/browser/components/checkout-sessions-table';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { viewerCan } from '@/console/browser/viewer';
import { env } from '@/lib/config/env';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { requireSession } from '@/console/server/session/session';

export const metadata = { title: 'Checkout · Merchant Console' };

export default async function CheckoutSessionsPage() {
  const session = await requireSession();
  return (
    <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="checkout_sessions:read">
      <h1>Checkout</h1>
      {viewerCan(session.viewer, 'checkout_sessions:write') && (
        <div className="columns">
          <section className="card" aria-labelledby="new-checkout-heading">
            <h2 id="new-checkout-heading">New checkout session</h2>
            <CheckoutCreateForm retentionSeconds={env().IDEMPOTENCY_KEY_TTL_SECONDS} />
          </section>
          <aside className="card test-values">
            <h3>Test cards</h3>
            <ul>
              <li>
                <code>4242 4242 4242 4242</code> succeeds
              </li>
              <li>
                <code>4000 0000 0000 0002</code> is declined
              </li>
              <li>
                <code>4000 0000 0000 5126</code> succeeds; its refunds fail
              </li>
            </ul>
          </aside>
        </div>
      )}
      <section className="card" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Checkout sessions</h2>
        <CheckoutSessionsTable />
      </section>
    </ConsoleShell>
  );
}
