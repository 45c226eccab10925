// /payouts: every payout, filtered by status; statuses update as payouts settle.
import { ConsoleShell } from '@/components/console-shell';
import { PayoutsBrowser } from '@/components/payouts-browser';
import { requireSession } from '@/lib/session/session';

export const metadata = { title: 'Payouts · Merchant Console' };

export default async function PayoutsPage() {
  const session = await requireSession();
  return (
    <ConsoleShell viewer={session.viewer} needs="payouts:read">
      <h1>Payouts</h1>
      <PayoutsBrowser />
    </ConsoleShell>
  );
}
