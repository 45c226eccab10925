// /checkout/[id]: the hosted checkout page a customer pays on. Public: no merchant key, no session.
// The API's side (app/(hosted)): its data comes from the API runtime of this process, never from the console.
import { notFound } from 'next/navigation';
import { HostedPayForm } from './hosted-pay-form';
import { isId } from '@/lib/contract';
import { formatMoney } from '@/lib/format';
import { hostedCheckout } from '@/lib/server/hosted-checkout';

export const metadata = { title: 'Checkout', robots: { index: false } };

// A refunded session was paid first: to the customer it is as paid as a complete one.
const CLOSED = {
  complete: 'This checkout session has already been paid.',
  refunded: 'This checkout session has already been paid.',
  expired: 'This checkout session has expired.',
} as const;

export default async function HostedCheckoutPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isId('cs', id)) notFound();
  // The hosted page is the API's: a console-only process (PAYMENT_API_BASE_URL) has none to show.
  const checkout = hostedCheckout();
  if (!checkout) notFound();
  const session = await checkout.find(id);
  if (!session) notFound();
  const amount = formatMoney(session.amount, session.currency);
  return (
    <main className="page center">
      <section className="card narrow" aria-labelledby="checkout-heading">
        <p className="muted">Pay {session.merchantName}</p>
        <h1 id="checkout-heading" data-testid="checkout-amount">
          {amount}
        </h1>
        {session.description && <p>{session.description}</p>}
        {session.status === 'open' ? (
          <>
            <HostedPayForm sessionId={session.id} payLabel={`Pay ${amount}`} />
            <p className="hint">Test mode. Card 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined.</p>
          </>
        ) : (
          <p className="warning" role="status">
            {CLOSED[session.status]}
          </p>
        )}
      </section>
    </main>
  );
}
