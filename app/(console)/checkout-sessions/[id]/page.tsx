// /checkout-sessions/[id]: one checkout session (amount, description, status, times, its link), and its refunds. Server-rendered.
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { CopyLink } from '@/console/browser/components/copy-link';
import { CopyText } from '@/console/browser/components/copy-text';
import { RefundPanel } from '@/console/browser/components/refund-panel';
import { env } from '@/lib/config/env';
import { formatMoney, refundMark } from '@/lib/format';
import { viewerCan } from '@/console/browser/viewer';
import { isId } from '@/lib/contract';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { requireSession } from '@/console/server/session/session';
import { Time } from '@/console/browser/components/time-zone';

export const metadata = { title: 'Checkout session · Merchant Console' };

export default async function CheckoutSessionPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession();
  // Before any call the key may not make: the shell says what it lacks.
  if (!viewerCan(session.viewer, 'checkout_sessions:read'))
    return <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="checkout_sessions:read" />;
  const { id } = await params;
  if (!isId('cs', id)) notFound();
  const cs = (await pageData(session, () => session.api.getCheckoutSession(id))).data;
  return (
    <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="checkout_sessions:read">
      <p>
        <Link href="/checkout-sessions">← All checkout sessions</Link>
      </p>
      <h1>
        Checkout session <CopyText value={cs.id} label="checkout session id" />
      </h1>
      <section className="card" aria-label="Checkout session details">
        <dl className="details">
          <dt>Amount</dt>
          <dd data-testid="cs-amount">{formatMoney(cs.amount, cs.currency)}</dd>
          <dt>Description</dt>
          <dd>{cs.description ?? <span className="muted">none</span>}</dd>
          <dt>Status</dt>
          <dd>
            <span className={`status status-${cs.status}`} data-testid="cs-status">
              {cs.status}
            </span>
            {refundMark(cs) === 'partly refunded' && (
              <span className="status status-partly-refunded" data-testid="cs-refund-mark">
                {' '}
                partly refunded
              </span>
            )}
          </dd>
          <dt>Created</dt>
          <dd>
            <Time iso={cs.created_at} />
          </dd>
          <dt>Paid</dt>
          <dd>{cs.completed_at ? <Time iso={cs.completed_at} /> : <span className="muted">not yet</span>}</dd>
          <dt>Card</dt>
          <dd data-testid="cs-card">{cs.card_last4 ? `•••• ${cs.card_last4}` : <span className="muted">not paid yet</span>}</dd>
          <dt>Expires</dt>
          <dd>
            <Time iso={cs.expires_at} />
          </dd>
          <dt>Link</dt>
          <dd>{cs.status === 'open' ? <CopyLink url={cs.url} /> : <span className="muted">closed</span>}</dd>
        </dl>
      </section>
      {(cs.status === 'complete' || cs.status === 'refunded') && (
        <section className="card" aria-labelledby="refunds-heading">
          <h2 id="refunds-heading">Refunds</h2>
          {viewerCan(session.viewer, 'refunds:read') ? (
            <RefundPanel
              session={{ id: cs.id, amount: cs.amount, currency: cs.currency, status: cs.status }}
              canRefund={viewerCan(session.viewer, 'refunds:write')}
              retentionSeconds={env().IDEMPOTENCY_KEY_TTL_SECONDS}
            />
          ) : (
            <p className="muted">
              Refunded: {formatMoney(cs.amount_refunded, cs.currency)}. This key lacks refunds:read, which listing refunds needs.
            </p>
          )}
        </section>
      )}
    </ConsoleShell>
  );
}
