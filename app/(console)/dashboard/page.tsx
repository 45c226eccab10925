// /dashboard: balance, the payout form with its test accounts, recent payouts; each only when the key may use it.
import { BalanceCard } from '@/components/balance-card';
import { ConsoleShell } from '@/components/console-shell';
import { PayoutPanel } from '@/components/payout-panel';
import { RecentPayouts } from '@/components/recent-payouts';
import { TestAccounts } from '@/components/test-accounts';
import { viewerCan } from '@/lib/client/viewer';
import { env } from '@/lib/config/env';
import { requireSession } from '@/lib/session/session';

export const metadata = { title: 'Dashboard · Merchant Console' };

export default async function DashboardPage() {
  const session = await requireSession();
  const can = (needed: Parameters<typeof viewerCan>[1]) => viewerCan(session.viewer, needed);
  return (
    <ConsoleShell viewer={session.viewer}>
      {can('balance:read') && <BalanceCard />}
      {can('payouts:write') && (
        <div className="columns">
          <section className="card" aria-labelledby="payout-heading">
            <h2 id="payout-heading">Send a payout</h2>
            <PayoutPanel currency="IDR" retentionSeconds={env().IDEMPOTENCY_KEY_TTL_SECONDS} />
          </section>
          <TestAccounts />
        </div>
      )}
      {can('payouts:read') && (
        <section className="card" aria-labelledby="payouts-heading">
          <h2 id="payouts-heading">Payouts</h2>
          <RecentPayouts />
        </section>
      )}
    </ConsoleShell>
  );
}
