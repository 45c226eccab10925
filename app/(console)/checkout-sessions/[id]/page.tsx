// /checkout-sessions/[id]: one checkout session (amount, description, status, times, its link). Server-rendered.
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ConsoleShell } from '@/components/console-shell';
import { CopyLink } from '@/components/copy-link';
import { CopyText } from '@/components/copy-text';
import { formatMoney, formatTime } from '@/lib/format';
import { requireSession } from '@/lib/session/session';
import { pageData } from '@/lib/console/page-data';

export const metadata = { title: 'Checkout session · Merchant Console' };

export default async function CheckoutSessionPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession();
  const { id } = await params;
  if (!/^cs_[0-9A-Za-z]{1,96}$/.test(id)) notFound();
  const cs = (await pageData(session, () => session.api.getCheckoutSession(id))).data;
  return (
    <ConsoleShell testMode={session.testMode}>
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
          </dd>
          <dt>Created</dt>
          <dd>{formatTime(cs.created_at)}</dd>
          <dt>Paid</dt>
          <dd>{cs.completed_at ? formatTime(cs.completed_at) : <span className="muted">not yet</span>}</dd>
          <dt>Card</dt>
          <dd data-testid="cs-card">{cs.card_last4 ? `•••• ${cs.card_last4}` : <span className="muted">not paid yet</span>}</dd>
          <dt>Expires</dt>
          <dd>{formatTime(cs.expires_at)}</dd>
          <dt>Link</dt>
          <dd>{cs.status === 'open' ? <CopyLink url={cs.url} /> : <span className="muted">closed</span>}</dd>
        </dl>
      </section>
    </ConsoleShell>
  );
}
